-- One private schema (0500): app_private is gone, everything it held lives in private, no routine, comment, pg_cron
-- command or registry entry names it any more, API roles keep the schema USAGE they had, and one admin guard
-- (private.require_admin(action, or_service_role)) refuses non-admins with 42501 as both old guards did.
begin;
\ir lib/setup.sql
select plan(25);

/* ---------------------------------------------------------------------------------------------------------------
 * The schema and what moved
 * --------------------------------------------------------------------------------------------------------------- */
select hasnt_schema('app_private', 'app_private is gone');
select is_empty($$
  select unnest(array[
    'add_counts(jsonb,jsonb)', 'adopt_definer_functions(oid[])', 'after_application()',
    'alert_page(text,text,text,jsonb,integer)', 'alert_page_for(text,jsonb)', 'application_cv_uploaded()',
    'before_application()', 'before_enquiry()', 'broadbean_push(xml)', 'check_rate(text,text,integer)', 'client_ip()',
    'client_key(text,bytea)', 'client_keys()', 'client_link_for(text)', 'client_link_state(profile_client_links)',
    'client_profile(text)', 'close_expired_jobs(timestamp with time zone)', 'closed_job(uuid)',
    'confirm_job_alert(text)', 'count_cv_documents()',
    'create_job_alert(text,alert_frequency,text,text,text,text[],uk_region[],employment_type[],work_arrangement[],integer)',
    'cv_folder_used(text)', 'describe_holdings(integer,integer,integer,integer)',
    'drop_old_salts(timestamp with time zone)', 'erase_account(data_subject)', 'erase_applications(data_subject)',
    'erase_cv_documents(data_subject)', 'erase_enquiries(data_subject)', 'erase_files(data_subject)',
    'erase_job_alerts(data_subject)', 'erase_mail(data_subject)', 'erase_person(text)',
    'erase_profile_views(data_subject)', 'erase_profiles(data_subject)', 'erase_retention_notices(data_subject)',
    'erase_roles(data_subject)', 'erase_saved_jobs(data_subject)', 'erase_sessions(data_subject)',
    'erase_subject(data_subject)', 'export_account(data_subject,integer,integer)',
    'export_application_progress(data_subject,integer,integer)', 'export_applications(data_subject,integer,integer)',
    'export_cv_documents(data_subject,integer,integer)', 'export_enquiries(data_subject,integer,integer)',
    'export_files(data_subject,integer,integer)', 'export_introductions(data_subject,integer,integer)',
    'export_job_alerts(data_subject,integer,integer)', 'export_mail(data_subject,integer,integer)',
    'export_page_size()', 'export_part(personal_data_parts,data_subject,integer,integer)',
    'export_profile_views(data_subject,integer,integer)', 'export_profiles(data_subject,integer,integer)',
    'export_retention_notices(data_subject,integer,integer)', 'export_roles(data_subject,integer,integer)',
    'export_saved_jobs(data_subject,integer,integer)', 'export_sessions(data_subject,integer,integer)',
    'export_subject(data_subject)', 'feed_answer(integer,jsonb)', 'greeting_name(text)', 'html_to_text(text)',
    'install_application_triggers()', 'is_bot_user_agent(text)', 'is_part_function(regprocedure,text)',
    'is_person_name(text)', 'job_alert_confirmation(text)', 'job_alert_mail(job_alerts,jsonb)',
    'job_alert_of_token(text)', 'job_alert_search_href(job_alerts)', 'job_alert_subscription(text)',
    'job_alert_unsubscribe_token(uuid)', 'job_as_shown(uuid)', 'jobs_card_html(jsonb)', 'jobs_chips_html(jsonb)',
    'jobs_count_text(integer,integer,integer)', 'jobs_facet_html(text,text,jsonb,jsonb)', 'jobs_filters(text)',
    'jobs_form_html(jsonb,jsonb)', 'jobs_heading(jsonb)', 'jobs_href(jsonb)',
    'jobs_pager_html(jsonb,integer,integer)', 'jobs_without(jsonb,text,text)', 'limit_cv_documents()',
    'limit_cv_uploads()', 'limit_form(text)', 'limit_profile_views()', 'limit_saved_jobs()',
    'limit_value(text,bigint)', 'money(integer)', 'my_data_subject()', 'notice_for(text)', 'on_routine_ddl()',
    'one_line(text)', 'pending_job_alert(text)', 'personal_records()', 'posted_label(integer)',
    'privacy_choice(text)', 'profile_view_salt(date)', 'proven_email(uuid)', 'prune_submission_log()',
    'query_params(text)', 'record_client_link_view(text,text,text)', 'record_job_public_version()',
    'recount_cv_documents()', 'referrer_origin(text)',
    'register_personal_data_part(text,text,regprocedure,regprocedure,text[],integer,integer)',
    'remove_application_cv()', 'retention_people(timestamp with time zone)', 'rotate_feed_credentials(text,text)',
    'run_desk_retention(timestamp with time zone)', 'run_job_alerts(timestamp with time zone,integer)',
    'run_retention(timestamp with time zone)', 'schedule_desk_retention(text)', 'schedule_job_alerts(text)',
    'schedule_job_closing(text)', 'schedule_retention(text)',
    'search_jobs(text,text[],uk_region[],text,employment_type[],work_arrangement[],integer,integer,integer,text)',
    'send_retention_notice(text,integer,integer,integer,integer,timestamp with time zone)',
    'set_privacy_choice(text,text)', 'setting(text)', 'take(text,text,bigint,bigint)',
    'take_for_client(text,bigint,bigint)', 'take_keys(text,text[],bigint,bigint)',
    'take_total(text,text,bigint,bigint,bigint)', 'token_param(text)', 'total_label(text)',
    'unsubscribe_job_alert(text)', 'uri_component(text)', 'url_decode(text)', 'url_encode(text)',
    'viewer_address(text)', 'visitor_hash(bytea,text)', 'without_link_tokens(text)'
  ]) except select replace(p.oid::regprocedure::text, 'private.', '') from pg_proc p
             where p.pronamespace = 'private'::regnamespace $$,
  'every function app_private held is in private, with the same arguments');
