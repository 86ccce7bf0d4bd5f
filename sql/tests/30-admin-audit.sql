-- The audit log (0230): every admin write to featured_jobs, candidate_profiles and user_roles is recorded by the
-- database with who, when, what and the row before and after; only admins read it; no API role can write, change or
-- delete it. Also reorder_featured_jobs (0231), admin_job_overview (0232) and the column rules of 0235.
begin;
\ir lib/setup.sql
select plan(46);

-- Writes by an admin through the API role.
select tests.as_user('admin');
insert into public.featured_jobs (id, job_id, custom_excerpt, custom_title) values (tests.row('fj-new'), tests.job('draft'), 'New one', 'Audited title');
update public.featured_jobs set custom_excerpt = 'Changed' where id = tests.row('fj-new');
update public.featured_jobs set custom_excerpt = 'Changed' where id = tests.row('fj-new'); -- no change: not logged
delete from public.featured_jobs where id = tests.row('fj-new');
insert into public.candidate_profiles (id, candidate_id, name) values (tests.row('audit-profile'), 'CAND-AUDIT', 'Ada Audit');
update public.candidate_profiles set status = 'inactive' where id = tests.row('audit-profile');

select tests.as_owner();
select results_eq(
  $$ select action, table_name, subject, actor_id, actor_email, actor_role from public.audit_log
     where record_id = tests.row('fj-new') order by id $$,
  $$ values ('INSERT', 'featured_jobs', 'Audited title', tests.uid('admin'), 'admin@pgtap.test', 'authenticated'),
            ('UPDATE', 'featured_jobs', 'Audited title', tests.uid('admin'), 'admin@pgtap.test', 'authenticated'),
            ('DELETE', 'featured_jobs', 'Audited title', tests.uid('admin'), 'admin@pgtap.test', 'authenticated') $$,
  'featured job insert, update and delete are each recorded once with the admin, and an update that changes nothing is not');
select is((select old_data ->> 'custom_excerpt' || ' -> ' || (new_data ->> 'custom_excerpt') from public.audit_log
           where record_id = tests.row('fj-new') and action = 'UPDATE'), 'New one -> Changed', 'an update keeps the row before and after');
select ok((select new_data is null and old_data ->> 'custom_title' = 'Audited title' from public.audit_log
           where record_id = tests.row('fj-new') and action = 'DELETE'), 'a delete keeps the row as it was');
select ok((select old_data is null and new_data ->> 'job_id' = tests.job('draft')::text from public.audit_log
           where record_id = tests.row('fj-new') and action = 'INSERT'), 'an insert keeps the new row');
select results_eq(
  $$ select action, subject, old_data ->> 'status', new_data ->> 'status' from public.audit_log
     where record_id = tests.row('audit-profile') order by id $$,
  $$ values ('INSERT', 'CAND-AUDIT', null, 'active'), ('UPDATE', 'CAND-AUDIT', 'active', 'inactive') $$,
  'candidate profile writes are recorded with the candidate_id as subject');
select ok((select at <= now() and at > now() - interval '1 minute' from public.audit_log where record_id = tests.row('audit-profile') limit 1),
  'each entry records when');

-- Deleting a profile erases its personal data from the log, keeping who deleted which candidate and when.
select tests.as_user('admin');
delete from public.candidate_profiles where id = tests.row('audit-profile');
select tests.as_owner();
select is_empty($$ select id from public.audit_log where record_id = tests.row('audit-profile')
                   and (coalesce(old_data::text, '') || coalesce(new_data::text, '')) like '%Ada Audit%' $$,
  'a deleted profile''s name is erased from every audit entry');
select results_eq($$ select action, subject, old_data ->> 'candidate_id', old_data ->> 'personal_data' from public.audit_log
                     where record_id = tests.row('audit-profile') and action = 'DELETE' $$,
  $$ values ('DELETE', 'CAND-AUDIT', 'CAND-AUDIT', 'erased') $$, 'the delete itself is still recorded, with the candidate_id');

