-- The firm's desk, applications (0450-0454): where each application stands, for every role. Admins read and change
-- status and consultant (several at once), add internal notes and edit the status e-mails; a candidate reads only
-- the plain status of its own applications, never the firm's status, notes or history; anon reaches none of it;
-- bad input changes nothing; every change is in the audit log.
begin;
\ir lib/setup.sql
select plan(66);

-- A second application, made by cand1 while signed in, a minute after the first (one transaction has one now()).
insert into public.applications (id, job_id, first_name, last_name, email, phone, cv_object, privacy_consent, user_id, created_at)
values (tests.row('application-cand1'), tests.job('active2'), 'Cand', 'One', 'cand1@pgtap.test', '07700900002',
        'applications/c1.pdf', true, tests.uid('cand1'), now() + interval '1 minute');

-- Every application has its row, at 'new'.
select is((select count(*)::int from public.application_pipeline), 2, 'every application gets a pipeline row on arrival');
select is((select status::text from public.application_pipeline where application_id = tests.row('application')), 'new',
  'a new application is at status new');

/* ---------------------------------------------------------------------------------------------------------------
 * anon
 * --------------------------------------------------------------------------------------------------------------- */
select tests.as_anon();
select throws_ok($$ select * from public.application_pipeline $$, '42501', null, 'anon: cannot read the pipeline');
select throws_ok($$ select * from public.application_status_changes $$, '42501', null, 'anon: cannot read the status history');
select throws_ok($$ select * from public.desk_notes $$, '42501', null, 'anon: cannot read notes');
select throws_ok($$ insert into public.desk_notes (application_id, body) values ('$$ || tests.row('application') || $$', 'x') $$,
  '42501', null, 'anon: cannot add a note');
select throws_ok($$ select * from public.application_mail_templates $$, '42501', null, 'anon: cannot read the status e-mails');
select throws_ok($$ select public.admin_set_application_status(array[tests.row('application')], 'reviewed') $$,
  '42501', null, 'anon: cannot change a status (no EXECUTE)');
select throws_ok($$ select public.admin_application_page() $$, '42501', null, 'anon: cannot list applications');
select throws_ok($$ select public.admin_staff() $$, '42501', null, 'anon: cannot list the staff');
select throws_ok($$ select * from public.my_applications() $$, '42501', null, 'anon: has no applications of its own');

/* ---------------------------------------------------------------------------------------------------------------
 * candidate
 * --------------------------------------------------------------------------------------------------------------- */
select tests.as_user('cand1');
select is_empty($$ select * from public.application_pipeline $$, 'candidate: reads no pipeline row, not even its own');
select is_empty($$ select * from public.application_status_changes $$, 'candidate: reads no status history');
select is_empty($$ select * from public.desk_notes $$, 'candidate: reads no note');
select is_empty($$ select * from public.application_mail_templates $$, 'candidate: reads no status e-mail template');
select throws_ok($$ insert into public.desk_notes (application_id, body) values ('$$ || tests.row('application-cand1') || $$', 'Hire me') $$,
  '42501', 'new row violates row-level security policy for table "desk_notes"', 'candidate: cannot add a note');
select throws_ok($$ update public.application_pipeline set status = 'placed' $$, '42501', null,
  'candidate: cannot change its own status (no UPDATE grant)');
select lives_ok($$ update public.application_mail_templates set subject = 'x' where status = 'placed' $$,
  'candidate: an edit of a status e-mail reaches no row (checked below as the admin)');
select throws_ok($$ select public.admin_set_application_status(array[tests.row('application-cand1')], 'placed') $$,
  '42501', 'only admins can change an application''s status', 'candidate: cannot change a status through the function');
select throws_ok($$ select public.admin_assign_consultant(array[tests.row('application-cand1')], tests.uid('cand1')) $$,
  '42501', 'only admins can assign a consultant', 'candidate: cannot assign a consultant');
select throws_ok($$ select public.admin_application(tests.row('application-cand1')) $$, '42501', null,
  'candidate: cannot open an application through the admin function, not even its own');
