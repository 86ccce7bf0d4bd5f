-- Limits keyed on the real client, that fail closed, on every path that creates rows or stored bytes (S3/S4), and
-- forms that cannot relay an attacker's words by mail (S5).
--  * app_private.client_ip() reads only X-Forwarded-For, which the gateway rewrites on every request to the one
--    address it resolved (the socket peer, or what a configured trusted proxy says); what a client sends is dropped.
--  * app_private.check_rate() never lets a request through for want of a key: no address is one shared bucket.
--    A refusal is HTTP 429 with Retry-After (RAISE SQLSTATE 'PGRST', PostgREST's custom error; code PT429).
--  * Applications and enquiries: per client and overall per hour; never per e-mail address (five applications with
--    someone's address must not lock that person out). Names must be names. One uploaded CV backs one application.
--  * Uploads by visitors (anon, or a signed-in non-admin, directly or through a signed upload URL): per client, and
--    overall in count and bytes per hour.
--  * The applicant's acknowledgement carries no text from the form (no name, no cover letter): it goes to an address
--    nobody has proven they own. Links in the firm's notice use the site URL the gateway is configured with.
-- Every limit is a row of app_private.settings ('limit:<name>', a number) when a deployment wants another value.
set local client_min_messages = warning;

/** Limits ********************************************************************************************************/
alter table app_private.submission_log add column if not exists amount bigint not null default 1;
comment on column app_private.submission_log.amount is 'What the submission counts for: 1, or its size in bytes for byte limits.';

-- A limit from app_private.settings ('limit:<name>'), else the default.
create or replace function app_private.limit_value(name text, fallback bigint) returns bigint
language sql stable security definer set search_path = '' as $$
  select coalesce((select nullif(btrim(value), '')::bigint from app_private.settings
                    where key = 'limit:' || name and btrim(value) ~ '^[0-9]+$'), fallback)
$$;
revoke all on function app_private.limit_value(text, bigint) from public;

-- The client address the gateway vouches for: it replaces X-Forwarded-For with the single address it resolved
-- (right-most entry kept in case another front end appends). Null outside a request.
create or replace function app_private.client_ip() returns text
language sql stable set search_path = '' as $$
  select nullif(btrim(substring(h from '([^,]*)$')), '')
  from (select nullif(current_setting('request.headers', true), '')::json->>'x-forwarded-for' as h) s
$$;
comment on function app_private.client_ip() is
  'The client address resolved by the gateway (X-Forwarded-For as the gateway rewrites it; never a client''s own value).';

-- Counts `amount` against `max_amount` per hour for (kind, client_key), or refuses with 429 + Retry-After. No key
-- is one shared bucket ('unknown'): a limit never fails open.
create or replace function app_private.take(kind text, client_key text, max_amount bigint, amount bigint default 1)
returns void
language plpgsql security definer set search_path = '' as $$
declare
  key text := coalesce(nullif(btrim(client_key), ''), 'unknown');
  used bigint;
  oldest timestamptz;
  wait integer;
begin
  -- one request at a time per bucket, so concurrent requests cannot all pass the count
  perform pg_advisory_xact_lock(7261003, hashtext(kind || '/' || key));
  select coalesce(sum(l.amount), 0), min(l.created_at) into used, oldest from app_private.submission_log l
   where l.kind = take.kind and l.client_key = key and l.created_at > now() - interval '1 hour';
  if used + greatest(amount, 0) > max_amount then
    wait := greatest(1, ceil(extract(epoch from (coalesce(oldest, now()) + interval '1 hour' - now())))::integer);
    raise sqlstate 'PGRST' using
      message = json_build_object('code', 'PT429', 'message', 'Too many submissions, please try again later',
                                  'details', null, 'hint', null)::text,
      detail = json_build_object('status', 429, 'headers', json_build_object('Retry-After', wait::text))::text;
  end if;
  insert into app_private.submission_log (kind, client_key, amount) values (take.kind, key, greatest(amount, 0));
end
$$;
revoke all on function app_private.take(text, text, bigint, bigint) from public;

create or replace function app_private.check_rate(kind text, client_key text, max_count integer) returns void
language sql security definer set search_path = '' as $$
  select app_private.take(kind, client_key, max_count, 1)
$$;
revoke all on function app_private.check_rate(text, text, integer) from public;
comment on function app_private.check_rate(text, text, integer) is
  'Counts one submission for (kind, client_key) and refuses past max_count in an hour with HTTP 429 + Retry-After; a null key is one shared bucket.';

-- Old submissions only matter for an hour.
create or replace function app_private.prune_submission_log() returns trigger
language plpgsql security definer set search_path = '' as $$
begin
  if random() < 0.01 then
    delete from app_private.submission_log where created_at < now() - interval '1 day';
  end if;
  return null;
end
$$;
drop trigger if exists prune_submission_log on app_private.submission_log;
create trigger prune_submission_log after insert on app_private.submission_log
  for each statement execute function app_private.prune_submission_log();

/** Names *********************************************************************************************************/
-- A person's name: words of letters (any script) joined by spaces, hyphens or apostrophes, an initial's full stop
-- before a space or at the end — nothing a mail client turns into a link (`evil.example`, `https://…`, digits).
create or replace function app_private.is_person_name(value text) returns boolean
language sql immutable set search_path = '' as $$
  select value is not null and char_length(value) between 1 and 100
     and value ~ replace('^L+((\.? +|\.?-|[''’])L+)*\.?$', 'L',
                         -- a letter, whatever the database's locale: no ASCII but A-Z a-z, no look-alikes of
                         -- / : @ . and no full-width digits
                         '[^\x01-\x40\x5B-\x60\x7B-\xA0\u2044\u2215\uFF0E\uFF0F\uFF10-\uFF1A\uFF20]')
$$;
comment on function app_private.is_person_name(text) is
  'Whether text is a plausible personal name (letters of any script, spaces, hyphens, apostrophes, initials); no digits, slashes, @ or domain-like dots.';
grant usage on schema app_private to anon, authenticated;
grant execute on function app_private.is_person_name(text) to anon, authenticated, service_role;

alter table public.applications drop constraint if exists applications_first_name_is_a_name;
alter table public.applications add constraint applications_first_name_is_a_name
  check (app_private.is_person_name(first_name)) not valid;
alter table public.applications drop constraint if exists applications_last_name_is_a_name;
alter table public.applications add constraint applications_last_name_is_a_name
  check (app_private.is_person_name(last_name)) not valid;
alter table public.enquiries drop constraint if exists enquiries_name_is_a_name;
alter table public.enquiries add constraint enquiries_name_is_a_name
  check (app_private.is_person_name(name)) not valid;

/** Applications **************************************************************************************************/
-- One uploaded CV backs one application.
create unique index if not exists applications_cv_object_key on public.applications (cv_object);

-- A public form's limits, for visitors only (anon, signed-in users; the firm's service_role and the database owner
-- are not limited): `<form>_per_client_per_hour` (default 10) and `<form>_per_hour` overall (default 200).
create or replace function app_private.limit_form(form text) returns void
language plpgsql security definer set search_path = '' as $$
begin
  if current_setting('role', true) in ('anon', 'authenticated') then
    perform app_private.take(form || ':client', app_private.client_ip(),
                             app_private.limit_value(form || '_per_client_per_hour', 10));
    perform app_private.take(form || ':all', 'all', app_private.limit_value(form || '_per_hour', 200));
  end if;
end
$$;
revoke all on function app_private.limit_form(text) from public;

create or replace function app_private.before_application() returns trigger
language plpgsql security definer set search_path = '' as $$
begin
  perform app_private.limit_form('application');
  return new;
end
$$;

-- The firm's notice (its own inbox: the details and the cover letter) and the applicant's acknowledgement (an
-- unproven address: only the firm's words and the job's title). Links use the configured site URL.
create or replace function app_private.after_application() returns trigger
language plpgsql security definer set search_path = '' as $$
declare
  job_title text;
  job_ref text;
  applicant text := app_private.one_line(new.first_name || ' ' || new.last_name);
  firm text := coalesce(app_private.setting('firm_name'), 'The recruitment team');
begin
  select j.title, j.job_id into job_title, job_ref from public.jobs j where j.id = new.job_id;
  -- the firm's own inbox is an address it vouches for: never capped by the outbox (gateway.outbox_caps)
  insert into gateway.outbox_proven_recipients (address)
  select lower(app_private.setting('firm_inbox')) where app_private.setting('firm_inbox') is not null
  on conflict (address) do nothing;
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
      app_private.one_line('Your application' || coalesce(' for ' || job_title, '') || ' – ' || firm),
      concat_ws(E'\n',
        'Hello,',
        '',
        'Thank you for applying' || coalesce(' for the role of ' || job_title, '') || '. We have received your application and CV.',
        'We will review your application and you will be contacted within 2 weeks.',
        '',
        'If you did not apply, you can ignore this message: nothing else will be sent.',
        '',
        'Kind regards,',
        firm));
  end if;
  return null;
