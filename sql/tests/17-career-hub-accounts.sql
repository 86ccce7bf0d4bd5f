-- Career Hub accounts: applications linked to the signed-in candidate, the dashboard functions, data export and
-- account deletion, and the CV draft's shape. Candidate A never reads, changes or deletes B's CVs, saved jobs or
-- applications; anon reaches none of them.
begin;
\ir lib/setup.sql
select plan(46);

-- Fixtures as the owner: cand2 has a closed saved job and an application made while signed in.
insert into public.saved_jobs (user_id, job_id, created_at) values (tests.uid('cand2'), tests.job('active2'), now() - interval '1 day');
update public.jobs set status = 'closed' where id = tests.job('active2');
insert into storage.objects (bucket_id, name, metadata) values
  ('cvs', '11111111-2222-4333-8444-555555555555/cand2.pdf', '{"mimetype": "application/pdf", "size": 10}');
select tests.as_user('cand2');
insert into public.applications (job_id, first_name, last_name, email, phone, cv_object, privacy_consent)
values (tests.job('active1'), 'Cand', 'Two', 'cand2@pgtap.test', '07700900002', '11111111-2222-4333-8444-555555555555/cand2.pdf', true);
select tests.as_owner();

-- anon
select tests.as_anon();
select throws_ok($$ select * from public.my_saved_jobs() $$, '42501', null, 'anon: my_saved_jobs is not executable');
select throws_ok($$ select * from public.my_applications() $$, '42501', null, 'anon: my_applications is not executable');
select throws_ok($$ select public.export_my_data() $$, '42501', null, 'anon: export_my_data is not executable');
select throws_ok($$ select public.delete_my_account('DELETE') $$, '42501', null, 'anon: delete_my_account is not executable');
select throws_ok($$ select count(*) from public.applications $$, '42501', null, 'anon: cannot read applications');
select lives_ok($$ insert into public.applications (job_id, first_name, last_name, email, phone, cv_object, privacy_consent)
  values (tests.job('active1'), 'Anon', 'Applicant', 'anon@pgtap.test', '0770', 'applications/vic.pdf', true) $$,
  'anon: applies without an account');
select throws_ok($$ update public.cv_documents set title = 'x' $$, '42501', null, 'anon: cannot change CVs');
select throws_ok($$ delete from public.saved_jobs $$, '42501', null, 'anon: cannot delete saved jobs');
select tests.as_owner();
select is((select user_id from public.applications where email = 'anon@pgtap.test'), null, 'an anonymous application belongs to nobody');
select is((select user_id from public.applications where email = 'cand2@pgtap.test'), tests.uid('cand2'), 'an application made signed in belongs to the candidate');

-- cand1 (A) against cand2 (B)
select tests.as_user('cand1');
select is_empty($$ select id from public.applications $$, 'A: reads none of B''s applications (nor anonymous ones)');
select is_empty($$ select * from public.my_applications() $$, 'A: my_applications lists nothing of B');
select results_eq($$ select job_id from public.my_saved_jobs() $$, $$ values (tests.job('active1')) $$, 'A: my_saved_jobs lists only its own');
select throws_ok($$ insert into public.applications (job_id, first_name, last_name, email, phone, cv_object, privacy_consent, user_id)
  values (tests.job('active1'), 'Forged', 'X', 'f@pgtap.test', '0770', 'applications/c1.pdf', true, tests.uid('cand2')) $$,
  '42501', null, 'A: cannot file an application in B''s name');
select throws_ok($$ update public.applications set phone = '0' $$, '42501', null, 'A: cannot change applications');
select throws_ok($$ delete from public.applications $$, '42501', null, 'A: cannot delete applications');
select ok(not has_table_privilege('authenticated', 'public.saved_jobs', 'update'), 'A: saved jobs cannot be changed (no UPDATE grant)');
select is((public.export_my_data() -> 'account' ->> 'email'), 'cand1@pgtap.test', 'A: export holds its own account');
select is(jsonb_array_length(public.export_my_data() -> 'cv_documents'), 1, 'A: export holds its one CV');
select is((public.export_my_data() -> 'cv_documents' -> 0 ->> 'title'), 'Cand1 CV', 'A: export holds its own CV, not B''s');
select is(jsonb_array_length(public.export_my_data() -> 'applications'), 0, 'A: export holds no application of B');
select throws_ok($$ select public.delete_my_account('yes') $$, '22023', 'Type DELETE to confirm', 'A: deletion needs the typed confirmation');

-- cand2 (B) sees its own
select tests.as_user('cand2');
select results_eq($$ select job_title, job_status from public.my_applications() $$, $$ values ('Active one'::text, 'active'::text) $$,
  'B: lists its application with the job');
