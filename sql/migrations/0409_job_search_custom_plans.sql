-- Vacancies 10/n (issue 24, found by tests/bench/jobs): the job search reaches live jobs with keywords through the GIN
-- index of live jobs (jobs_active_search_vector_idx) instead of reading every job.
-- Two things stopped it:
--   * row-level security: called as anon or a candidate, the policy's qual (status = 'active') must run before any qual
--     that is not leakproof, and the full-text match (@@, ts_match_vq) is not, so PostgreSQL could not use it as an
--     index condition and read all 11,000 rows of the benchmark, testing each row's tsvector. The search now runs as
--     its definer (app_definer, 0330) in app_private, which the API does not expose; public.search_jobs (the RPC and
--     what /jobs calls) stays a plain function that calls it. The search already reads only live jobs
--     (j.status = 'active', the same rows the anon and candidate policies show) and returns only what the job page
--     shows, so nobody sees more than before.
--   * the plan cache: the filters are written "(query is null or j.search_vector @@ query)", which PL/pgSQL's generic
--     plan (used from the sixth call) cannot decide; a custom plan per call folds the unused filters away.
alter function public.search_jobs(text, text[], public.uk_region[], text, public.employment_type[],
  public.work_arrangement[], integer, integer, integer, text) set schema app_private;
alter function app_private.search_jobs(text, text[], public.uk_region[], text, public.employment_type[],
  public.work_arrangement[], integer, integer, integer, text)
  security definer set plan_cache_mode = force_custom_plan;
comment on function app_private.search_jobs(text, text[], public.uk_region[], text, public.employment_type[],
  public.work_arrangement[], integer, integer, integer, text) is
  'The job search behind public.search_jobs, as its definer (live jobs only) so keywords can use the GIN index under RLS.';
revoke all on function app_private.search_jobs(text, text[], public.uk_region[], text, public.employment_type[],
  public.work_arrangement[], integer, integer, integer, text) from public;
grant execute on function app_private.search_jobs(text, text[], public.uk_region[], text, public.employment_type[],
  public.work_arrangement[], integer, integer, integer, text) to anon, authenticated, service_role;
-- service_role calls it too (server-side clients search like visitors). anon and authenticated already use the
-- schema (0100, 0260); service_role gets the same usage, which reaches no table there (none is granted to it) and no
-- function anon could not already call.
grant usage on schema app_private to service_role;

create function public.search_jobs(
  q text default null,
  sector text[] default null,
  region public.uk_region[] default null,
  location text default null,
  employment_type public.employment_type[] default null,
  work_arrangement public.work_arrangement[] default null,
  salary_min integer default null,
  posted_within integer default null,
  page integer default 1,
  sort text default 'newest'
) returns jsonb
  language sql stable set search_path = ''
as $$
  select app_private.search_jobs(q, sector, region, location, employment_type, work_arrangement, salary_min,
                                 posted_within, page, sort)
$$;
comment on function public.search_jobs(text, text[], public.uk_region[], text, public.employment_type[], public.work_arrangement[], integer, integer, integer, text) is
  'Public job search: a page of 20 live jobs (newest first, or relevance), total, pages and per-facet counts. Keywords: English full text (websearch syntax, stemmed) over title, company, requirements, description. location: part of the town, or a region''s name. salary_min: yearly jobs paying at least this (Competitive excluded). posted_within: days.';
revoke all on function public.search_jobs(text, text[], public.uk_region[], text, public.employment_type[], public.work_arrangement[], integer, integer, integer, text) from public;
grant execute on function public.search_jobs(text, text[], public.uk_region[], text, public.employment_type[], public.work_arrangement[], integer, integer, integer, text)
  to anon, authenticated, service_role;