end
$$;

-- The site URL for links in mail: an app_private.settings value when one is set, else (empty) the URL the gateway
-- is configured with (gateway.public_urls, written at start from GOTRUE_SITE_URL / API_EXTERNAL_URL).
create or replace function app_private.setting(name text) returns text
language sql stable security definer set search_path = '' as $$
  select coalesce(
    (select nullif(value, '') from app_private.settings where key = name),
    case when name = 'site_url' and to_regprocedure('gateway.public_url(text)') is not null
         then gateway.public_url('site') end)
$$;
revoke all on function app_private.setting(text) from public;
-- The hard-coded development address is no longer a default: empty follows the configured URL.
update app_private.settings set value = '' where key = 'site_url' and value = 'http://127.0.0.1:54321';
comment on table app_private.settings is
  'Site settings read by triggers: firm_inbox (where application notices go), firm_name, site_url (links in mail; default: the gateway''s configured site URL), limit:<name> (rate limits).';

/** Enquiries *****************************************************************************************************/
create or replace function app_private.before_enquiry() returns trigger
language plpgsql security definer set search_path = '' as $$
begin
  perform app_private.limit_form('enquiry');
  return new;
end
$$;
drop trigger if exists before_enquiry on public.enquiries;
create trigger before_enquiry before insert on public.enquiries
  for each row execute function app_private.before_enquiry();

