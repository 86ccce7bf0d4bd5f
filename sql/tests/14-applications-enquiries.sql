-- applications and enquiries: anyone submits (only the form's columns, only for active jobs); nobody but admins
-- reads them back; a candidate reads the ones it made while signed in (0201).
begin;
\ir lib/setup.sql
select plan(31);

-- anon
select tests.as_anon();
select lives_ok($$ insert into public.applications (job_id, first_name, last_name, email, phone, cover_letter, cv_object, privacy_consent)
                   values (tests.job('active1'), 'Vic', 'Visitor', 'vic@example.com', '07700900001', null, 'applications/vic.pdf', true) $$,
  'anon: applies to an active job');
select throws_ok($$ insert into public.applications (job_id, first_name, last_name, email, phone, cv_object, privacy_consent)
                    values (tests.job('closed'), 'Vic', 'Visitor', 'vic@example.com', '07700900001', 'a.pdf', true) $$,
  '42501', 'new row violates row-level security policy for table "applications"', 'anon: cannot apply to a closed job');
select throws_ok($$ insert into public.applications (job_id, first_name, last_name, email, phone, cv_object, privacy_consent)
                    values (tests.job('draft'), 'Vic', 'Visitor', 'vic@example.com', '07700900001', 'a.pdf', true) $$,
  '42501', 'new row violates row-level security policy for table "applications"', 'anon: cannot apply to a draft job');
select throws_ok($$ insert into public.applications (job_id, first_name, last_name, email, phone, cv_object, privacy_consent)
                    values (null, 'Vic', 'Visitor', 'vic@example.com', '07700900001', 'a.pdf', true) $$,
  '42501', 'new row violates row-level security policy for table "applications"', 'anon: an application needs a job');
select throws_ok($$ insert into public.applications (job_id, first_name, last_name, email, phone, cv_object, privacy_consent)
                    values (tests.job('active1'), 'Vic', 'Visitor', 'vic@example.com', '07700900001', 'a.pdf', false) $$,
  '23514', null, 'anon: privacy consent must be given');
select throws_ok($$ insert into public.applications (job_id, first_name, last_name, email, phone, cv_object, privacy_consent)
                    values (tests.job('active1'), 'Vic', 'Visitor', 'not-an-email', '07700900001', 'a.pdf', true) $$,
  '23514', null, 'anon: the e-mail must look like one');
select throws_ok($$ insert into public.applications (job_id, first_name, last_name, email, phone, cv_object, privacy_consent)
                    values (tests.job('active1'), ' ', 'Visitor', 'vic@example.com', '07700900001', 'a.pdf', true) $$,
  '23514', null, 'anon: first name must not be blank');
select throws_ok($$ insert into public.applications (job_id, first_name, last_name, email, phone, cv_object, privacy_consent)
                    values (tests.job('active1'), 'Vic', 'Visitor', 'vic@example.com', '07700900001', '../other/cv.pdf', true) $$,
  '23514', null, 'anon: the CV reference cannot climb out of its folder');
select throws_ok($$ insert into public.applications (job_id, first_name, last_name, email, phone, cv_object, privacy_consent, created_at)
                    values (tests.job('active1'), 'Vic', 'Visitor', 'vic@example.com', '07700900001', 'a.pdf', true, now()) $$,
  '42501', 'permission denied for table applications', 'anon: cannot set created_at');
select throws_ok($$ insert into public.applications (job_id, first_name, last_name, email, phone, cv_object, privacy_consent)
                    values (tests.job('active1'), 'Vic', 'Visitor', 'vic@example.com', '07700900001', 'a.pdf', true) returning id $$,
  '42501', 'permission denied for table applications', 'anon: cannot read its application back (RETURNING)');
select throws_ok($$ select count(*) from public.applications $$, '42501', 'permission denied for table applications', 'anon: cannot read applications');
select throws_ok($$ select j.id, (select count(*) from public.applications a where a.job_id = j.id) from public.jobs j $$,
  '42501', 'permission denied for table applications', 'anon: cannot embed applications into jobs (jobs?select=*,applications(*))');
select throws_ok($$ delete from public.applications $$, '42501', 'permission denied for table applications', 'anon: cannot delete applications');
select lives_ok($$ insert into public.enquiries (kind, name, email, phone, company, message, source_page)
                   values ('hiring-audit', 'Hal', 'hal@example.com', '0161 496 0000', 'Northbank', 'Audit please', '/services') $$,
  'anon: sends an enquiry');
select throws_ok($$ insert into public.enquiries (kind, name, email) values ('spam', 'Hal', 'hal@example.com') $$, '23514', null, 'anon: the kind is checked');
select throws_ok($$ insert into public.enquiries (name, email) values ('Hal', 'nope') $$, '23514', null, 'anon: the e-mail is checked');
select throws_ok($$ insert into public.enquiries (name, email) values ('Hal', 'hal@example.com') returning id $$,
  '42501', 'permission denied for table enquiries', 'anon: cannot read its enquiry back');
select throws_ok($$ select count(*) from public.enquiries $$, '42501', 'permission denied for table enquiries', 'anon: cannot read enquiries');
select throws_ok($$ update public.enquiries set message = 'x' $$, '42501', 'permission denied for table enquiries', 'anon: cannot update enquiries');

-- candidate
select tests.as_user('cand1');
select lives_ok($$ insert into public.applications (job_id, first_name, last_name, email, phone, cv_object, privacy_consent)
                   values (tests.job('active2'), 'Cand', 'One', 'cand1@pgtap.test', '07700900002', 'applications/c1.pdf', true) $$,
  'candidate: applies to an active job');
select lives_ok($$ insert into public.enquiries (name, email, message) values ('Cand', 'cand1@pgtap.test', 'Hi') $$, 'candidate: sends an enquiry');
select results_eq($$ select email from public.applications $$, $$ values ('cand1@pgtap.test'::text) $$,
  'candidate: reads only the application it made while signed in (sql/migrations/0201)');
select is_empty($$ select id from public.enquiries $$, 'candidate: reads no enquiry, not even its own');
select throws_ok($$ update public.applications set email = 'x@example.com' $$, '42501', 'permission denied for table applications', 'candidate: cannot update applications');
select throws_ok($$ delete from public.enquiries $$, '42501', 'permission denied for table enquiries', 'candidate: cannot delete enquiries');

-- admin
select tests.as_user('admin');
select is((select count(*)::int from public.applications), 3, 'admin: reads every application');
select is((select count(*)::int from public.enquiries), 3, 'admin: reads every enquiry');
select is((select cv_object from public.applications where email = 'vic@example.com'), 'applications/vic.pdf', 'admin: sees the CV object reference');
select throws_ok($$ delete from public.applications $$, '42501', 'permission denied for table applications', 'admin: cannot delete applications through the API (records are kept)');

-- service_role
select tests.as_service();
select is((select count(*)::int from public.applications), 3, 'service_role: reads every application');
select lives_ok($$ delete from public.enquiries where email = 'hal@example.com' $$, 'service_role: may erase an enquiry (data-subject request)');

select * from finish();
rollback;
