-- Applications: the private `cvs` bucket and its policies, notification mail on each application, and
-- per-client rate limits. Written against the site data contract (public.applications, public.jobs,
-- public.is_admin()); the triggers are installed by app_private.install_application_triggers(), which this file
-- calls and which does nothing while public.applications does not exist yet.
set local client_min_messages = warning; -- no 'does not exist, skipping' notices from the idempotent drops

/** Settings ******************************************************************************************************/
create schema if not exists app_private;
revoke all on schema app_private from public;
comment on schema app_private is 'Site internals: settings, rate-limit log and trigger functions. Never exposed through the API.';

create table if not exists app_private.settings (
  key text primary key,
  value text not null
);
comment on table app_private.settings is 'Site settings read by triggers: firm_inbox (where application notices go), firm_name, site_url (links in mail).';
insert into app_private.settings (key, value) values
  ('firm_inbox', 'applications@example.com'),
  ('firm_name', 'The recruitment team'),
  ('site_url', 'http://127.0.0.1:54321')
on conflict (key) do nothing;

create or replace function app_private.setting(name text) returns text
language sql stable security definer set search_path = '' as $$
  select value from app_private.settings where key = name
$$;
revoke all on function app_private.setting(text) from public;

/** The cvs bucket ************************************************************************************************/
-- Private, 10 MB, PDF / DOC / DOCX only (the gateway also checks the bytes are what the type claims).
insert into storage.buckets (id, name, public, file_size_limit, allowed_mime_types)
values ('cvs', 'cvs', false, 10485760, array[
  'application/pdf',
  'application/msword',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document'])
on conflict (id) do update set public = false, file_size_limit = excluded.file_size_limit,
  allowed_mime_types = excluded.allowed_mime_types;

-- Used by the upload policy: has this random folder been used already? (anon cannot read objects itself).
create or replace function app_private.cv_folder_used(folder text) returns boolean
language sql stable security definer set search_path = '' as $$
  select exists (select 1 from storage.objects o where o.bucket_id = 'cvs' and (storage.foldername(o.name))[1] = folder)
$$;
revoke all on function app_private.cv_folder_used(text) from public;
grant usage on schema app_private to anon, authenticated;
grant execute on function app_private.cv_folder_used(text) to anon, authenticated;

-- The admin check is the site schema's public.is_admin(); until it exists nobody is an admin.
do $$
begin
  if to_regprocedure('public.is_admin()') is null then
    create function public.is_admin() returns boolean language sql stable set search_path = '' as 'select false';
    comment on function public.is_admin() is 'Placeholder until the site schema defines the admin check.';
  end if;
end
$$;

drop policy if exists "Anyone can upload a CV into a fresh random folder" on storage.objects;
create policy "Anyone can upload a CV into a fresh random folder" on storage.objects
  for insert to anon, authenticated
  with check (
    bucket_id = 'cvs'
    and array_length(storage.foldername(name), 1) = 1
    and (storage.foldername(name))[1] ~ '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$'
    and length(storage.filename(name)) between 1 and 200
    and not app_private.cv_folder_used((storage.foldername(name))[1])
  );

drop policy if exists "Admins can read CVs" on storage.objects;
create policy "Admins can read CVs" on storage.objects
  for select to authenticated
  using (bucket_id = 'cvs' and (select public.is_admin()));

drop policy if exists "Admins can delete CVs" on storage.objects;
create policy "Admins can delete CVs" on storage.objects
  for delete to authenticated
  using (bucket_id = 'cvs' and (select public.is_admin()));

/** Rate limits ***************************************************************************************************/
create table if not exists app_private.submission_log (
  id bigint generated always as identity primary key,
  kind text not null,
  client_key text not null,
  created_at timestamptz not null default now()
);
create index if not exists submission_log_recent on app_private.submission_log (kind, client_key, created_at);
comment on table app_private.submission_log is 'One row per submission and client key (e-mail, forwarded IP), for rate limits.';

-- The client's address as the proxy in front of the gateway reports it (right-most X-Forwarded-For entry).
create or replace function app_private.client_ip() returns text
language sql stable set search_path = '' as $$
  select nullif(trim(coalesce(
    (regexp_split_to_array(nullif(current_setting('request.headers', true), '')::json->>'x-forwarded-for', '\s*,\s*'))[
      array_length(regexp_split_to_array(nullif(current_setting('request.headers', true), '')::json->>'x-forwarded-for', '\s*,\s*'), 1)],
    nullif(current_setting('request.headers', true), '')::json->>'x-real-ip')), '')
$$;

-- Records a submission and refuses it (HTTP 429 through PostgREST's PT429) past `max_count` in an hour.
create or replace function app_private.check_rate(kind text, client_key text, max_count integer) returns void
language plpgsql security definer set search_path = '' as $$
declare
  recent integer;
begin
  if client_key is null or client_key = '' then
    return;
  end if;
  select count(*) into recent from app_private.submission_log l
   where l.kind = check_rate.kind and l.client_key = check_rate.client_key and l.created_at > now() - interval '1 hour';
  if recent >= max_count then
    raise exception 'Too many submissions, please try again later' using errcode = 'PT429';
  end if;
  insert into app_private.submission_log (kind, client_key) values (check_rate.kind, check_rate.client_key);
end
$$;
revoke all on function app_private.check_rate(text, text, integer) from public;

create or replace function app_private.limit_cv_uploads() returns trigger
language plpgsql security definer set search_path = '' as $$
begin
  -- current_user is this function's owner; the request's role is the `role` setting.
  if new.bucket_id = 'cvs' and current_setting('role', true) in ('anon', 'authenticated') then
    perform app_private.check_rate('cv_upload:ip', app_private.client_ip(), 20);
  end if;
  return new;
end
$$;
drop trigger if exists limit_cv_uploads on storage.objects;
create trigger limit_cv_uploads before insert on storage.objects
  for each row execute function app_private.limit_cv_uploads();

/** Application notices *******************************************************************************************/
create or replace function app_private.one_line(value text) returns text
language sql immutable set search_path = '' as $$
  select left(regexp_replace(coalesce(value, ''), '[[:cntrl:]]+', ' ', 'g'), 200)
$$;

create or replace function app_private.before_application() returns trigger
language plpgsql security definer set search_path = '' as $$
begin
  perform app_private.check_rate('application:email', lower(new.email), 5);
  perform app_private.check_rate('application:ip', app_private.client_ip(), 20);
  if new.cv_object is not null
     and not exists (select 1 from storage.objects o where o.bucket_id = 'cvs' and o.name = new.cv_object) then
    raise exception 'The CV was not found; upload it first' using errcode = '23503';
  end if;
  return new;
end
$$;

create or replace function app_private.after_application() returns trigger
language plpgsql security definer set search_path = '' as $$
declare
  job_title text;
  job_ref text;
  applicant text := app_private.one_line(new.first_name || ' ' || new.last_name);
  firm text := coalesce(app_private.setting('firm_name'), 'The recruitment team');
begin
  select j.title, j.job_id into job_title, job_ref from public.jobs j where j.id = new.job_id;
  perform gateway.enqueue_mail(
    app_private.setting('firm_inbox'),
    app_private.one_line('New application: ' || applicant || coalesce(' for ' || job_title, '')),
    concat_ws(E'\n',
      'A new application has been received.',
      '',
      'Job: ' || coalesce(job_title, '(none)') || coalesce(' (' || job_ref || ')', ''),
      'Name: ' || applicant,
      'E-mail: ' || app_private.one_line(new.email),
      'Phone: ' || app_private.one_line(new.phone),
      'CV: ' || coalesce(new.cv_object, '(none)'),
      'Received: ' || to_char(new.created_at at time zone 'Europe/London', 'YYYY-MM-DD HH24:MI'),
      '',
      'Cover letter:',
      coalesce(nullif(new.cover_letter, ''), '(none)'),
      '',
      'Review it in the admin area: ' || coalesce(app_private.setting('site_url'), '') || '/admin'));
  if new.email ~ '^[^@\s<>,;]+@[^@\s<>,;]+$' and length(new.email) <= 320 then
    perform gateway.enqueue_mail(
      new.email,
      app_private.one_line('Thank you for your application' || coalesce(' for ' || job_title, '')),
      concat_ws(E'\n',
        'Dear ' || app_private.one_line(new.first_name) || ',',
        '',
        'Thank you for applying' || coalesce(' for the role of ' || job_title, '') || '. We have received your application and CV.',
        'We will review your application and you will be contacted within 2 weeks.',
        '',
        'Kind regards,',
        firm));
  end if;
  return null;
end
$$;

-- Installs the triggers on public.applications once the site schema has created it (idempotent).
create or replace function app_private.install_application_triggers() returns boolean
language plpgsql set search_path = '' as $$
begin
  if to_regclass('public.applications') is null then
    return false;
  end if;
  execute 'drop trigger if exists before_application on public.applications';
  execute 'create trigger before_application before insert on public.applications
             for each row execute function app_private.before_application()';
  execute 'drop trigger if exists after_application on public.applications';
  execute 'create trigger after_application after insert on public.applications
             for each row execute function app_private.after_application()';
  return true;
end
$$;
revoke all on function app_private.install_application_triggers() from public;

select app_private.install_application_triggers();
