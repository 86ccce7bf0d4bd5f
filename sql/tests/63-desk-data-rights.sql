-- The firm's desk and the candidate's rights (0458, parts of the personal data registry of 0335): "Download my data"
-- has the candidate's part (plain statuses and their dates; consents and the companies a profile under its proven
-- e-mail was shared with) and nothing of the firm's (notes, status names, consultant, client names); "Delete my
-- account" takes the applications' progress, history and notes with them; erasure by retention takes a person's
-- profile under its proven address with its consents and links; the audit log keeps no name; ended links go a year
-- after they ended.
begin;
\ir lib/setup.sql
select plan(20);

-- cand1 applied while signed in; its profile (same e-mail) was shared with a client after its consent.
insert into public.applications (id, job_id, first_name, last_name, email, phone, cv_object, privacy_consent, user_id)
values (tests.row('application-cand1'), tests.job('active2'), 'Cand', 'One', 'cand1@pgtap.test', '07700900002',
        'applications/c1.pdf', true, tests.uid('cand1'));
insert into public.candidate_profiles (id, candidate_id, name, email, status)
values (tests.row('profile-cand1'), 'CAND-C1', 'Cand One', 'CAND1@pgtap.test', 'active');
-- cand1 proved its address (the confirmation mail was sent before it was confirmed): its address's records are its.
update auth.users set confirmation_sent_at = email_confirmed_at - interval '1 minute' where id = tests.uid('cand1');

select tests.as_user('admin');
do $$
begin
  perform public.admin_set_application_status(array[tests.row('application-cand1')], 'interviewing', 'Client loved the portfolio');
  perform public.admin_assign_consultant(array[tests.row('application-cand1')], tests.uid('admin2'));
  insert into public.profile_consents (profile_id, given_on, method, scope) values (tests.row('profile-cand1'), current_date, 'email', 'Acme roles');
  perform public.admin_create_client_link(tests.row('profile-cand1'), 'Jo Bloggs', 'Acme Homes');
end
$$;

/* ---------------------------------------------------------------------------------------------------------------
 * Download my data
 * --------------------------------------------------------------------------------------------------------------- */
select tests.as_user('cand1');
select is(public.export_my_data() #>> '{application_progress,0,status}', 'Interviewing', 'export: the plain status');
select is(public.export_my_data() #>> '{application_progress,0,status_history,0,status}', 'Interviewing',
  'export: the dates the status changed, in plain words');
select is(public.export_my_data() #>> '{introductions,0,consents,0,method}', 'email', 'export: the consent recorded');
select is(public.export_my_data() #>> '{introductions,0,shared_with,0,company}', 'Acme Homes', 'export: the company it was shared with');
select ok(position('portfolio' in public.export_my_data()::text) = 0, 'export: no internal note');
select ok(position('interviewing' in (public.export_my_data() -> 'application_progress')::text) = 0, 'export: no firm''s status name');
select ok(position('Jo Bloggs' in public.export_my_data()::text) = 0 and position('admin2' in public.export_my_data()::text) = 0,
  'export: no client''s name, no consultant');
select tests.as_user('cand2');
select is(public.export_my_data() -> 'application_progress', '[]'::jsonb, 'export: another candidate gets no progress of cand1''s');
select is(public.export_my_data() -> 'introductions', '[]'::jsonb, 'export: nor its introductions');
select tests.as_anon();
select throws_ok($$ select public.export_my_data() $$, '42501', null, 'export: anon has none');

/* ---------------------------------------------------------------------------------------------------------------
 * Delete my account
 * --------------------------------------------------------------------------------------------------------------- */
select tests.as_user('cand1');
select lives_ok($$ select public.delete_my_account('DELETE') $$, 'the candidate deletes the account');
select tests.as_owner();
select is((select count(*)::int from public.application_pipeline where application_id = tests.row('application-cand1')), 0,
  'its application''s progress is gone');
select is((select count(*)::int from public.application_status_changes where application_id = tests.row('application-cand1')), 0,
  'and the history');
select is((select count(*)::int from public.desk_notes where application_id = tests.row('application-cand1')), 0, 'and the notes');
select ok((select bool_and(position('Cand' in coalesce(subject, '') || coalesce(old_data::text, '') || coalesce(new_data::text, '')) = 0
                    and position('cand1@' in coalesce(subject, '') || coalesce(old_data::text, '') || coalesce(new_data::text, '')) = 0)
           from public.audit_log where table_name in ('application_pipeline', 'desk_notes', 'applications')),
  'the audit log keeps who changed what, and no name or address of the applicant');

/* The profile under the proven address goes too (the registry's profiles part), with its consents and links. */
select is((select count(*)::int from public.candidate_profiles where id = tests.row('profile-cand1')), 0,
  'the profile held with the proven address is erased with the account');
select is((select count(*)::int from public.profile_consents where profile_id = tests.row('profile-cand1')), 0,
  'with its consents');
select is((select count(*)::int from public.profile_client_links where profile_id = tests.row('profile-cand1')), 0, 'and its links');

/* ---------------------------------------------------------------------------------------------------------------
 * Ended links
 * --------------------------------------------------------------------------------------------------------------- */
select tests.as_user('admin');
do $$
begin
  insert into public.profile_consents (profile_id, given_on, method) values (tests.row('profile-active'), current_date, 'in_writing');
  perform public.admin_create_client_link(tests.row('profile-active'), 'Old Client', 'Old Co');
end
$$;
select tests.as_owner();
select is((private.run_desk_retention(now() + interval '1 year') ->> 'ended_client_links')::int, 0,
  'a link that ended less than a year ago is kept');
select is((private.run_desk_retention(now() + interval '14 months') ->> 'ended_client_links')::int, 1,
  'a link that ended more than a year ago goes');

select * from finish();
rollback;
