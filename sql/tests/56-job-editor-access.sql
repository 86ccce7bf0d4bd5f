-- Job editor access (0431, 0433): admins insert and update jobs, nobody but service_role deletes, candidates and anon
-- write nothing; publishing through the APIs needs reg. 27; every change is audited; the list RPC is admins' only.
begin;
\ir lib/setup.sql
select plan(37);

-- anon
select tests.as_anon();
select throws_ok($$ insert into public.jobs (title, company) values ('x', 'y') $$, '42501', 'permission denied for table jobs', 'anon: no insert');
select throws_ok($$ update public.jobs set title = 'x' $$, '42501', 'permission denied for table jobs', 'anon: no update');
select throws_ok($$ select public.admin_job_page() $$, '42501', null, 'anon: no job list');
select throws_ok($$ select public.admin_import_jobs('[]'::jsonb) $$, '42501', null, 'anon: no import');

-- candidate
select tests.as_user('cand1');
select throws_ok($$ insert into public.jobs (title, company, status) values ('x', 'y', 'draft') $$, '42501', 'new row violates row-level security policy for table "jobs"', 'candidate: insert refused by RLS');
update public.jobs set title = 'hijacked' where id = tests.job('active1');
select tests.as_owner();
select is((select title from public.jobs where id = tests.job('active1')), 'Active one', 'candidate: an update changes no row');
select tests.as_user('cand1');
select throws_ok($$ delete from public.jobs where id = tests.job('active1') $$, '42501', 'permission denied for table jobs', 'candidate: no delete');
select throws_ok($$ select public.admin_job_page() $$, '42501', 'only admins can list jobs for editing', 'candidate: no job list');
select throws_ok($$ select public.admin_import_jobs('[{"external_id": "x", "title": "t", "company": "c"}]'::jsonb) $$, '42501', 'only admins can import jobs', 'candidate: no import');
select throws_ok($$ select public.admin_record_job_import('f', 1, 1, 0) $$, '42501', 'only admins can import jobs', 'candidate: no import record');
select throws_ok($$ select public.admin_upsert_job('{"external_id": "x", "title": "t", "company": "c"}'::jsonb) $$, '42501', 'new row violates row-level security policy for table "jobs"', 'candidate: an import row is refused by RLS');

-- admin
select tests.as_user('admin');
insert into public.jobs (title, company, status) values ('Editor draft', 'Acme', 'draft') returning id as draft \gset
select set_config('tests.draft', :'draft', true);
select isnt(:'draft'::uuid, null, 'admin: creates a draft (the id is the database''s: admins cannot choose it)');
select throws_ok($$ insert into public.jobs (title, company, status) values ('Live', 'Acme', 'active') $$, '23514', null, 'admin: publishing without employment type is refused');
select throws_ok($$ update public.jobs set status = 'active', salary_min = 40000 where id = current_setting('tests.draft')::uuid $$, '23514',
  'This job cannot be published until it states whether the role is permanent or temporary (employment type); the nature of the work (description), as pay is stated; the location, as pay is stated; the minimum experience, training or qualifications (requirements), as pay is stated',
  'admin: with pay stated, reg. 27(3) names the nature of the work, location and minimum experience');
select lives_ok($$ update public.jobs set salary_min = 40000, employment_type = 'permanent', location = 'York', description = 'd', requirements = 'r' where id = current_setting('tests.draft')::uuid $$,
  'admin: edits a draft freely');
