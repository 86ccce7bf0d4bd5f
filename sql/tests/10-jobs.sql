-- jobs: the public reads active jobs newest first; admins read every status and write in the job editor (0431, more
-- in 56-job-editor-access.sql); service_role writes (imports).
begin;
\ir lib/setup.sql
select plan(24);

-- anon
select tests.as_anon();
select results_eq($$ select id from public.jobs where status = 'active' order by posted_date desc $$,
  $$ values (tests.job('active2')), (tests.job('active1')) $$, 'anon: active jobs, newest posted_date first');
select is((select count(*)::int from public.jobs), 2, 'anon: closed and draft jobs are invisible even unfiltered');
select is((select count(*)::int from public.jobs where id = tests.job('closed')), 0, 'anon: a closed job by id is not found');
select is((select count(*)::int from public.jobs where id = tests.job('active1') and status = 'active'), 1, 'anon: the single-job read finds an active job');
select throws_ok($$ insert into public.jobs (title, company) values ('x', 'y') $$, '42501', 'permission denied for table jobs', 'anon: cannot insert jobs');
select throws_ok($$ update public.jobs set title = 'x' $$, '42501', 'permission denied for table jobs', 'anon: cannot update jobs');
select throws_ok($$ delete from public.jobs $$, '42501', 'permission denied for table jobs', 'anon: cannot delete jobs');

-- signed-in candidate
select tests.as_user('cand1');
select is((select count(*)::int from public.jobs), 2, 'candidate: sees only the 2 active jobs');
select is((select count(*)::int from public.jobs where status = 'draft'), 0, 'candidate: no draft job even when asked for');
select throws_ok($$ insert into public.jobs (title, company) values ('x', 'y') $$, '42501', 'new row violates row-level security policy for table "jobs"', 'candidate: cannot insert jobs');
select is_empty($$ update public.jobs set status = 'active' where id = tests.job('draft') returning id $$, 'candidate: cannot update jobs (no row is theirs to change)');
select throws_ok($$ delete from public.jobs where id = tests.job('active1') $$, '42501', 'permission denied for table jobs', 'candidate: cannot delete jobs');

-- admin
select tests.as_user('admin');
select is((select count(*)::int from public.jobs), 4, 'admin: sees every job (active, closed, draft)');
select results_eq($$ select status from public.jobs order by posted_date desc $$,
  $$ values ('draft'), ('active'), ('active'), ('closed') $$, 'admin: all statuses, newest first');
select lives_ok($$ update public.jobs set title = 'Draft renamed' where id = tests.job('draft') $$, 'admin: edits jobs in the job editor');
select throws_ok($$ delete from public.jobs where id = tests.job('active1') $$, '42501', 'permission denied for table jobs', 'admin: no delete');

-- service_role (CRM import): bypasses RLS with explicit grants
select tests.as_service();
select is((select count(*)::int from public.jobs), 4, 'service_role: sees every job');
select lives_ok($$ insert into public.jobs (job_id, external_id, title, company, status, employment_type) values ('T-9', 'crm-9', 'Imported', 'Acme', 'active', 'permanent')
                   on conflict (external_id) do update set title = excluded.title $$, 'service_role: imports (upsert on external_id)');
select lives_ok($$ update public.jobs set status = 'closed' where external_id = 'crm-9' $$, 'service_role: updates imported jobs');
select is((select status from public.jobs where external_id = 'crm-9'), 'closed', 'service_role: the update landed');
select lives_ok($$ delete from public.jobs where external_id = 'crm-9' $$, 'service_role: deletes imported jobs');

-- constraints
select tests.as_owner();
select throws_ok($$ insert into public.jobs (title, company, status) values ('x', 'y', 'open') $$, '23514', null, 'status must be active, closed or draft');
select throws_ok($$ insert into public.jobs (title, company) values ('  ', 'y') $$, '23514', null, 'title must not be blank');
select throws_ok($$ insert into public.jobs (job_id, title, company) values ('T-1', 'x', 'y') $$, '23505', null, 'job_id is unique');

select * from finish();
rollback;
