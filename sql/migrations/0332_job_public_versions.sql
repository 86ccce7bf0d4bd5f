-- What the Career Hub shows of a job that is no longer public (U4). my_saved_jobs(), my_applications() and
-- export_my_data() run with their owner's rights and joined public.jobs without its row rule: a job saved while
-- active and later turned into a draft ("CONFIDENTIAL: replacement for CFO at Acme plc", its company and salary)
-- came back in full to whoever had saved it, though GET /rest/v1/jobs?id=eq.… returns []. They now show a job's
-- current details only while it is active (what anyone may read), and otherwise its last public version: the
-- details it had the last time it was active, which the candidate could see then, marked closed. A job that was
-- never public shows no details at all.
set local client_min_messages = warning;

create table app_private.job_public_versions (
  job_id uuid primary key references public.jobs (id) on delete cascade,
  reference text,
  title text,
  company text,
  location text,
  salary text,
  type text,
  recorded_at timestamptz not null default now()
);
comment on table app_private.job_public_versions is
  'Each job''s details as they were the last time it was active (public): what the Career Hub shows of a saved or applied-for job once it is closed or a draft.';

-- AFTER INSERT OR UPDATE on jobs: an active job's public details become its last public version.
create or replace function app_private.record_job_public_version() returns trigger
language plpgsql security definer set search_path = '' as $$
begin
  if new.status = 'active' then
    insert into app_private.job_public_versions as v (job_id, reference, title, company, location, salary, type)
    values (new.id, new.job_id, new.title, new.company, new.location, new.salary, new.type)
    on conflict (job_id) do update
      set reference = excluded.reference, title = excluded.title, company = excluded.company,
          location = excluded.location, salary = excluded.salary, type = excluded.type, recorded_at = now()
      where (v.reference, v.title, v.company, v.location, v.salary, v.type)
            is distinct from (excluded.reference, excluded.title, excluded.company, excluded.location, excluded.salary,
                              excluded.type);
  end if;
  return null;
end
$$;
revoke all on function app_private.record_job_public_version() from public;

drop trigger if exists jobs_record_public_version on public.jobs;
create trigger jobs_record_public_version after insert or update on public.jobs
  for each row execute function app_private.record_job_public_version();

-- The jobs that are public now. (Closed and draft jobs have no known public version: nothing of them is shown.)
insert into app_private.job_public_versions (job_id, reference, title, company, location, salary, type)
select j.id, j.job_id, j.title, j.company, j.location, j.salary, j.type from public.jobs j where j.status = 'active'
on conflict (job_id) do nothing;

-- A job as the Career Hub may show it: its current details while active, else its last public version (status
-- 'closed'), 'removed' when the job row is gone.
create or replace function app_private.job_as_shown(job uuid)
returns table (reference text, title text, company text, location text, salary text, type text, status text)
language sql stable security definer set search_path = '' as $$
  select coalesce(case when j.status = 'active' then j.job_id end, v.reference),
         case when j.status = 'active' then j.title else v.title end,
         case when j.status = 'active' then j.company else v.company end,
         case when j.status = 'active' then j.location else v.location end,
         case when j.status = 'active' then j.salary else v.salary end,
         case when j.status = 'active' then j.type else v.type end,
         case when j.id is null then 'removed' when j.status = 'active' then 'active' else 'closed' end
  from (select job) k
  left join public.jobs j on j.id = k.job
  left join app_private.job_public_versions v on v.job_id = k.job
$$;
revoke all on function app_private.job_as_shown(uuid) from public;
comment on function app_private.job_as_shown(uuid) is
  'A job''s details as a candidate may see them: current while active, else the last public version (closed), else none.';

create or replace function public.my_saved_jobs()
returns table (job_id uuid, saved_at timestamptz, title text, company text, location text, salary text, type text,
               status text)
language sql stable security definer set search_path = '' as $$
  select s.job_id, s.created_at, j.title, j.company, j.location, j.salary, j.type, j.status
    from public.saved_jobs s cross join lateral app_private.job_as_shown(s.job_id) j
   where s.user_id = private.require_uid()
   order by s.created_at desc
$$;
comment on function public.my_saved_jobs() is
  'The caller''s saved jobs, newest first: title, company, location, salary, type while the job is active; once it is not, status closed and the details it last had while public (null if it never was).';

create or replace function public.my_applications()
returns table (id uuid, applied_at timestamptz, job_id uuid, job_title text, company text, job_status text)
language sql stable security definer set search_path = '' as $$
  select a.id, a.created_at, a.job_id, j.title, j.company, j.status
    from public.applications a cross join lateral app_private.job_as_shown(a.job_id) j
   where a.user_id = private.require_uid()
   order by a.created_at desc, a.id
$$;
comment on function public.my_applications() is
  'The caller''s applications (made while signed in), newest first, with the job''s title and company as the candidate may see them and its status (active, closed, removed).';
