-- Admin area 3/6: the admin dashboard's job figures in one call, with the Data Quality rule (spec §5) in SQL.
-- supabase-js: rpc('admin_job_overview') -> { total, active, incomplete, jobs: [first 10, newest first],
-- issues: [every incomplete job with what is missing] }. Non-admins get 42501.

-- What a job lacks by the spec's "incomplete job" rule: no description, no requirements, company 'Unknown Company',
-- no salary, or salary 'Competitive'. Empty when the job is complete.
create or replace function public.job_missing_fields(job public.jobs) returns text[]
  language sql immutable set search_path = ''
as $$
  select array_remove(array[
    case when nullif(btrim(job.description), '') is null then 'description' end,
    case when nullif(btrim(job.requirements), '') is null then 'requirements' end,
    case when job.company = 'Unknown Company' then 'company' end,
    case when nullif(btrim(job.salary), '') is null then 'salary'
         when btrim(job.salary) = 'Competitive' then 'salary_competitive' end
  ], null)
$$;
revoke all on function public.job_missing_fields(public.jobs) from public, anon;
grant execute on function public.job_missing_fields(public.jobs) to authenticated, service_role;
comment on function public.job_missing_fields(public.jobs) is
  'The spec''s incomplete-job rule: description, requirements, company (Unknown Company), salary (none) or salary_competitive (Competitive). Empty array = complete.';

create or replace function public.admin_job_overview(list_limit integer default 10) returns json
  language plpgsql stable set search_path = ''
as $$
declare
  result json;
begin
  if not public.is_admin() then
    raise exception 'only admins can read the job overview' using errcode = '42501';
  end if;
  with checked as (
    select j.id, j.job_id, j.title, j.company, j.location, j.salary, j.type, j.status, j.posted_date,
           public.job_missing_fields(j) as missing
    from public.jobs j
  )
  select json_build_object(
    'total', (select count(*) from checked),
    'active', (select count(*) from checked where status = 'active'),
    'incomplete', (select count(*) from checked where cardinality(missing) > 0),
    'jobs', coalesce((
      select json_agg(t order by t.posted_date desc, t.id)
      from (select id, job_id, title, company, location, salary, type, status, posted_date, missing
            from checked order by posted_date desc, id limit greatest(list_limit, 0)) t), '[]'),
    'issues', coalesce((
      select json_agg(t order by t.posted_date desc, t.id)
      from (select id, job_id, title, company, status, posted_date, missing
            from checked where cardinality(missing) > 0) t), '[]')
  ) into result;
  return result;
end;
$$;
revoke all on function public.admin_job_overview(integer) from public, anon;
grant execute on function public.admin_job_overview(integer) to authenticated;
comment on function public.admin_job_overview(integer) is
  'Admins only: total, active and incomplete job counts, the first list_limit jobs (newest first) and every incomplete job with its missing fields, as one JSON object.';
