-- A scalar RPC with named arguments (rpc('add_them', {a, b})).
dofile(os.getenv("BENCH_LUA_DIR") .. "/common.lua")
wrk.headers["Content-Profile"] = "public"
wrk.headers["Content-Type"] = "application/json"
request = cycle(1000, function()
  return wrk.format("POST", prefix .. "/rpc/add_them", nil,
    string.format('{"a":%d,"b":%d}', math.random(1, 1000), math.random(1, 1000)))
end)
