-- The site's own parts of the personal-data registry (0335): for each, what "Download my data" shows and what
-- deleting the account or the retention erasure removes. By account: the account itself (with its identities),
-- its sessions (when, from which address and browser), roles, CV drafts, saved jobs, the profile views it made,
-- the files it uploaded (CVs never attached to an application included). By proven e-mail address: applications
-- and enquiries sent with it (signed in or out), the firm's candidate profile of the person, mail queued to it and
-- the retention notice. Links in exported mail lose their query and fragment (they carry one-time tokens).
set local client_min_messages = warning;

/** account ******************************************************************************************************/
create or replace function app_private.export_account(subject app_private.data_subject, max_items integer, skip integer)
returns jsonb
language sql stable security definer set search_path = '' as $$
  select coalesce((
    select jsonb_build_object(
      'id', u.id, 'email', u.email, 'email_proven', subject.email is not null, 'phone', u.phone,
      'full_name', u.raw_user_meta_data ->> 'full_name', 'user_metadata', coalesce(u.raw_user_meta_data, '{}'),
      'created_at', u.created_at, 'updated_at', u.updated_at, 'email_confirmed_at', u.email_confirmed_at,
      'last_sign_in_at', u.last_sign_in_at,
      'identities', coalesce((select jsonb_agg(jsonb_build_object('provider', i.provider, 'identity_data', i.identity_data,
                                'created_at', i.created_at, 'last_sign_in_at', i.last_sign_in_at) order by i.created_at)
                              from auth.identities i where i.user_id = u.id), '[]'))
    from auth.users u where u.id = subject.user_id), '{}')
$$;

create or replace function app_private.erase_account(subject app_private.data_subject) returns bigint
language sql security definer set search_path = '' as $$
  delete from auth.flow_state f where f.user_id = subject.user_id;
  with done as (
    delete from auth.users u where u.id = subject.user_id -- identities, sessions, tokens go by cascade
    returning 1)
  select count(*) from done
$$;

/** sessions *****************************************************************************************************/
create or replace function app_private.export_sessions(subject app_private.data_subject, max_items integer, skip integer)
returns jsonb
language sql stable security definer set search_path = '' as $$
  select coalesce(jsonb_agg(x.item order by x.created_at desc, x.id), '[]') from (
    select s.id, s.created_at, jsonb_build_object('created_at', s.created_at, 'updated_at', s.updated_at,
             'refreshed_at', s.refreshed_at, 'not_after', s.not_after, 'ip', host(s.ip), 'user_agent', s.user_agent,
             'aal', s.aal) as item
      from auth.sessions s where s.user_id = subject.user_id
     order by s.created_at desc, s.id limit max_items offset skip) x
$$;

create or replace function app_private.erase_sessions(subject app_private.data_subject) returns bigint
language sql stable security definer set search_path = '' as $$
  -- deleted with the account (cascade): counted here so the report says so
  select count(*) from auth.sessions s where s.user_id = subject.user_id
$$;

/** roles ********************************************************************************************************/
create or replace function app_private.export_roles(subject app_private.data_subject, max_items integer, skip integer)
returns jsonb
language sql stable security definer set search_path = '' as $$
  select coalesce(jsonb_agg(r.role order by r.role), '[]') from (
    select r.role from public.user_roles r where r.user_id = subject.user_id order by r.role limit max_items offset skip) r
$$;

create or replace function app_private.erase_roles(subject app_private.data_subject) returns bigint
language sql security definer set search_path = '' as $$
  with done as (
    delete from public.user_roles r where r.user_id = subject.user_id
    returning 1)
  select count(*) from done
$$;

/** cv_documents *************************************************************************************************/
create or replace function app_private.export_cv_documents(subject app_private.data_subject, max_items integer, skip integer)
returns jsonb
language sql stable security definer set search_path = '' as $$
  select coalesce(jsonb_agg(jsonb_build_object('id', c.id, 'title', c.title, 'data', c.data, 'created_at', c.created_at,
                                               'updated_at', c.updated_at) order by c.created_at, c.id), '[]')
  from (select * from public.cv_documents d where d.user_id = subject.user_id
         order by d.created_at, d.id limit max_items offset skip) c
$$;

create or replace function app_private.erase_cv_documents(subject app_private.data_subject) returns bigint
language sql security definer set search_path = '' as $$
  with done as (
    delete from public.cv_documents d where d.user_id = subject.user_id
    returning 1)
  select count(*) from done
$$;

/** saved_jobs ***************************************************************************************************/
create or replace function app_private.export_saved_jobs(subject app_private.data_subject, max_items integer, skip integer)
returns jsonb
language sql stable security definer set search_path = '' as $$
  select coalesce(jsonb_agg(jsonb_build_object('job_id', s.job_id, 'saved_at', s.created_at, 'title', j.title,
                              'company', j.company, 'location', j.location, 'salary', j.salary, 'type', j.type,
                              'status', j.status) order by s.created_at desc, s.job_id), '[]')
  from (select * from public.saved_jobs x where x.user_id = subject.user_id
         order by x.created_at desc, x.job_id limit max_items offset skip) s
  cross join lateral app_private.job_as_shown(s.job_id) j
