-- Shared by the scenario scripts: the anon key as supabase-js sends it (apikey + Bearer) and the profile header.
local key = os.getenv("BENCH_KEY") or ""
wrk.headers["apikey"] = key
wrk.headers["Authorization"] = "Bearer " .. key
-- Where the data API is mounted: /rest/v1 on the gateway, / on a bare PostgREST-compatible peer.
prefix = os.getenv("BENCH_PREFIX") or "/rest/v1"
math.randomseed(os.time() + math.floor(os.clock() * 1000000))
-- The tail beyond wrk's --latency table (99.9th percentile and maximum, in ms), read by tests/bench/lib.sh.
done = function(summary, latency, requests)
  io.write(string.format("tail: p99.9=%.2fms max=%.2fms\n", latency:percentile(99.9) / 1000, latency.max / 1000))
end
