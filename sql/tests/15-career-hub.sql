-- cv_documents and saved_jobs: owner-only, for signed-in users; anon has no access at all.
begin;
\ir lib/setup.sql
select plan(27);

select tests.as_anon();
select throws_ok($$ select count(*) from public.cv_documents $$, '42501', 'permission denied for table cv_documents', 'anon: cannot read CVs');
select throws_ok($$ insert into public.cv_documents (title) values ('x') $$, '42501', 'permission denied for table cv_documents', 'anon: cannot create CVs');
select throws_ok($$ select count(*) from public.saved_jobs $$, '42501', 'permission denied for table saved_jobs', 'anon: cannot read saved jobs');
select throws_ok($$ insert into public.saved_jobs (job_id) values (tests.job('active1')) $$, '42501', 'permission denied for table saved_jobs', 'anon: cannot save jobs');

select tests.as_user('cand1');
select results_eq($$ select id from public.cv_documents $$, $$ values (tests.row('cv-cand1')) $$, 'candidate: reads only its own CV');
select is_empty($$ select id from public.cv_documents where id = tests.row('cv-cand2') $$, 'candidate: another user''s CV by id is not found');
select lives_ok($$ insert into public.cv_documents (id, title, data) values (tests.row('cv-cand1-b'), 'Second CV',
                   '{"personalInfo": {"fullName": "C One"}, "experience": [], "step": 1}') $$, 'candidate: creates a second CV (user_id defaults to itself)');
select is((select user_id from public.cv_documents where id = tests.row('cv-cand1-b')), tests.uid('cand1'), 'candidate: the new CV belongs to it');
select is((select count(*)::int from public.cv_documents), 2, 'candidate: now has two CVs');
select throws_ok($$ insert into public.cv_documents (user_id, title) values (tests.uid('cand2'), 'planted') $$,
  '42501', 'new row violates row-level security policy for table "cv_documents"', 'candidate: cannot create a CV for another user');
select results_eq($$ with u as (update public.cv_documents set data = '{"step": 4}', title = 'Renamed' where id = tests.row('cv-cand1') returning title) select * from u $$,
  $$ values ('Renamed'::text) $$, 'candidate: updates its own CV');
select results_eq($$ with u as (update public.cv_documents set title = 'hacked' where id = tests.row('cv-cand2') returning 1) select count(*)::int from u $$,
  $$ values (0) $$, 'candidate: cannot update another user''s CV');
select throws_ok($$ update public.cv_documents set user_id = tests.uid('cand2') where id = tests.row('cv-cand1') $$,
  '42501', 'permission denied for table cv_documents', 'candidate: cannot hand its CV to another user');
select throws_ok($$ insert into public.cv_documents (title, data) values ('bad', '[1, 2]') $$, '23514', null, 'candidate: the draft is a JSON object');
select results_eq($$ with d as (delete from public.cv_documents where id = tests.row('cv-cand2') returning 1) select count(*)::int from d $$,
  $$ values (0) $$, 'candidate: cannot delete another user''s CV');
select results_eq($$ with d as (delete from public.cv_documents where id = tests.row('cv-cand1-b') returning 1) select count(*)::int from d $$,
  $$ values (1) $$, 'candidate: deletes its own CV');
select results_eq($$ select job_id from public.saved_jobs $$, $$ values (tests.job('active1')) $$, 'candidate: reads only its own saved jobs');
select lives_ok($$ insert into public.saved_jobs (job_id) values (tests.job('active2')) $$, 'candidate: saves an active job');
select throws_ok($$ insert into public.saved_jobs (job_id) values (tests.job('draft')) $$,
  '42501', 'new row violates row-level security policy for table "saved_jobs"', 'candidate: cannot save a draft job');
select throws_ok($$ insert into public.saved_jobs (user_id, job_id) values (tests.uid('cand2'), tests.job('active2')) $$,
  '42501', 'new row violates row-level security policy for table "saved_jobs"', 'candidate: cannot save a job for another user');
select results_eq($$ with d as (delete from public.saved_jobs where user_id = tests.uid('cand2') returning 1) select count(*)::int from d $$,
  $$ values (0) $$, 'candidate: cannot remove another user''s saved job');
select results_eq($$ with d as (delete from public.saved_jobs where job_id = tests.job('active2') returning 1) select count(*)::int from d $$,
  $$ values (1) $$, 'candidate: removes its own saved job');

-- admins get no special access to candidates' private drafts
select tests.as_user('admin');
select is_empty($$ select id from public.cv_documents $$, 'admin: reads no candidate CV');
select is_empty($$ select job_id from public.saved_jobs $$, 'admin: reads no candidate saved jobs');

select tests.as_owner();
select is((select title from public.cv_documents where id = tests.row('cv-cand2')), 'Cand2 CV', 'cand2''s CV is unchanged');
select ok((select updated_at >= created_at from public.cv_documents where id = tests.row('cv-cand1')), 'updated_at is maintained');
delete from auth.users where id = tests.uid('cand2');
select is((select count(*)::int from public.cv_documents where user_id = tests.uid('cand2')), 0, 'deleting a user deletes its CVs');

select * from finish();
rollback;