$$;

create or replace function app_private.erase_saved_jobs(subject app_private.data_subject) returns bigint
language sql security definer set search_path = '' as $$
  with done as (
    delete from public.saved_jobs s where s.user_id = subject.user_id
    returning 1)
  select count(*) from done
$$;

/** applications (signed in, or sent with the proven address) ****************************************************/
create or replace function app_private.export_applications(subject app_private.data_subject, max_items integer, skip integer)
returns jsonb
language sql stable security definer set search_path = '' as $$
  select coalesce(jsonb_agg(jsonb_build_object('id', a.id, 'created_at', a.created_at, 'job_id', a.job_id,
                              'job_title', j.title, 'job_reference', j.reference, 'job_status', j.status,
                              'signed_in', a.user_id is not null, 'first_name', a.first_name, 'last_name', a.last_name,
                              'email', a.email, 'phone', a.phone, 'cover_letter', a.cover_letter, 'cv_file', a.cv_object)
                            order by a.created_at desc, a.id), '[]')
  from (select * from public.applications x
         where x.user_id = subject.user_id or lower(x.email) = subject.email
         order by x.created_at desc, x.id limit max_items offset skip) a
  cross join lateral app_private.job_as_shown(a.job_id) j
$$;

-- The CV file goes with each application (app_private.remove_application_cv, 0201).
create or replace function app_private.erase_applications(subject app_private.data_subject) returns bigint
language sql security definer set search_path = '' as $$
  with done as (
    delete from public.applications a where a.user_id = subject.user_id or lower(a.email) = subject.email
    returning 1)
  select count(*) from done
$$;

/** enquiries ****************************************************************************************************/
create or replace function app_private.export_enquiries(subject app_private.data_subject, max_items integer, skip integer)
returns jsonb
language sql stable security definer set search_path = '' as $$
  select coalesce(jsonb_agg(jsonb_build_object('id', e.id, 'created_at', e.created_at, 'kind', e.kind, 'name', e.name,
                              'email', e.email, 'phone', e.phone, 'company', e.company, 'message', e.message,
                              'source_page', e.source_page) order by e.created_at desc, e.id), '[]')
  from (select * from public.enquiries x where lower(x.email) = subject.email
         order by x.created_at desc, x.id limit max_items offset skip) e
$$;

create or replace function app_private.erase_enquiries(subject app_private.data_subject) returns bigint
language sql security definer set search_path = '' as $$
  with done as (
    delete from public.enquiries e where lower(e.email) = subject.email
    returning 1)
  select count(*) from done
$$;

/** profiles: the firm's candidate profile of the person *********************************************************/
create or replace function app_private.export_profiles(subject app_private.data_subject, max_items integer, skip integer)
returns jsonb
language sql stable security definer set search_path = '' as $$
  select coalesce(jsonb_agg(jsonb_build_object('candidate_id', p.candidate_id, 'name', p.name, 'email', p.email,
                              'location', p.location, 'job_title', p.job_title, 'reference', p.candidate_reference,
                              'details', p.details, 'status', p.status, 'created_at', p.created_at,
                              'updated_at', p.updated_at) order by p.created_at, p.id), '[]')
  from (select * from public.candidate_profiles x where lower(x.email) = subject.email
         order by x.created_at, x.id limit max_items offset skip) p
$$;

create or replace function app_private.erase_profiles(subject app_private.data_subject) returns bigint
language sql security definer set search_path = '' as $$
  with done as (
    delete from public.candidate_profiles p where lower(p.email) = subject.email
    returning 1)
  select count(*) from done
$$;

/** profile_views made by the account ****************************************************************************/
create or replace function app_private.export_profile_views(subject app_private.data_subject, max_items integer, skip integer)
returns jsonb
language sql stable security definer set search_path = '' as $$
  select coalesce(jsonb_agg(jsonb_build_object('viewed_at', v.viewed_at, 'profile', p.candidate_id,
                              'user_agent', v.user_agent, 'referrer', v.referrer) order by v.viewed_at desc, v.id), '[]')
  from (select * from public.profile_views x where x.user_id = subject.user_id
         order by x.viewed_at desc, x.id limit max_items offset skip) v
  left join public.candidate_profiles p on p.id = v.profile_id
$$;

-- The firm's view counts stay; what tied a view to the person (account, browser, where they came from) goes.
create or replace function app_private.erase_profile_views(subject app_private.data_subject) returns bigint
language sql security definer set search_path = '' as $$
  with done as (
    update public.profile_views v set user_id = null, user_agent = null, referrer = null
     where v.user_id = subject.user_id
    returning 1)
  select count(*) from done
$$;

/** files: Storage objects the account uploaded *******************************************************************/
create or replace function app_private.export_files(subject app_private.data_subject, max_items integer, skip integer)
returns jsonb
language sql stable security definer set search_path = '' as $$
  select coalesce(jsonb_agg(jsonb_build_object('bucket', o.bucket_id, 'name', o.name,
                              'size', o.metadata -> 'size', 'content_type', o.metadata ->> 'mimetype',
                              'created_at', o.created_at, 'updated_at', o.updated_at) order by o.created_at, o.id), '[]')
  from (select * from storage.objects x where x.owner = subject.user_id or x.owner_id = subject.user_id::text
         order by x.created_at, x.id limit max_items offset skip) o
