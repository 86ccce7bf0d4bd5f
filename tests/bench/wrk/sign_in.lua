-- Password sign-in (supabase-js: auth.signInWithPassword) for the confirmed bench user: bcrypt cost 10 per request.
dofile(os.getenv("BENCH_LUA_DIR") .. "/common.lua")
wrk.method = "POST"
wrk.path = "/auth/v1/token?grant_type=password"
wrk.headers["Content-Type"] = "application/json;charset=UTF-8"
wrk.body = string.format('{"email":"%s","password":"%s","gotrue_meta_security":{}}',
  os.getenv("BENCH_SIGNIN_EMAIL"), os.getenv("BENCH_SIGNIN_PASSWORD"))