/** Uploads by visitors *******************************************************************************************/
-- Every insert into storage.objects by a visitor: anon, or a signed-in user who is not an admin (signed upload URLs
-- run as the role that minted them). `role` is the request's role; current_user is this function's owner.
create or replace function app_private.limit_cv_uploads() returns trigger
language plpgsql security definer set search_path = '' as $$
declare
  size bigint := coalesce(nullif(new.metadata->>'size', '')::bigint, 0);
begin
  if current_setting('role', true) = 'anon'
     or (current_setting('role', true) = 'authenticated' and not public.is_admin()) then
    perform app_private.take('upload:client', app_private.client_ip(), app_private.limit_value('upload_per_client_per_hour', 20));
    perform app_private.take('upload:all', 'all', app_private.limit_value('upload_per_hour', 200));
    perform app_private.take('upload:bytes', 'all', app_private.limit_value('upload_bytes_per_hour', 524288000), size);
  end if;
  return new;
end
$$;

/** Demo accounts *************************************************************************************************/
-- A database loaded with the demo content before demo accounts were registered (sql/seed/01_demo_users.sql does it
-- now): production mode refuses to start while they exist.
do $$
begin
  if to_regclass('gateway.demo_accounts') is not null then
    insert into gateway.demo_accounts (user_id, email)
    select u.id, u.email from auth.users u
     where u.id in ('5eed0000-0000-4000-8000-000000000001', '5eed0000-0000-4000-8000-000000000002')
    on conflict (user_id) do nothing;
  end if;
end
$$;
