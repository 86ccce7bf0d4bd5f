-- Vacancies 10/n (issue 24, found by tests/bench/jobs): search_jobs reaches live jobs with keywords through the GIN
-- index of live jobs (jobs_active_search_vector_idx) instead of reading every job.
-- Two things stopped it:
--   * row-level security: called as anon or a candidate, the policy's qual (status = 'active') must run before any qual
--     that is not leakproof, and the full-text match (@@, ts_match_vq) is not, so PostgreSQL could not use it as an
--     index condition and read all 11,000 rows of the benchmark, testing each row's tsvector. The function now runs
--     as its definer (app_definer, 0330). It already reads only live jobs (j.status = 'active', the same rows the
--     anon and candidate policies show) and returns only what the job page shows, so nobody sees more than before.
--   * the plan cache: the filters are written "(query is null or j.search_vector @@ query)", which PL/pgSQL's generic
--     plan (used from the sixth call) cannot decide; a custom plan per call folds the unused filters away.
alter function public.search_jobs(text, text[], public.uk_region[], text, public.employment_type[],
  public.work_arrangement[], integer, integer, integer, text)
  security definer set plan_cache_mode = force_custom_plan;
