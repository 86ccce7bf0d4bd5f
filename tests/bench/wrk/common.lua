-- Shared by the scenario scripts: the anon key as supabase-js sends it (apikey + Bearer) and the profile header.
local key = os.getenv("BENCH_KEY") or ""
wrk.headers["apikey"] = key
wrk.headers["Authorization"] = "Bearer " .. key
math.randomseed(os.time() + math.floor(os.clock() * 1000000))
