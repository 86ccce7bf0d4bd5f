-- A single insert without representation (from('events').insert({...})): 201, empty body.
dofile(os.getenv("BENCH_LUA_DIR") .. "/common.lua")
wrk.method = "POST"
wrk.path = prefix .. "/events"
wrk.headers["Content-Profile"] = "public"
wrk.headers["Content-Type"] = "application/json"
wrk.body = '{"kind":"bench","payload":{"n":1}}'