select is_empty($$
  select unnest(array[
    'admin_visits', 'cv_document_totals', 'data_subject', 'feed_credentials', 'hourly_totals', 'job_alert_runs',
    'job_alert_runs_id_seq', 'job_alert_sends', 'job_import_runs', 'job_import_runs_id_seq', 'job_public_versions',
    'limit_alerts', 'limit_alerts_id_seq', 'personal_data_parts', 'profile_view_salts', 'profile_view_totals',
    'retention_log', 'retention_log_id_seq', 'retention_notices', 'settings', 'submission_log', 'submission_log_id_seq'
  ]) except select c.relname::text from pg_class c where c.relnamespace = 'private'::regnamespace $$,
  'every table, sequence and type app_private held is in private');
select is((select count(*)::int from private.settings where key in ('firm_inbox', 'firm_name', 'site_url')), 3,
  'the settings rows moved with their table');

/* ---------------------------------------------------------------------------------------------------------------
 * Nothing names app_private any more
 * --------------------------------------------------------------------------------------------------------------- */
select is_empty($$ select p.oid::regprocedure::text from pg_proc p
                    where p.prosrc like '%app\_private%'
                       or (p.prokind in ('f', 'p') and pg_get_functiondef(p.oid) like '%app\_private%') $$,
  'no routine body or signature in the database names app_private');
select is_empty($$ select d.description from pg_description d where d.description like '%app\_private%' $$,
  'no comment names app_private');
select is_empty($$ select name from private.personal_data_parts
                    where array_to_string(covers, ',') like '%app\_private%' $$,
  'the personal-data registry lists private.retention_notices');
select is_empty($$ select pg_get_viewdef(c.oid) from pg_class c where c.relkind in ('v', 'm')
                    and pg_get_viewdef(c.oid) like '%app\_private%'
                  union all select p.policyname::text from pg_policies p
                    where p.qual like '%app\_private%' or p.with_check like '%app\_private%' $$,
  'no view or policy names app_private');

/* ---------------------------------------------------------------------------------------------------------------
 * Schema rights: what app_private gave, private gives
 * --------------------------------------------------------------------------------------------------------------- */
select results_eq($$ select r, has_schema_privilege(r, 'private', 'usage'), has_schema_privilege(r, 'private', 'create')
                     from unnest(array['anon', 'authenticated', 'service_role', 'app_definer', 'authenticator']) r $$,
  $$ values ('anon', true, false), ('authenticated', true, false), ('service_role', true, false),
            ('app_definer', true, false), ('authenticator', false, false) $$,
  'anon, authenticated, service_role and app_definer may use private (none may create in it)');
select tests.as_anon();
select is(public.privacy_choice('no-such-token'), '{"status": "unknown"}'::jsonb,
  'anon: a SECURITY INVOKER wrapper still reaches its private function');
select throws_ok($$ select count(*) from private.settings $$, '42501', null, 'anon: cannot read private tables');
select tests.as_owner();

/* ---------------------------------------------------------------------------------------------------------------
 * One admin guard
 * --------------------------------------------------------------------------------------------------------------- */
select results_eq($$ select p.oid::regprocedure::text from pg_proc p where p.proname = 'require_admin' $$,
  $$ values ('private.require_admin(text,boolean)') $$, 'one guard: private.require_admin(action, or_service_role)');
create function tests.guard(action text, or_service_role boolean) returns text
  language sql security definer set search_path = '' as $$
  select private.require_admin(action, or_service_role)::text || 'passed'
$$;
grant execute on function tests.guard(text, boolean) to public;

select tests.as_anon();
select throws_ok($$ select tests.guard('do this', true) $$, '42501', 'only admins can do this', 'anon: refused');
select tests.as_user('cand1');
select throws_ok($$ select tests.guard('do this', false) $$, '42501', 'only admins can do this', 'candidate: refused');
select throws_ok($$ select tests.guard('do this', true) $$, '42501', 'only admins can do this',
  'candidate: refused where service_role is let through');
select throws_ok($$ select * from public.retention_due() $$, '42501', 'only admins can see retention',
  'candidate: retention refused with its old message');
select throws_ok($$ select * from public.admin_staff() $$, '42501', 'only admins can list the staff',
  'candidate: the desk refused with its old message');
select tests.as_user('admin');
select is(tests.guard('do this', false), 'passed', 'admin: through');
select is(tests.guard('do this', true), 'passed', 'admin: through where service_role is too');
select lives_ok($$ select * from public.retention_due() $$, 'admin: reads retention');
select lives_ok($$ select * from public.admin_staff() $$, 'admin: reads the staff');
select tests.as_service();
select throws_ok($$ select tests.guard('do this', false) $$, '42501', 'only admins can do this',
  'service_role: refused by the desk''s form of the guard, as by 0450''s');
select is(tests.guard('do this', true), 'passed', 'service_role: through where it was (0320''s retention guard)');
select lives_ok($$ select * from public.retention_due() $$, 'service_role: reads retention, as before');
select lives_ok($$ select * from public.retention_runs() $$, 'service_role: reads the retention log, as before');
select tests.as_owner();

select * from finish();
rollback;