select throws_ok($$ select * from public.admin_application_export() $$, '42501', null, 'candidate: cannot export');
select throws_ok($$ select public.admin_desk_summary() $$, '42501', null, 'candidate: has no desk summary');
select results_eq($$ select status from public.my_applications() $$, $$ values ('Received') $$,
  'candidate: my_applications shows its one application as Received');

/* ---------------------------------------------------------------------------------------------------------------
 * admin
 * --------------------------------------------------------------------------------------------------------------- */
select tests.as_user('admin');
select is((public.admin_application_page() ->> 'total')::int, 2, 'admin: the list counts every application');
select is((public.admin_application_page() -> 'counts' ->> 'new')::int, 2, 'admin: the counts per status');
select is(json_array_length(public.admin_application_page('CAND ONE') -> 'applications'), 1, 'admin: search by name, case-insensitive');
select is(json_array_length(public.admin_application_page('@PGTAP.test') -> 'applications'), 2, 'admin: search by e-mail');
select is(json_array_length(public.admin_application_page(job_id => tests.job('active2')) -> 'applications'), 1, 'admin: filter by job');
select is(json_array_length(public.admin_application_page(from_day => current_date + 2) -> 'applications'), 0, 'admin: filter by date');
select is(public.admin_application_page() -> 'applications' -> 0 ->> 'id', tests.row('application-cand1')::text, 'admin: newest first');
select is(public.admin_application_page(page_size => 1, page_offset => 1) -> 'applications' -> 0 ->> 'id', tests.row('application')::text,
  'admin: the second page of one');
select throws_ok($$ select public.admin_application_page(status => 'hired') $$, '22023',
  'Unknown status "hired": use one of new, reviewed, shortlisted, interviewing, offered, placed, not_progressed, withdrawn',
  'admin: an unknown status filter is refused');
select throws_ok($$ select public.admin_application_page(from_day => current_date, to_day => current_date - 1) $$, '22023', null,
  'admin: a date range that ends before it starts is refused');

-- Bad input changes nothing.
select throws_ok($$ select public.admin_set_application_status(array[tests.row('application')], 'hired', 'note') $$, '22023', null,
  'admin: an unknown status is refused');
select throws_ok($$ select public.admin_set_application_status(array[tests.row('application'), tests.row('nothing')], 'reviewed') $$,
  '22023', 'An application in the list does not exist (it may have been erased)', 'admin: an unknown application is refused');
select throws_ok($$ select public.admin_set_application_status('{}', 'reviewed') $$, '22023', 'Choose between 1 and 500 applications',
  'admin: an empty list is refused');
select throws_ok($$ select public.admin_set_application_status(array[tests.row('application')], 'reviewed', '   ') $$, '22023', null,
  'admin: a blank note is refused');
select is((select count(*)::int from public.application_pipeline where status <> 'new'), 0, 'admin: nothing changed after refusals');
select is((select count(*)::int from public.desk_notes), 0, 'admin: no note was added by a refused change');

-- Several at once, with a note and the e-mail.
select is(public.admin_set_application_status(array[tests.row('application'), tests.row('application-cand1')], 'shortlisted',
            'Strong on asset management', true)::jsonb,
          '{"changed": 2, "unchanged": 0, "mailed": 2}'::jsonb, 'admin: moves two applications at once, with a note and e-mails');
select is((select count(*)::int from public.application_status_changes where to_status = 'shortlisted' and changed_by = tests.uid('admin')
           and mail_id is not null), 2, 'admin: each change is in the history with who and the e-mail sent');
select tests.as_owner();
select is((select count(*)::int from public.desk_notes where body = 'Strong on asset management' and author_id = tests.uid('admin')), 2,
  'admin: the note is on each, written by the admin');
select is((select subject from gateway.outbox where to_address = 'ann@pgtap.test' and subject like '%shortlisted%'),
  'Your application for Active one: shortlisted', 'admin: the e-mail is the template with the job''s title');
select ok((select body_text from gateway.outbox where to_address = 'ann@pgtap.test' and subject like '%shortlisted%')
          like 'Hello Ann,%', 'admin: the e-mail greets the applicant by a plausible first name');