-- Role changes (from the command line or service_role) are recorded too.
select tests.as_service();
insert into public.user_roles (user_id, role) values (tests.uid('cand2'), 'admin');
select tests.as_owner();
delete from public.user_roles where user_id = tests.uid('cand2');
select results_eq(
  $$ select action, subject, actor_role from public.audit_log where table_name = 'user_roles' and subject like 'cand2%' order by id $$,
  $$ values ('INSERT', 'cand2@pgtap.test (admin)', 'service_role'), ('DELETE', 'cand2@pgtap.test (admin)', 'postgres') $$,
  'granting and revoking a role is recorded with the role that did it');

-- Who can read it.
select tests.as_anon();
select throws_ok($$ select count(*) from public.audit_log $$, '42501', 'permission denied for table audit_log', 'anon: cannot read the audit log');
select tests.as_user('cand1');
select is_empty($$ select id from public.audit_log $$, 'candidate: reads no audit entries');
select tests.as_user('admin');
select ok((select count(*) from public.audit_log) >= 7, 'admin: reads the audit log');

-- Nobody changes or deletes it through the API: not admins, not service_role.
select throws_ok($$ insert into public.audit_log (actor_role, table_name, action) values ('x', 'x', 'INSERT') $$, '42501', 'permission denied for table audit_log', 'admin: cannot write entries');
select throws_ok($$ update public.audit_log set subject = 'forged' $$, '42501', 'permission denied for table audit_log', 'admin: cannot change entries');
select throws_ok($$ delete from public.audit_log $$, '42501', 'permission denied for table audit_log', 'admin: cannot delete entries');
select throws_ok($$ truncate public.audit_log $$, '42501', 'permission denied for table audit_log', 'admin: cannot truncate the log');
select tests.as_service();
select throws_ok($$ update public.audit_log set subject = 'forged' $$, '42501', 'permission denied for table audit_log', 'service_role: cannot change entries');
select throws_ok($$ delete from public.audit_log $$, '42501', 'permission denied for table audit_log', 'service_role: cannot delete entries');
select throws_ok($$ insert into public.audit_log (actor_role, table_name, action) values ('x', 'x', 'INSERT') $$, '42501', 'permission denied for table audit_log', 'service_role: cannot write entries');
select tests.as_owner();
select is_empty($$ select 1 from information_schema.role_table_grants where table_schema = 'public' and table_name = 'audit_log'
                   and grantee in ('anon', 'authenticated', 'service_role') and privilege_type <> 'SELECT' $$,
  'no API role holds any privilege but SELECT on audit_log');

-- reorder_featured_jobs: every featured job once, one transaction.
select tests.as_user('admin');
select lives_ok($$ select public.reorder_featured_jobs(array[tests.row('featured-closed-job'), tests.row('featured-active'), tests.row('featured-off')]) $$,
  'admin: reorders the featured jobs');
select results_eq($$ select id from public.featured_jobs order by display_order $$,
  $$ values (tests.row('featured-closed-job')), (tests.row('featured-active')), (tests.row('featured-off')) $$, 'admin: the new order is stored');
select results_eq($$ select display_order from public.featured_jobs order by display_order $$, $$ values (0), (1), (2) $$, 'admin: display_order is 0, 1, 2');
select throws_ok($$ select public.reorder_featured_jobs(array[tests.row('featured-active'), tests.row('featured-off')]) $$,
  '22023', 'The featured jobs have changed since the list was loaded', 'admin: a list missing a featured job is refused');
select throws_ok($$ select public.reorder_featured_jobs(array[tests.row('featured-active'), tests.row('featured-active'), tests.row('featured-off')]) $$,
  '22023', 'The featured jobs have changed since the list was loaded', 'admin: a repeated id is refused');
select results_eq($$ select id from public.featured_jobs order by display_order $$,
  $$ values (tests.row('featured-closed-job')), (tests.row('featured-active')), (tests.row('featured-off')) $$, 'admin: a refused reorder changes nothing');
select tests.as_user('cand1');
select throws_ok($$ select public.reorder_featured_jobs(array[tests.row('featured-active'), tests.row('featured-off'), tests.row('featured-closed-job')]) $$,
  '42501', 'only admins can reorder featured jobs', 'candidate: cannot reorder');
