-- U-hardening 9 (sql/migrations/0331): the audit log keeps who, what and when of every change after a profile is
-- deleted (only personal values are erased), nobody can change or delete entries (the database owner included),
-- and Clear Admin Views, an admin's deletion of views and deleted applications are recorded without applicants'
-- personal data.
begin;
\ir lib/setup.sql
select plan(24);

-- An admin edits a profile's private fields, then deletes the profile to hide the edit.
select tests.as_user('admin');
update public.candidate_profiles set email = 'changed@private.test', details = 'Edited before deleting'
 where id = tests.row('profile-active2');
delete from public.candidate_profiles where id = tests.row('profile-active2');
select tests.as_owner();

select results_eq($$ select action, actor_email, changed_fields from public.audit_log
                      where table_name = 'candidate_profiles' and record_id = tests.row('profile-active2') order by id $$,
  $$ values ('INSERT'::text, null::text, array['candidate_id', 'created_at', 'email', 'external_id', 'id', 'location', 'name', 'slug', 'source', 'status']),
            ('UPDATE', 'admin@pgtap.test', array['details', 'email']),
            ('DELETE', 'admin@pgtap.test', null) $$,
  'after the deletion each entry still says who changed which fields');
select ok((select bool_and(at is not null and actor_role is not null) from public.audit_log
            where table_name = 'candidate_profiles' and record_id = tests.row('profile-active2')), 'and when, and as which role');
select is_empty($$ select id from public.audit_log where table_name = 'candidate_profiles' and record_id = tests.row('profile-active2')
                     and (old_data::text ~ 'Bob Secret|bob@private|changed@private|Hiddenham|Edited before'
                          or new_data::text ~ 'Bob Secret|bob@private|changed@private|Hiddenham|Edited before') $$,
  'the personal values are erased from every entry');
select is((select new_data ->> 'email' from public.audit_log where table_name = 'candidate_profiles'
            and record_id = tests.row('profile-active2') and action = 'UPDATE'), 'erased', 'an erased field stays named, its value replaced');
select is((select new_data ->> 'candidate_id' from public.audit_log where table_name = 'candidate_profiles'
            and record_id = tests.row('profile-active2') and action = 'UPDATE'), 'CAND-T2', 'the non-personal fields stay');

-- Append-only, for the owner too.
select throws_ok($$ update public.audit_log set actor_email = 'someone.else@pgtap.test' where action = 'UPDATE' $$, '42501',
  'The audit log cannot be changed (only personal values are erased when a profile is deleted)', 'owner: cannot rewrite who did it');
select throws_ok($$ update public.audit_log set changed_fields = '{}' where table_name = 'candidate_profiles' $$, '42501', null,
  'owner: cannot rewrite what changed');
select throws_ok($$ delete from public.audit_log $$, '42501', null, 'owner: cannot delete entries');
select throws_ok($$ truncate public.audit_log $$, '42501', null, 'owner: cannot truncate the log');

-- Clear Admin Views, and an admin's own DELETE of admin views through the API.
select tests.as_user('admin');
select is(public.delete_admin_profile_views(), 2, 'admin: Clear Admin Views deletes the two admin views left');
select tests.as_owner();
select results_eq($$ select actor_email, subject, (old_data ->> 'views')::int from public.audit_log where table_name = 'profile_views' $$,
  $$ values ('admin@pgtap.test'::text, 'Clear Admin Views: 2 views of 2 profiles'::text, 2) $$,
  'Clear Admin Views is recorded with its count (the deleted profile''s views were its own entry''s)');
insert into public.profile_views (profile_id, user_id) values (tests.row('profile-active'), tests.uid('admin2'));
select tests.as_user('admin');
delete from public.profile_views where user_id = tests.uid('admin2');
select tests.as_owner();
select is((select subject from public.audit_log where table_name = 'profile_views' order by id desc limit 1),
  'Clear Admin Views: 1 view of 1 profile', 'an admin deleting views through the API is recorded too');
select tests.as_user('cand1');
delete from public.profile_views;
select tests.as_owner();
select is((select count(*)::int from public.audit_log where table_name = 'profile_views'), 2, 'a delete that removes nothing records nothing');

-- Deleted applications: by the firm (service_role), and with the applicant's account.
select tests.as_service();
delete from public.applications where id = tests.row('application');
select tests.as_owner();
select results_eq($$ select actor_role, record_id, subject from public.audit_log where table_name = 'applications' $$,
  $$ values ('service_role'::text, tests.row('application'), 'Application for Active one (T-1)'::text) $$,
  'service_role: deleting an application is recorded');
select is_empty($$ select id from public.audit_log where table_name = 'applications'
                     and (coalesce(old_data, '{}')::text ~ 'Ann|ann@pgtap|07700900000|ann\.pdf' or subject ~ 'Ann') $$,
  'without the applicant''s name, e-mail, phone or CV');
insert into storage.objects (bucket_id, name) values ('cvs', 'audit/cand2.pdf');
select tests.as_user('cand2');
insert into public.applications (job_id, first_name, last_name, email, phone, cv_object, privacy_consent)
values (tests.job('active1'), 'Cand', 'Two', 'cand2@pgtap.test', '07700900002', 'audit/cand2.pdf', true);
select lives_ok($$ select public.delete_my_account('DELETE') $$, 'candidate: deletes its account with its application');
select tests.as_owner();
select results_eq($$ select actor_email, (old_data ->> 'by_the_applicant')::boolean from public.audit_log
                      where table_name = 'applications' and actor_id = tests.uid('cand2') $$,
  $$ values (null::text, true) $$, 'the applicant''s own deletion is recorded without naming them');

-- Who reads it: admins only; nobody writes.
select tests.as_user('admin');
select ok((select count(*) from public.audit_log where table_name in ('profile_views', 'applications')) = 4, 'admin: reads the new entries');
select throws_ok($$ update public.audit_log set subject = 'x' $$, '42501', 'permission denied for table audit_log', 'admin: cannot change entries');
select throws_ok($$ delete from public.audit_log $$, '42501', 'permission denied for table audit_log', 'admin: cannot delete entries');
select tests.as_user('cand1');
select is_empty($$ select id from public.audit_log $$, 'candidate: reads no entry');
select tests.as_anon();
select throws_ok($$ select id from public.audit_log $$, '42501', null, 'anon: cannot read the log');
select tests.as_service();
select throws_ok($$ delete from public.audit_log $$, '42501', 'permission denied for table audit_log', 'service_role: cannot delete entries');
select throws_ok($$ update public.audit_log set subject = 'x' $$, '42501', 'permission denied for table audit_log', 'service_role: cannot change entries');
select tests.as_owner();

select * from finish();
rollback;
