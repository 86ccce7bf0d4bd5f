-- GET one row by primary key as anon (supabase-js: from('items').select('*').eq('id', n)).
dofile(os.getenv("BENCH_LUA_DIR") .. "/common.lua")
wrk.headers["Accept-Profile"] = "public"
request = cycle(1000, function()
  return wrk.format("GET", prefix .. "/items?select=*&id=eq." .. math.random(1, 1000))
end)