select tests.as_anon();
select throws_ok($$ select public.reorder_featured_jobs('{}') $$, '42501', 'permission denied for function reorder_featured_jobs', 'anon: cannot reorder');
select tests.as_owner();
select is((select count(*)::int from public.audit_log where table_name = 'featured_jobs' and action = 'UPDATE'
           and (old_data ->> 'display_order') is distinct from (new_data ->> 'display_order')), 3, 'each moved featured job is audited');

-- admin_job_overview: counts, first jobs, and the Data Quality rule.
update public.jobs set description = 'Full description', requirements = 'Everything' where id = tests.job('active1');
update public.jobs set description = 'Text', company = 'Unknown Company' where id = tests.job('active2');
select tests.as_user('admin');
select is((public.admin_job_overview() ->> 'total')::int, 4, 'overview: total jobs');
select is((public.admin_job_overview() ->> 'active')::int, 2, 'overview: active jobs');
select is((public.admin_job_overview() ->> 'incomplete')::int, 3, 'overview: incomplete jobs');
select is((select json_agg(j ->> 'title') from json_array_elements(public.admin_job_overview(2) -> 'jobs') j)::text,
  '["Draft one", "Active two"]', 'overview: the first N jobs, newest first');
select results_eq($$ select i ->> 'title', (i -> 'missing')::jsonb from json_array_elements(public.admin_job_overview() -> 'issues') i $$,
  $$ values ('Draft one', '["description", "requirements", "salary"]'::jsonb),
            ('Active two', '["requirements", "company", "salary_competitive"]'::jsonb),
            ('Closed one', '["description", "requirements", "salary"]'::jsonb) $$,
  'overview: each incomplete job with what it lacks (the complete one is not listed)');
select tests.as_user('cand1');
select throws_ok($$ select public.admin_job_overview() $$, '42501', 'only admins can read the job overview', 'candidate: no job overview');
select tests.as_anon();
select throws_ok($$ select public.admin_job_overview() $$, '42501', 'permission denied for function admin_job_overview', 'anon: no job overview');

-- Column rules for admin writes (0235).
select tests.as_user('admin');
select throws_ok($$ update public.candidate_profiles set candidate_id = 'CAND-OTHER' where id = tests.row('profile-active') $$,
  '42501', 'permission denied for table candidate_profiles', 'admin: candidate_id is read-only after creation');
select throws_ok($$ update public.candidate_profiles set external_id = 'x' where id = tests.row('profile-active') $$,
  '42501', 'permission denied for table candidate_profiles', 'admin: external_id is set on creation only');
select throws_ok($$ insert into public.candidate_profiles (candidate_id, name, slug) values ('CAND-SLUG', 'S', 'guessable-slug-0000000000000') $$,
  '42501', 'permission denied for table candidate_profiles', 'admin: cannot choose a share slug');
select lives_ok($$ update public.candidate_profiles set name = 'Alice Renamed', email = 'a@x.test', location = 'York', job_title = 'Lead',
                   candidate_reference = 'R', details = 'D', status = 'active' where id = tests.row('profile-active') $$,
  'admin: updates the editable fields');

-- admin_candidate_profile_page: server-side search, paging, counted views.
select is((public.admin_candidate_profile_page('YORK') ->> 'matching')::int, 1, 'page: search is case-insensitive on location');
select is((public.admin_candidate_profile_page('hiddenham') -> 'profiles' -> 0 ->> 'candidate_id'), 'CAND-T2', 'page: finds by location');
select is((public.admin_candidate_profile_page('%') ->> 'matching')::int, 0, 'page: % matches itself, not everything');
select is((public.admin_candidate_profile_page(null, 2, 0) ->> 'total_profiles')::int, 3, 'page: total count of profiles');
select is(json_array_length(public.admin_candidate_profile_page(null, 2, 2) -> 'profiles'), 1, 'page: offset and size page through the list');
select tests.as_user('cand1');
select throws_ok($$ select public.admin_candidate_profile_page() $$, '42501', 'only admins can read candidate profiles with private fields', 'candidate: no candidate page');

select * from finish();
rollback;
