-- A 25-row page of 100,000 items, each with its array of notes (a to-many embed), from a random key onwards:
-- select('id,name,price,bench_notes(id,body)').gte('id', n).order('id').limit(25).
dofile(os.getenv("BENCH_LUA_DIR") .. "/common.lua")
wrk.headers["Accept-Profile"] = "public"
request = cycle(1000, function()
  return wrk.format("GET", prefix .. "/items?select=id,name,price,bench_notes(id,body)&id=gte."
    .. math.random(1, 99976) .. "&order=id.asc&limit=25")
end)