$$;

-- The storage sweep removes the contents of deleted objects (gateway.storage_sweep).
create or replace function app_private.erase_files(subject app_private.data_subject) returns bigint
language sql security definer set search_path = '' as $$
  with done as (
    delete from storage.objects o where o.owner = subject.user_id or o.owner_id = subject.user_id::text
    returning 1)
  select count(*) from done
$$;

/** mail queued or kept for the address ***************************************************************************/
-- A message's text with every link cut to scheme, host and path: query strings and fragments carry one-time tokens.
create or replace function app_private.without_link_tokens(body text) returns text
language sql immutable set search_path = '' as $$
  select regexp_replace(body, '([A-Za-z][A-Za-z0-9+.-]*://[^\s?#]*)[?#][^\s]*', '\1', 'g')
$$;

create or replace function app_private.export_mail(subject app_private.data_subject, max_items integer, skip integer)
returns jsonb
language sql stable security definer set search_path = '' as $$
  select coalesce(jsonb_agg(jsonb_build_object('created_at', m.created_at, 'to', m.to_address, 'subject', m.subject,
                              'status', m.status, 'sent_at', m.sent_at,
                              'body', app_private.without_link_tokens(m.body_text)) order by m.created_at desc, m.id), '[]')
  from (select * from gateway.outbox x where lower(x.to_address) = subject.email
         order by x.created_at desc, x.id limit max_items offset skip) m
$$;

create or replace function app_private.erase_mail(subject app_private.data_subject) returns bigint
language sql security definer set search_path = '' as $$
  with done as (
    delete from gateway.outbox m where lower(m.to_address) = subject.email
    returning 1)
  select count(*) from done
$$;

/** retention_notices ********************************************************************************************/
create or replace function app_private.export_retention_notices(subject app_private.data_subject, max_items integer, skip integer)
returns jsonb
language sql stable security definer set search_path = '' as $$
  select coalesce(jsonb_agg(jsonb_build_object('notified_at', n.notified_at, 'delete_after', n.delete_after,
                              'answer', n.answer, 'answered_at', n.answered_at)), '[]')
  from (select * from app_private.retention_notices x where x.email = subject.email limit max_items offset skip) n
$$;

create or replace function app_private.erase_retention_notices(subject app_private.data_subject) returns bigint
language sql security definer set search_path = '' as $$
  with done as (
    delete from app_private.retention_notices r where r.email = subject.email
    returning 1)
  select count(*) from done
$$;

/** The registry rows *********************************************************************************************/
do $$
declare
  part record;
begin
  for part in select * from (values
      -- name, description, covers, export position, erase order (the account last)
      ('account', 'Your account: e-mail, name and details you gave, dates, sign-in identities',
       array['auth.users', 'auth.identities', 'auth.flow_state'], 10, 1000),
      ('sessions', 'Your sign-in sessions: when, the IP address and the browser', array['auth.sessions'], 20, 990),
      ('roles', 'Roles your account holds on the site', array['public.user_roles'], 25, 980),
      ('cv_documents', 'Your CV drafts', array['public.cv_documents'], 30, 100),
      ('saved_jobs', 'Jobs you saved', array['public.saved_jobs'], 40, 100),
      ('applications', 'Job applications you made signed in, or sent with your address', array['public.applications'], 50, 10),
      ('enquiries', 'Enquiries sent with your address', array['public.enquiries'], 60, 20),
      ('profiles', 'Candidate profiles the firm holds with your address', array['public.candidate_profiles'], 70, 30),
      ('profile_views', 'Candidate profiles you viewed while signed in', array['public.profile_views'], 80, 40),
      ('files', 'Files you uploaded (CVs included)', array['storage.objects'], 90, 50),
      ('mail', 'E-mail we queued or sent to your address (links without their tokens)', array['gateway.outbox'], 100, 60),
      ('retention_notices', 'Our e-mails asking whether to keep your details, and your answers',
       array['app_private.retention_notices'], 110, 70)
    ) v (name, description, covers, export_position, erase_order) loop
    perform app_private.register_personal_data_part(part.name, part.description,
      format('app_private.export_%s(app_private.data_subject, integer, integer)', part.name)::regprocedure,
      format('app_private.erase_%s(app_private.data_subject)', part.name)::regprocedure,
      part.covers, part.export_position, part.erase_order);
  end loop;
end
$$;

do $$
declare
  fn regprocedure;
begin
  for fn in select p.oid::regprocedure from pg_catalog.pg_proc p join pg_catalog.pg_namespace n on n.oid = p.pronamespace
             where n.nspname = 'app_private' and (p.proname ~ '^(export|erase)_' or p.proname = 'without_link_tokens') loop
    execute format('revoke all on function %s from public', fn);
  end loop;
end
$$;