select results_eq($$ select first_name from public.applications $$, $$ values ('Cand'::text) $$, 'B: reads its own application row');
select results_eq($$ select job_id, status from public.my_saved_jobs() $$,
  $$ values (tests.job('active1'), 'active'::text), (tests.job('active2'), 'closed'::text) $$,
  'B: saved jobs newest first, the closed one marked closed');
select is_empty($$ select id from public.jobs where id = tests.job('active2') $$, 'B: the closed job itself stays hidden by RLS');
select is(jsonb_array_length(public.export_my_data() -> 'saved_jobs'), 2, 'B: export holds both saved jobs');
select is((public.export_my_data() -> 'applications' -> 0 ->> 'cv_file'), '11111111-2222-4333-8444-555555555555/cand2.pdf', 'B: export names its CV file');

-- CV draft shape (as B)
select lives_ok($$ insert into public.cv_documents (title, data) values ('Full', '{"personalInfo": {"fullName": "B", "email": "b@x.test"},
  "summary": "S", "experience": [{"id": "e1", "title": "T", "company": "C", "startDate": "2020-01", "endDate": "", "description": "D"}],
  "education": [{"id": "q1", "degree": "BSc", "institution": "U", "year": "2016"}], "skills": "a, b", "step": 4,
  "template": "executive", "extras": {"awards": [{"title": "Prize"}]}}') $$, 'draft: a full valid draft is stored');
select throws_ok($$ insert into public.cv_documents (data) values ('{"junk": 1}') $$, '23514', 'Invalid CV draft: unknown field junk', 'draft: unknown field refused');
select throws_ok($$ insert into public.cv_documents (data) values ('{"personalInfo": {"fullName": 5}}') $$, '23514',
  'Invalid CV draft: personalInfo.fullName must be text', 'draft: wrong type refused');
select throws_ok($$ insert into public.cv_documents (data) values ('{"experience": [{"title": "T", "startDate": "May 20"}]}') $$, '23514',
  'Invalid CV draft: experience dates must be YYYY-MM', 'draft: free-text date refused');
select throws_ok($$ insert into public.cv_documents (data) values (jsonb_build_object('education',
  (select jsonb_agg(jsonb_build_object('degree', 'D')) from generate_series(1, 31)))) $$, '23514',
  'Invalid CV draft: education has more than 30 entries', 'draft: more than 30 entries refused');
select throws_ok($$ insert into public.cv_documents (data) values (jsonb_build_object('summary', repeat('x', 5001))) $$, '23514',
  'Invalid CV draft: summary must be text of at most 5000 characters', 'draft: over-long text refused');
select throws_ok($$ insert into public.cv_documents (data) values (jsonb_build_object('extras', jsonb_build_object('big', repeat('x', 270000)))) $$, '23514',
  'Invalid CV draft: the draft is larger than 256 kB', 'draft: over 256 kB refused');
select throws_ok($$ insert into public.cv_documents (data) values ('{"step": 5}') $$, '23514',
  'Invalid CV draft: step must be a whole number from 0 to 4', 'draft: step out of range refused');
select throws_ok($$ update public.cv_documents set data = '{"template": "fancy"}' where title = 'Full' $$, '23514',
  'Invalid CV draft: template must be professional, executive or minimalist', 'draft: updates are checked too');

-- B deletes its account
select ok(public.delete_my_account('DELETE') @> '{"account": 1, "cv_documents": 2, "saved_jobs": 2, "applications": 1}'::jsonb,
  'B: deletion reports what it removed');
select tests.as_owner();
select is((select count(*)::int from auth.users where id = tests.uid('cand2')), 0, 'B''s account is gone');
select is((select count(*)::int from public.cv_documents where user_id = tests.uid('cand2')), 0, 'B''s CVs are gone');
select is((select count(*)::int from public.saved_jobs where user_id = tests.uid('cand2')), 0, 'B''s saved jobs are gone');
select is((select count(*)::int from public.applications where email = 'cand2@pgtap.test'), 0, 'B''s applications are gone');
select is((select count(*)::int from storage.objects where name = '11111111-2222-4333-8444-555555555555/cand2.pdf'), 0, 'B''s CV object is gone');
select is((select count(*)::int from gateway.storage_sweep where name = '11111111-2222-4333-8444-555555555555/cand2.pdf'), 1, 'B''s CV file is queued for the storage sweep');
select is((select count(*)::int from public.cv_documents where user_id = tests.uid('cand1')), 1, 'A''s CV is untouched');
select is((select count(*)::int from public.applications where email = 'anon@pgtap.test'), 1, 'the anonymous application is untouched');

select * from finish();
rollback;