select lives_ok($$ update public.jobs set status = 'active' where id = current_setting('tests.draft')::uuid $$, 'admin: publishes it once reg. 27 is met');
select ok((select posted_date > now() - interval '1 minute' and published_at is not null from public.jobs where id = current_setting('tests.draft')::uuid), 'admin: publishing a draft posts it now');
select throws_ok($$ update public.jobs set location = null where id = current_setting('tests.draft')::uuid $$, '23514', null, 'admin: a live job must keep meeting reg. 27');
select lives_ok($$ update public.jobs set status = 'closed' where id = current_setting('tests.draft')::uuid $$, 'admin: closes it');
select lives_ok($$ update public.jobs set status = 'active' where id = current_setting('tests.draft')::uuid $$, 'admin: reopens it');
select lives_ok($$ update public.jobs set salary = 'Competitive', salary_min = null, status = 'active', employment_type = 'contract', description = null, requirements = null, location = null where id = current_setting('tests.draft')::uuid $$,
  'admin: without pay stated only permanent/temporary is needed');
select throws_ok($$ update public.jobs set closing_date = current_date - 3 where id = current_setting('tests.draft')::uuid $$, '23514', 'This job cannot be published until it states a closing date that has not passed', 'admin: a live job''s closing date cannot have passed');
select throws_ok($$ delete from public.jobs where id = current_setting('tests.draft')::uuid $$, '42501', 'permission denied for table jobs', 'admin: no delete (jobs close)');
select throws_ok($$ update public.jobs set external_id = 'x' where id = current_setting('tests.draft')::uuid $$, '42501', 'permission denied for table jobs', 'admin: the CRM key is not editable');
select throws_ok($$ update public.jobs set published_at = now() where id = current_setting('tests.draft')::uuid $$, '42501', 'permission denied for table jobs', 'admin: published_at is the database''s');
select throws_ok($$ insert into public.jobs (title, company, status, hero_image) values ('x', 'y', 'draft', 'javascript:alert(1)') $$, '23514', null, 'admin: hero image must be https or a site path');
select throws_ok($$ insert into public.jobs (title, company, status, consultant_email) values ('x', 'y', 'draft', 'not an address') $$, '23514', null, 'admin: consultant e-mail checked');

-- the list
select is((public.admin_job_page() ->> 'total')::int, 5, 'admin: the list counts every job of any status');
select is((public.admin_job_page(job_status := 'draft') -> 'jobs' -> 0 ->> 'title'), 'Draft one', 'admin: filtered by status');
select is((public.admin_job_page(search := 'EDITOR') ->> 'matching')::int, 1, 'admin: searched case-insensitively');
select is((public.admin_job_page(search := '100%') ->> 'matching')::int, 0, 'admin: % matches itself');
select ok((public.admin_job_page(issue := 'cannot_publish') -> 'jobs')::jsonb @> '[{"title": "Active two"}]', 'admin: live jobs that would fail reg. 27 are listed');
select throws_ok($$ select public.admin_job_page(job_status := 'open') $$, '22023', null, 'admin: a bad filter is a clear error');

-- the audit log
select tests.as_owner();
select results_eq($$ select action, actor_email, actor_role from public.audit_log where record_id = current_setting('tests.draft')::uuid order by id $$,
  $$ values ('INSERT', 'admin@pgtap.test', 'authenticated'), ('UPDATE', 'admin@pgtap.test', 'authenticated'),
            ('UPDATE', 'admin@pgtap.test', 'authenticated'), ('UPDATE', 'admin@pgtap.test', 'authenticated'),
            ('UPDATE', 'admin@pgtap.test', 'authenticated'), ('UPDATE', 'admin@pgtap.test', 'authenticated') $$,
  'every change to a job is audited with the admin; refused writes leave nothing');
select is((select subject from public.audit_log where record_id = tests.job('active1') order by id limit 1), 'Active one · T-1', 'the audit names a job by title and reference');

-- service_role: the CRM is held to reg. 27 too; the owner (demo content, operators) is trusted
select tests.as_service();
select throws_ok($$ insert into public.jobs (title, company, status) values ('CRM', 'Acme', 'active') $$, '23514', null, 'service_role: publishing without reg. 27 is refused');
select tests.as_owner();
select lives_ok($$ insert into public.jobs (title, company, status) values ('Owner', 'Acme', 'active') $$, 'the database owner is trusted');

select * from finish();
rollback;
