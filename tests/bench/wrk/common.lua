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
-- `cycle(n, make)`: a request() that cycles through n requests built once by make() (random ids drawn up front).
-- Building each request with wrk.format cost the load generator more CPU than the gateway spent answering it, on
-- the same two cores; a table lookup per request leaves that CPU to the gateway and PostgreSQL.
function cycle(n, make)
  local built = {}
  for i = 1, n do built[i] = make() end
  local i = 0
  return function()
    i = i % n + 1
    return built[i]
  end
end
