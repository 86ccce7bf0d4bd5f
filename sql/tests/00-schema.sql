-- The shape every access rule relies on: tables, RLS switched on, table and column grants per role, helpers,
-- comments, indexes, and the gateway lint's six rules finding nothing.
begin;
\ir lib/setup.sql
select plan(90);

select tables_are('public', array[
  'applications', 'audit_log', 'candidate_profiles', 'cv_documents', 'enquiries', 'featured_jobs', 'jobs', 'profile_views',
  'saved_jobs', 'site_settings', 'user_roles',
  -- the firm's desk (0450-0458)
  'application_mail_templates', 'application_pipeline', 'application_status_changes', 'desk_notes', 'profile_client_links',
  'profile_consents',
  -- job alerts (0405)
  'job_alerts'], 'the site''s tables, and only those, are in public');

-- Row-level security on every table, and a comment on every table.
select is(
  (select array_agg(c.relname::text order by c.relname) from pg_class c
   where c.relnamespace = 'public'::regnamespace and c.relkind = 'r' and not c.relrowsecurity),
  null, 'every public table has row-level security enabled');
select is(
  (select array_agg(c.relname::text order by c.relname) from pg_class c
   where c.relnamespace = 'public'::regnamespace and c.relkind = 'r' and obj_description(c.oid, 'pg_class') is null),
  null, 'every public table has a comment');

-- Table-level privileges per role (deny by default: anything not listed is refused with 42501).
select table_privs_are('public', 'jobs', 'anon', array['SELECT'], 'anon: jobs select only');
select table_privs_are('public', 'jobs', 'authenticated', array['SELECT'], 'authenticated: jobs select only');
select table_privs_are('public', 'jobs', 'service_role', array['SELECT', 'INSERT', 'UPDATE', 'DELETE'], 'service_role: jobs CRUD (imports)');
select table_privs_are('public', 'featured_jobs', 'anon', array['SELECT'], 'anon: featured_jobs select only');
select table_privs_are('public', 'featured_jobs', 'authenticated', array['SELECT', 'INSERT', 'UPDATE', 'DELETE'], 'authenticated: featured_jobs CRUD (rows: admins)');
select table_privs_are('public', 'featured_jobs', 'service_role', array['SELECT', 'INSERT', 'UPDATE', 'DELETE'], 'service_role: featured_jobs CRUD');
select table_privs_are('public', 'candidate_profiles', 'anon', array[]::text[], 'anon: no table-wide privilege on candidate_profiles (columns only)');
select table_privs_are('public', 'candidate_profiles', 'authenticated', array['DELETE'], 'authenticated: candidate_profiles delete (rows: admins); select, insert and update by column only');
select table_privs_are('public', 'candidate_profiles', 'service_role', array['SELECT', 'INSERT', 'UPDATE', 'DELETE'], 'service_role: candidate_profiles CRUD');
select table_privs_are('public', 'profile_views', 'anon', array[]::text[], 'anon: no table-wide privilege on profile_views (insert by column)');
select table_privs_are('public', 'profile_views', 'authenticated', array['SELECT', 'DELETE'], 'authenticated: profile_views select/delete (rows: admins)');
select table_privs_are('public', 'applications', 'anon', array[]::text[], 'anon: applications insert by column only, never select');
select table_privs_are('public', 'applications', 'authenticated', array['SELECT'], 'authenticated: applications select (rows: admins)');
select table_privs_are('public', 'enquiries', 'anon', array[]::text[], 'anon: enquiries insert by column only, never select');
select table_privs_are('public', 'enquiries', 'authenticated', array['SELECT'], 'authenticated: enquiries select (rows: admins)');
select table_privs_are('public', 'cv_documents', 'anon', array[]::text[], 'anon: nothing on cv_documents');
select table_privs_are('public', 'cv_documents', 'authenticated', array['SELECT', 'DELETE'], 'authenticated: cv_documents select/delete, insert/update by column');
select table_privs_are('public', 'saved_jobs', 'anon', array[]::text[], 'anon: nothing on saved_jobs');
select table_privs_are('public', 'saved_jobs', 'authenticated', array['SELECT', 'DELETE'], 'authenticated: saved_jobs select/delete, insert by column');
select table_privs_are('public', 'user_roles', 'anon', array[]::text[], 'anon: nothing on user_roles');
select table_privs_are('public', 'user_roles', 'authenticated', array['SELECT'], 'authenticated: user_roles select only (no self-granted roles)');
select table_privs_are('public', 'user_roles', 'service_role', array['SELECT', 'INSERT', 'UPDATE', 'DELETE'], 'service_role: user_roles CRUD');

