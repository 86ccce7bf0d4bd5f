-- A 25-row page with one to-one embed (select('id,name,price,category:categories(id,name)').order('id').range(o, o+24)).
dofile(os.getenv("BENCH_LUA_DIR") .. "/common.lua")
wrk.headers["Accept-Profile"] = "public"
request = cycle(1000, function()
  local offset = math.random(0, 975)
  return wrk.format("GET", prefix .. "/items?select=id,name,price,category:categories(id,name)&order=id.asc&offset="
    .. offset .. "&limit=25")
end)
