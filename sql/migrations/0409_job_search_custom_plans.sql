-- Vacancies 10/n (issue 24, found by tests/bench/jobs): search_jobs plans its statement for the values of each call.
-- Its filters are written "(query is null or j.search_vector @@ query)", so PL/pgSQL's generic plan (which it
-- switches to after five calls) cannot know whether a keyword was given and scanned every job: at 1,000 jobs the
-- 11th call read all of them sequentially. A custom plan per call folds the unused filters away and reaches live
-- jobs through jobs_active_search_vector_idx (GIN) when there are keywords; planning costs well under a millisecond.
alter function public.search_jobs(text, text[], public.uk_region[], text, public.employment_type[],
  public.work_arrangement[], integer, integer, integer, text)
  set plan_cache_mode = force_custom_plan;