-- Column privileges: the public columns of candidate_profiles, and never the private ones.
select ok(has_column_privilege(r, 'public.candidate_profiles', c, 'SELECT'), format('%s may select candidate_profiles.%s', r, c))
from unnest(array['anon', 'authenticated']) r,
     unnest(array['id', 'candidate_id', 'job_title', 'candidate_reference', 'details', 'slug', 'status']) c;
select ok(not has_column_privilege(r, 'public.candidate_profiles', c, 'SELECT'), format('%s may not select candidate_profiles.%s', r, c))
from unnest(array['anon', 'authenticated']) r,
     unnest(array['name', 'email', 'location', 'source', 'external_id', 'created_at', 'updated_at']) c;
select ok(not has_column_privilege(r, 'public.profile_views', 'viewed_at', 'INSERT'), format('%s may not choose profile_views.viewed_at', r))
from unnest(array['anon', 'authenticated']) r;
select ok(not has_column_privilege('authenticated', 'public.cv_documents', 'user_id', 'UPDATE'), 'nobody may move a CV to another user (cv_documents.user_id not updatable)');

-- Helpers.
select is(
  (select prosecdef from pg_proc where oid = 'public.is_admin()'::regprocedure), true, 'is_admin() is SECURITY DEFINER');
select is(
  (select proconfig from pg_proc where oid = 'public.is_admin()'::regprocedure), array['search_path=""'], 'is_admin() pins search_path to empty');
select function_privs_are('public', 'is_admin', array[]::text[], 'anon', array[]::text[], 'anon cannot execute is_admin()');
select function_privs_are('public', 'is_admin', array[]::text[], 'authenticated', array['EXECUTE'], 'authenticated can execute is_admin()');
select function_privs_are('public', 'delete_admin_profile_views', array[]::text[], 'anon', array[]::text[], 'anon cannot execute delete_admin_profile_views()');
select function_privs_are('public', 'delete_admin_profile_views', array[]::text[], 'authenticated', array['EXECUTE'], 'authenticated can execute delete_admin_profile_views()');
select function_privs_are('public', 'admin_candidate_profiles', array[]::text[], 'anon', array[]::text[], 'anon cannot execute admin_candidate_profiles()');
select function_returns('public', 'delete_admin_profile_views', array[]::text[], 'integer', 'delete_admin_profile_views() returns integer');
select is(
  (select prosecdef from pg_proc where oid = 'public.delete_admin_profile_views()'::regprocedure), false,
  'delete_admin_profile_views() runs as the caller (its policy limits it)');

-- The gateway lint (gateway/src/core/db/lint.rs) over public: each of its rules finds nothing.
select is_empty($$
  select c.relname from pg_class c join pg_namespace n on n.oid = c.relnamespace
  where c.relkind in ('r','p') and n.nspname = 'public' and not c.relrowsecurity
    and (has_table_privilege('anon', c.oid, 'delete') or has_any_column_privilege('anon', c.oid, 'select,insert,update')
         or has_table_privilege('authenticated', c.oid, 'delete')
         or has_any_column_privilege('authenticated', c.oid, 'select,insert,update')) $$,
  'lint rls_disabled (table or column grants): nothing');
select is_empty($$
  select c.relname from pg_class c join pg_namespace n on n.oid = c.relnamespace
  left join pg_depend d on d.objid = c.oid and d.deptype = 'e'
  where c.relkind = 'v' and n.nspname = 'public' and d.objid is null
    and not (lower(coalesce(c.reloptions::text, '{}'))::text[] && array['security_invoker=1', 'security_invoker=true',
             'security_invoker=yes', 'security_invoker=on'])
    and (has_any_column_privilege('anon', c.oid, 'select,insert,update')
         or has_any_column_privilege('authenticated', c.oid, 'select,insert,update')) $$,
  'lint security_definer_view: nothing');
