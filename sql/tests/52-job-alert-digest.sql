-- The job alert digest (0406): what a pass sends (new live jobs that match, at most 12, newest first, with the
-- one-click unsubscribe headers), what it never sends (a job twice, a digest with nothing in it, before a daily or
-- weekly alert is due, to an unconfirmed or deleted alert), its bound per pass, the purge of unconfirmed alerts after
-- 7 days, and that only the owner (pg_cron, make job-alerts) can run it.
begin;
\ir lib/setup.sql
select plan(22);

-- Two confirmed alerts (a daily one for managers in London, a weekly one for everything) and a pending one.
insert into public.job_alerts (id, email, status, frequency, q, regions, consent_text, confirmed_at, created_at) values
  (tests.row('a-daily'), 'daily@pgtap.test', 'active', 'daily', 'manager', '{London}', 'Yes', now() - interval '2 days', now() - interval '2 days'),
  (tests.row('a-weekly'), 'weekly@pgtap.test', 'active', 'weekly', null, null, 'Yes', now() - interval '2 days', now() - interval '2 days'),
  (tests.row('a-pending'), 'pending@pgtap.test', 'pending', 'weekly', null, null, 'Yes', null, now() - interval '8 days'),
  (tests.row('a-fresh'), 'fresh@pgtap.test', 'pending', 'weekly', null, null, 'Yes', null, now() - interval '1 day');

-- When a job went live (published_at is the database's own, set by a trigger: set here with triggers off).
create function pg_temp.went_live(refs text, at timestamptz) returns void language plpgsql as $f$
begin
  perform set_config('session_replication_role', 'replica', true);
  update public.jobs set published_at = at where job_id ~ refs;
  perform set_config('session_replication_role', 'origin', true);
end
$f$;

-- Nothing new since they were confirmed (the fixture's jobs went live before): nothing is sent
select pg_temp.went_live('^T-', now() - interval '3 days');
select is((private.run_job_alerts() ->> 'digests')::int, 0, 'no new job, no digest');
select is((select count(*)::int from public.job_alerts where id = tests.row('a-pending')), 0, 'an alert unconfirmed for 7 days is removed');
select is((select count(*)::int from public.job_alerts where id = tests.row('a-fresh')), 1, 'a younger unconfirmed one stays');

-- 14 new jobs in London for managers (job n went live n hours ago), one in Leeds
insert into public.jobs (job_id, status, title, company, location, description)
select 'D-' || n, 'active', 'Development Manager ' || n, 'Firm', 'London', 'Lead projects.' from generate_series(1, 14) n;
insert into public.jobs (job_id, status, title, company, location, description) values ('D-leeds', 'active', 'Site Manager', 'Firm', 'Leeds', 'Build.');
do $$ begin
  for n in 1..14 loop perform pg_temp.went_live('^D-' || n || '$', now() - make_interval(hours => n)); end loop;
  perform pg_temp.went_live('^D-leeds$', now() - interval '30 minutes');
end $$;

select results_eq($$ select (r ->> 'digests')::int, (r ->> 'jobs_sent')::int from (select private.run_job_alerts() r) x $$,
  $$ values (2, 24) $$, 'one digest per alert, at most 12 jobs each');
create temp table daily_mail as select * from gateway.outbox where to_address = 'daily@pgtap.test';
select is((select count(*)::int from daily_mail), 1, 'the daily alert got one e-mail');
select is((select subject from daily_mail), '12 new roles for your job alert: “manager” · London', 'its subject');
select ok((select body_text ~ 'Development Manager 12\n' and body_text !~ 'Development Manager 13' and body_text !~ 'Site Manager' from daily_mail),
  'the newest 12 that match: not the 13th, not Leeds');
select ok((select position('Development Manager 1' || E'\n' in body_text) < position('Development Manager 2' || E'\n' in body_text) from daily_mail), 'newest first');
select ok((select headers ->> 'List-Unsubscribe-Post' = 'List-Unsubscribe=One-Click'
             and headers ->> 'List-Unsubscribe' ~ '^<.*/alerts/unsubscribe\?token=[0-9a-f-]{36}\.[0-9a-f]{64}>$' from daily_mail),
  'RFC 8058 one-click headers');
select ok((select body_text ~ '/alerts/unsubscribe\?token=' and body_html ~ 'Unsubscribe' from daily_mail), 'a visible unsubscribe link in both bodies');
select ok((select body_text ~ 'advertised by ' from daily_mail), 'the agency is named');
select is((select status from daily_mail), 'queued', 'queued for delivery (an address the person confirmed: no caps)');

-- A repeated pass sends nothing twice; later passes only what went live since the last digest
select is((private.run_job_alerts() ->> 'digests')::int, 0, 'running it again sends nothing');
select is((private.run_job_alerts(now() + interval '1 day') ->> 'digests')::int, 0,
  'a day later nothing went live since the digest: nothing sent (the 13th and 14th were older than it)');
insert into public.jobs (job_id, status, title, company, location, description) values ('E-1', 'active', 'Estates Manager', 'Firm', 'London', 'Estates.');
select pg_temp.went_live('^E-1$', now() + interval '25 hours');
select is((private.run_job_alerts(now() + interval '2 days') ->> 'digests')::int, 1, 'two days on: the daily alert gets the new job; the weekly one is not due');
select is((private.run_job_alerts(now() + interval '8 days') ->> 'digests')::int, 1, 'a week on: the weekly alert gets it; the daily one never twice');
select is((select count(*)::int from private.job_alert_sends s join public.jobs j on j.id = s.job_id where j.job_id = 'E-1'), 2, 'each alert was sent the job once');

-- The bound per pass
insert into public.jobs (job_id, status, title, company, location, description) values ('E-2', 'active', 'Asset Manager', 'Firm', 'London', 'Assets.');
select pg_temp.went_live('^E-2$', now() + interval '9 days');
select is((private.run_job_alerts(now() + interval '16 days', 1) ->> 'digests')::int, 1, 'at most max_mails digests a pass');
select is((private.run_job_alerts(now() + interval '16 days', 1) ->> 'digests')::int, 1, 'the other one is due at the next pass');

-- Deleted alerts get nothing; the runs are logged without personal data
delete from public.job_alerts where id = tests.row('a-daily');
insert into public.jobs (job_id, status, title, company, location, description) values ('E-3', 'active', 'Project Manager', 'Firm', 'London', 'Projects.');
select pg_temp.went_live('^E-3$', now() + interval '17 days');
select is((private.run_job_alerts(now() + interval '30 days') ->> 'digests')::int, 1, 'only the alert still there gets the next job');
select ok((select count(*) > 0 and bool_and(to_jsonb(r)::text !~ '@') from private.job_alert_runs r), 'every pass logged, no address in the log');

-- Only the owner runs it
select tests.as_service();
select throws_ok($$ select private.run_job_alerts() $$, '42501', null, 'service_role cannot run the pass');

select * from finish();
rollback;
