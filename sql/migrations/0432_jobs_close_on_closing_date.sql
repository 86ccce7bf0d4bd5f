-- Vacancies (issue 24, editor 3/5): a job closes itself at the end of its closing date. The closing date is the last
-- UK day to apply; app_private.close_expired_jobs() closes every live job whose closing date is before today in
-- Europe/London, so a job with closing date 30 June closes at the first run after midnight UK time. pg_cron runs it
-- every minute where pg_cron is loaded for this database (app_private.schedule_job_closing(), as the retention pass);
-- each closing is a row in the audit log (actor: the database role the scheduler runs as).
set local client_min_messages = warning;

create index jobs_active_closing_date_idx on public.jobs (closing_date) where status = 'active' and closing_date is not null;

create or replace function app_private.close_expired_jobs(as_of timestamptz default now()) returns integer
  language plpgsql set search_path = ''
as $$
declare
  closed integer;
begin
  update public.jobs set status = 'closed'
  where status = 'active' and closing_date < (as_of at time zone 'Europe/London')::date;
  get diagnostics closed = row_count;
  -- pg_cron keeps a row per run: keep a day of this job's.
  if to_regclass('cron.job_run_details') is not null then
    execute 'delete from cron.job_run_details d using cron.job j
             where j.jobid = d.jobid and j.jobname = $1 and d.end_time < now() - interval ''1 day'''
      using 'close-expired-jobs';
  end if;
  return closed;
end;
$$;
comment on function app_private.close_expired_jobs(timestamptz) is
  'Closes every active job whose closing date (a UK date) is before the UK date of as_of; returns how many. pg_cron runs it every minute.';
revoke all on function app_private.close_expired_jobs(timestamptz) from public;

create or replace function app_private.schedule_job_closing(schedule text default '* * * * *')
returns text
language plpgsql set search_path = '' as $$
begin
  if coalesce(current_setting('cron.database_name', true), '') <> current_database() then
    return 'pg_cron is not loaded for database ' || current_database()
      || ': run "select app_private.close_expired_jobs()" every minute from a scheduler, or load pg_cron and call app_private.schedule_job_closing()';
  end if;
  create extension if not exists pg_cron with schema pg_catalog;
  perform cron.schedule('close-expired-jobs', schedule, 'select app_private.close_expired_jobs()');
  return 'scheduled close-expired-jobs (' || schedule || ') with pg_cron';
end
$$;
revoke all on function app_private.schedule_job_closing(text) from public;

select app_private.close_expired_jobs();
select app_private.schedule_job_closing();
