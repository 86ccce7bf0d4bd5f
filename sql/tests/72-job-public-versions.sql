-- U4 (sql/migrations/0332): the Career Hub's definer functions show a job's details only as the caller may see
-- them: current while the job is active, its last public version once it is closed or made a draft, nothing of a
-- job that was never public. A saved job turned into a confidential draft leaks nothing through my_saved_jobs(),
-- my_applications() or export_my_data().
begin;
\ir lib/setup.sql
select plan(18);

-- cand2 applies for active1 while signed in; the admin saves it too.
insert into storage.objects (bucket_id, name) values ('cvs', 'u4/cand2.pdf');
select tests.as_user('cand2');
insert into public.applications (job_id, first_name, last_name, email, phone, cv_object, privacy_consent)
values (tests.job('active1'), 'Cand', 'Two', 'cand2@pgtap.test', '07700900002', 'u4/cand2.pdf', true);
select tests.as_user('admin');
insert into public.saved_jobs (job_id) values (tests.job('active1'));

-- The CRM edits the live job (still public), then turns it into a confidential draft.
select tests.as_service();
-- (stating pay: reg. 27 wants the basis, the work and the requirements stated too — 0431)
update public.jobs set salary = '£55,000', employment_type = 'permanent', description = 'Finance leadership.',
       requirements = 'A qualified accountant' where id = tests.job('active1');
update public.jobs set status = 'draft', title = 'CONFIDENTIAL: replacement for CFO at Acme plc', company = 'Acme plc',
       salary = '£250,000', location = 'Board room' where id = tests.job('active1');

-- cand1 saved active1 (fixture).
select tests.as_user('cand1');
select is_empty($$ select id from public.jobs where id = tests.job('active1') $$, 'candidate: the data API hides the draft (GET /jobs?id=eq.… → [])');
select results_eq($$ select title, company, location, salary, status from public.my_saved_jobs() where job_id = tests.job('active1') $$,
  $$ values ('Active one'::text, 'Acme'::text, 'London'::text, '£55,000'::text, 'closed'::text) $$,
  'candidate: my_saved_jobs shows the job as it last was in public, marked closed');
select is_empty($$ select 1 from public.my_saved_jobs() s where s::text ~ 'CONFIDENTIAL|250,000|Acme plc|Board room' $$,
  'candidate: nothing of the draft''s details');
select ok(public.export_my_data()::text !~ 'CONFIDENTIAL|250,000|Acme plc|Board room', 'candidate: nor in the data export');
select tests.as_user('cand2');
select results_eq($$ select job_title, company, job_status from public.my_applications() $$,
  $$ values ('Active one'::text, 'Acme'::text, 'closed'::text) $$, 'applicant: my_applications shows the last public version');
select ok(public.export_my_data()::text !~ 'CONFIDENTIAL|250,000|Acme plc|Board room', 'applicant: the export neither');
select is((public.export_my_data() -> 'applications' -> 0 ->> 'job_title'), 'Active one', 'applicant: the export names the job as it was');
select tests.as_user('admin');
select results_eq($$ select title, status from public.my_saved_jobs() $$, $$ values ('Active one'::text, 'closed'::text) $$,
  'admin: the same rule for an admin''s own saved jobs');

-- Reactivated: current details again, also in the versions kept.
select tests.as_service();
update public.jobs set status = 'active', title = 'Head of Finance', company = 'Acme plc' where id = tests.job('active1');
select tests.as_user('cand1');
select results_eq($$ select title, company, status from public.my_saved_jobs() where job_id = tests.job('active1') $$,
  $$ values ('Head of Finance'::text, 'Acme plc'::text, 'active'::text) $$, 'candidate: a job public again shows its current details');
select tests.as_service();
update public.jobs set status = 'closed' where id = tests.job('active1');
select tests.as_user('cand1');
select results_eq($$ select title, status from public.my_saved_jobs() where job_id = tests.job('active1') $$,
  $$ values ('Head of Finance'::text, 'closed'::text) $$, 'candidate: closed again, it keeps its latest public details');

-- A job that was never public: saved by the firm for the candidate (the API refuses it), nothing is shown.
select tests.as_owner();
insert into public.saved_jobs (user_id, job_id) values (tests.uid('cand1'), tests.job('draft'));
select tests.as_user('cand1');
select results_eq($$ select title, company, salary, status from public.my_saved_jobs() where job_id = tests.job('draft') $$,
  $$ values (null::text, null::text, null::text, 'closed'::text) $$, 'candidate: a never-public job shows no details');
select throws_ok($$ insert into public.saved_jobs (job_id) values (tests.job('closed')) $$, '42501', null,
  'candidate: cannot save a job that is not active (the policy is unchanged)');

-- A deleted job.
select tests.as_service();
delete from public.jobs where id = tests.job('active1');
select tests.as_user('cand2');
select results_eq($$ select job_id, job_title, job_status from public.my_applications() $$,
  $$ values (null::uuid, null::text, 'removed'::text) $$, 'applicant: a deleted job is marked removed');

-- Who may call.
select tests.as_anon();
select throws_ok($$ select * from public.my_saved_jobs() $$, '42501', null, 'anon: my_saved_jobs is not executable');
select throws_ok($$ select * from public.my_applications() $$, '42501', null, 'anon: my_applications is not executable');
select throws_ok($$ select * from private.job_as_shown(tests.job('closed')) $$, '42501', null, 'anon: the helper is not executable');
select tests.as_user('cand1');
select throws_ok($$ select * from private.job_as_shown(tests.job('closed')) $$, '42501', null, 'candidate: nor for a candidate');
select throws_ok($$ select * from private.job_public_versions $$, '42501', null, 'candidate: the versions are not readable');
select tests.as_owner();

select * from finish();
rollback;
