-- Platform (rest): let the API roles turn on query identifiers inside their own transaction, so
-- `Accept: application/vnd.pgrst.plan…; options=verbose` shows "Query Identifier" as PostgREST does on Supabase
-- (where pg_stat_statements enables it). Only computes a hash per query; grants nothing else.
-- Needs PostgreSQL 15+ and a superuser owner; otherwise it is skipped and plans simply omit the identifier.
do $$
begin
  grant set on parameter compute_query_id to anon, authenticated, service_role;
exception when others then
  raise notice 'compute_query_id not granted (%): EXPLAIN VERBOSE will omit the query identifier', sqlerrm;
end
$$;