select is_empty($$
  select c.relname from pg_class c join pg_namespace n on n.oid = c.relnamespace
  where c.relkind = 'm' and n.nspname = 'public'
    and (has_any_column_privilege('anon', c.oid, 'select') or has_any_column_privilege('authenticated', c.oid, 'select')) $$,
  'lint materialized_view_in_api: nothing');
select is_empty($$
  select policyname from pg_policies
  where schemaname = 'public' and cmd in ('INSERT','UPDATE','DELETE','ALL')
    and (coalesce(qual, '') = 'true' or coalesce(with_check, '') = 'true')
    and roles && array['public','anon','authenticated']::name[] $$,
  'lint permissive_write_policy: nothing');
select is_empty($$
  select p.proname from pg_proc p join pg_namespace n on n.oid = p.pronamespace
  where p.prosecdef and n.nspname = 'public' and has_function_privilege('anon', p.oid, 'execute') $$,
  'lint security_definer_executable_by_anon: nothing');
select is_empty($$
  select p.proname from pg_proc p join pg_namespace n on n.oid = p.pronamespace
  left join pg_depend d on d.objid = p.oid and d.deptype = 'e'
  where n.nspname = 'public' and d.objid is null and p.prokind in ('f','p')
    and not exists (select 1 from unnest(coalesce(p.proconfig, '{}')) c where c like 'search_path=%') $$,
  'lint function_search_path_mutable: nothing');
-- One deliberate exception: site_settings is one row of public facts (site URL and name, sql/migrations/0150) that
-- the anon-run job pages and sitemap read; it is readable by everyone and writable only by service_role.
select is_empty($$
  select policyname from pg_policies where schemaname = 'public' and (qual = 'true' or with_check = 'true')
    and not (tablename = 'site_settings' and cmd = 'SELECT' and with_check is null) $$,
  'no policy at all is USING (true) / WITH CHECK (true), except the public read of site_settings');

-- Indexes for every filter the site uses and every column a policy reads.
select has_index('public', 'jobs', 'jobs_status_posted_date_idx', array['status', 'posted_date'], 'jobs(status, posted_date)');
select has_index('public', 'featured_jobs', 'featured_jobs_active_order_idx', array['is_active', 'display_order'], 'featured_jobs(is_active, display_order)');
select has_index('public', 'featured_jobs', 'featured_jobs_job_id_key', array['job_id'], 'featured_jobs(job_id) unique');
select has_index('public', 'candidate_profiles', 'candidate_profiles_slug_key', array['slug'], 'candidate_profiles(slug) unique');
select has_index('public', 'candidate_profiles', 'candidate_profiles_candidate_id_key', array['candidate_id'], 'candidate_profiles(candidate_id) unique');
select has_index('public', 'candidate_profiles', 'candidate_profiles_status_idx', array['status'], 'candidate_profiles(status)');
select has_index('public', 'profile_views', 'profile_views_profile_id_viewed_at_idx', array['profile_id', 'viewed_at'], 'profile_views(profile_id, viewed_at)');
select has_index('public', 'profile_views', 'profile_views_user_id_idx', array['user_id'], 'profile_views(user_id)');
select has_index('public', 'user_roles', 'user_roles_user_id_role_key', array['user_id', 'role'], 'user_roles(user_id, role) unique');
select has_index('public', 'cv_documents', 'cv_documents_user_id_updated_at_idx', array['user_id', 'updated_at'], 'cv_documents(user_id, updated_at)');
select has_index('public', 'saved_jobs', 'saved_jobs_job_id_idx', array['job_id'], 'saved_jobs(job_id)');
select has_index('public', 'applications', 'applications_job_id_idx', array['job_id'], 'applications(job_id)');

-- Foreign key used by supabase-js embedding featured_jobs?select=*,jobs(...).
select fk_ok('public', 'featured_jobs', 'job_id', 'public', 'jobs', 'id', 'featured_jobs.job_id references jobs.id');
select has_trigger('public', 'featured_jobs', 'featured_jobs_default_display_order', 'featured_jobs has the display_order trigger');
select has_trigger(t, t || '_set_updated_at', format('%s keeps updated_at current', t))
from unnest(array['jobs', 'featured_jobs', 'candidate_profiles', 'cv_documents']) t;

select * from finish();
rollback;