select ok((select bool_and(body_text not like '%asset management%') from gateway.outbox), 'admin: no e-mail carries the note');
select tests.as_user('admin');
select is(public.admin_set_application_status(array[tests.row('application')], 'shortlisted')::jsonb,
          '{"changed": 0, "unchanged": 1, "mailed": 0}'::jsonb, 'admin: a status already held is left alone');
select is((public.admin_application(tests.row('application')) -> 'history' -> 0 ->> 'to'), 'shortlisted',
  'admin: the application''s page has the history');
select is(json_array_length(public.admin_application(tests.row('application')) -> 'notes'), 1, 'admin: and the notes');
select is((public.admin_application(tests.row('application')) -> 'cv' ->> 'mimetype'), 'application/pdf', 'admin: and the CV''s type');
select ok(public.admin_application(tests.row('nothing')) is null, 'admin: an unknown application is null');

-- Consultant.
select is(public.admin_assign_consultant(array[tests.row('application')], tests.uid('admin2')), 1, 'admin: assigns a consultant');
select throws_ok($$ select public.admin_assign_consultant(array[tests.row('application')], tests.uid('cand2')) $$, '22023',
  'The consultant must be one of the firm''s admins', 'admin: the consultant must be an admin');
select is((select consultant_id from public.application_pipeline where application_id = tests.row('application')), tests.uid('admin2'),
  'admin: the refused assignment changed nothing');
select ok((select count(*) >= 2 from public.admin_staff()), 'admin: lists the staff to choose from');

-- Status e-mails: editable, unknown placeholders refused.
select lives_ok($$ update public.application_mail_templates set body = '{greeting}, see you at interview for {job_title}. {firm_name}'
                   where status = 'interviewing' $$, 'admin: edits a status e-mail');
select is((select updated_by from public.application_mail_templates where status = 'interviewing'), tests.uid('admin'),
  'admin: who edited it is recorded');
select is((select subject from public.application_mail_templates where status = 'placed'), 'Congratulations on your new role',
  'admin: the candidate''s edit changed nothing');
select throws_ok($$ update public.application_mail_templates set body = 'Hi {first_name}' where status = 'interviewing' $$, '22023',
  'Unknown placeholder {first_name}: use {greeting}, {job_title}, {status} or {firm_name}', 'admin: an unknown placeholder is refused');

-- The audit log.
select is((select count(*)::int from public.audit_log where table_name = 'application_pipeline' and action = 'UPDATE'
           and actor_id = tests.uid('admin')), 3, 'audit: two status changes and a consultant change');
select ok((select bool_and(not (coalesce(new_data, '{}') ? 'body')) from public.audit_log where table_name = 'desk_notes'),
  'audit: a note is logged without its text');

/* ---------------------------------------------------------------------------------------------------------------
 * the candidate again: the plain status, and nothing else
 * --------------------------------------------------------------------------------------------------------------- */
select tests.as_user('cand1');
select results_eq($$ select status from public.my_applications() $$, $$ values ('In review') $$,
  'candidate: a shortlisted application reads In review');
select is_empty($$ select * from public.desk_notes $$, 'candidate: still reads no note');
select ok(position('asset management' in (public.export_my_data() -> 'application_progress')::text) = 0
          and position('shortlisted' in (public.export_my_data() -> 'application_progress')::text) = 0
          and (public.export_my_data() #>> '{application_progress,0,status}') = 'In review',
  'candidate: its data export has the plain status, neither the note nor the firm''s status name');

/* ---------------------------------------------------------------------------------------------------------------
 * service_role
 * --------------------------------------------------------------------------------------------------------------- */
select tests.as_service();
select lives_ok($$ update public.application_pipeline set status = 'placed' where application_id = '$$ || tests.row('application') || $$' $$,
  'service_role: may change a status directly');
select is((select count(*)::int from public.application_status_changes where to_status = 'placed'), 1,
  'service_role: its change is in the history too');

select * from finish();
rollback;
