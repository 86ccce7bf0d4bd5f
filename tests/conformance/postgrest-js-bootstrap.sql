-- What a Supabase project has before its migrations run, beyond the gateway's platform schema (`gateway migrate`):
-- the historical default privileges on schema public, which the postgrest-js fixtures rely on (they grant nothing
-- themselves except on schema `personal`). Loaded by tests/conformance/postgrest-js.sh as the superuser, before the
-- fixtures, into the suite's throwaway database only.
grant usage on schema public to anon, authenticated, service_role;
grant usage on schema extensions to anon, authenticated, service_role;
alter default privileges in schema public grant all on tables to anon, authenticated, service_role;
alter default privileges in schema public grant all on functions to anon, authenticated, service_role;
alter default privileges in schema public grant all on sequences to anon, authenticated, service_role;
