-- Retention: personal data is kept only as long as the privacy notice (/privacy, "How long we keep your data"; spec
-- §9) says. One rule per person, keyed by e-mail address: everything we hold about them (applications and their CV
-- files, enquiries, a Career Hub account, a shared candidate profile) is kept for one year from our last contact;
-- then one e-mail asks whether they want to stay on our database; a "keep" answer is a new contact (the clock
-- restarts), a "delete" answer erases everything at once, and without an answer everything is erased one year after
-- the e-mail (the date the e-mail states). Erasing deletes the storage.objects rows of their files (the gateway's
-- storage sweep removes the file contents of deleted rows).
--
-- app_private.run_retention(now) does one pass; pg_cron runs it every night where it is loaded for this database
-- (app_private.schedule_retention(); README "Retention"). Admins see what is due with public.retention_due() and the
-- passes with public.retention_runs(). The e-mail's link leads to /privacy/choice, which answers through
-- public.privacy_choice(token) and public.set_privacy_choice(token, choice).
set local client_min_messages = warning;

/** State ********************************************************************************************************/
create table app_private.retention_notices (
  email text primary key check (email = lower(email)),
  notified_at timestamptz not null,
  delete_after timestamptz not null,
  mail_id bigint,
  token_hash bytea not null unique,
  answer text check (answer in ('keep')),
  answered_at timestamptz,
  check ((answer is null) = (answered_at is null))
);
comment on table app_private.retention_notices is
  'The last retention e-mail per person (lower-cased e-mail): when it was queued (outbox id mail_id), the deletion date it stated, the SHA-256 of its link token, and a "keep" answer. The row goes when the person''s data is erased.';

create table app_private.retention_log (
  id bigint generated always as identity primary key,
  ran_at timestamptz not null default now(),
  kind text not null check (kind in ('scheduled', 'request')),
  as_of timestamptz not null,
  notices integer not null default 0,
  people_erased integer not null default 0,
  deleted jsonb not null default '{}'
);
comment on table app_private.retention_log is
  'One row per retention pass (scheduled) or erasure on request: how many notices were queued and what was deleted. No personal data.';

/** Who we hold data about ****************************************************************************************/
-- Every personal record with its owner's e-mail (lower-cased; null for anonymous accounts) and the time of our last
-- contact it shows. Accounts: sign-up, sign-in, session refresh or CV edit; admins' accounts are staff, not kept
-- under this rule.
create or replace function app_private.personal_records()
returns table (email text, kind text, record_id text, contact_at timestamptz)
language sql stable security definer set search_path = '' as $$
  select lower(a.email), 'application', a.id::text, a.created_at from public.applications a
  union all
  select lower(e.email), 'enquiry', e.id::text, e.created_at from public.enquiries e
  union all
  select lower(p.email), 'profile', p.id::text, p.created_at
  from public.candidate_profiles p where nullif(btrim(p.email), '') is not null
  union all
  select lower(nullif(btrim(u.email), '')), 'account', u.id::text,
         greatest(u.created_at, u.last_sign_in_at, s.refreshed, d.edited)
  from auth.users u
  left join lateral (select max(greatest(s.updated_at, s.refreshed_at at time zone 'UTC')) as refreshed
                     from auth.sessions s where s.user_id = u.id) s on true
  left join lateral (select max(d.updated_at) as edited from public.cv_documents d where d.user_id = u.id) d on true
  where not exists (select 1 from public.user_roles r where r.user_id = u.id and r.role = 'admin')
$$;
revoke all on function app_private.personal_records() from public;

-- One row per person as of `as_of`: what we hold, the last contact (a "keep" answer counts), and where they are:
-- active → notice due (a year after the last contact) → awaiting answer (notice sent since the last contact) →
-- deletion due (on the date the notice stated).
create or replace function app_private.retention_people(as_of timestamptz)
returns table (
  email text, applications integer, enquiries integer, accounts integer, profiles integer,
  last_contact_at timestamptz, notified_at timestamptz, answer text, answered_at timestamptz,
  notice_due_at timestamptz, delete_after timestamptz, status text
)
language sql stable security definer set search_path = '' as $$
  with held as (
    select r.email,
           count(*) filter (where r.kind = 'application')::int as applications,
           count(*) filter (where r.kind = 'enquiry')::int as enquiries,
           count(*) filter (where r.kind = 'account')::int as accounts,
           count(*) filter (where r.kind = 'profile')::int as profiles,
           max(r.contact_at) as last_record_at
    from app_private.personal_records() r where r.email is not null group by r.email
  ), people as (
    select h.*, greatest(h.last_record_at, n.answered_at) as last_contact_at,
           n.notified_at, n.answer, n.answered_at, n.delete_after as stated_delete_after
    from held h left join app_private.retention_notices n on n.email = h.email
  ), cycle as (
    -- Noticed: a notice went out since the last contact and is unanswered ("keep" starts a new cycle).
    select p.*, (p.notified_at is not null and p.answer is null and p.notified_at >= p.last_contact_at) as noticed
    from people p
  )
  select c.email, c.applications, c.enquiries, c.accounts, c.profiles, c.last_contact_at, c.notified_at, c.answer,
         c.answered_at, c.last_contact_at + interval '1 year',
         case when c.noticed then c.stated_delete_after end,
         case
           when c.noticed and as_of >= c.stated_delete_after then 'deletion due'
           when c.noticed then 'awaiting answer'
           when as_of >= c.last_contact_at + interval '1 year' then 'notice due'
           else 'active'
         end
  from cycle c
$$;
revoke all on function app_private.retention_people(timestamptz) from public;

/** Erasure *******************************************************************************************************/
-- Deletes everything held about one person (by e-mail, any case): their applications and the CV objects they point
-- at, enquiries, candidate profiles, Career Hub accounts (with their drafts, saved jobs and sessions by cascade)
-- and the objects those accounts own, mail queued or kept for the address, and the retention notice. Returns the
-- counts deleted per kind.
create or replace function app_private.erase_person(person text)
returns jsonb
language plpgsql security definer set search_path = '' as $$
declare
  who text := lower(person);
  users uuid[];
  n_cvs int; n_applications int; n_enquiries int; n_profiles int; n_objects int; n_accounts int; n_mail int;
begin
  select coalesce(array_agg(u.id), '{}') into users from auth.users u
  where lower(u.email) = who
    and not exists (select 1 from public.user_roles r where r.user_id = u.id and r.role = 'admin');
  delete from storage.objects o using public.applications a
  where lower(a.email) = who and o.bucket_id = 'cvs' and o.name = a.cv_object;
  get diagnostics n_cvs = row_count;
  delete from public.applications a where lower(a.email) = who;
  get diagnostics n_applications = row_count;
  delete from public.enquiries e where lower(e.email) = who;
  get diagnostics n_enquiries = row_count;
  delete from public.candidate_profiles p where lower(p.email) = who;
  get diagnostics n_profiles = row_count;
  delete from storage.objects o where o.owner = any (users) or o.owner_id = any (users::text[]);
  get diagnostics n_objects = row_count;
  delete from auth.users u where u.id = any (users);
  get diagnostics n_accounts = row_count;
  delete from gateway.outbox m where lower(m.to_address) = who;
  get diagnostics n_mail = row_count;
  delete from app_private.retention_notices n where n.email = who;
  return jsonb_build_object('applications', n_applications, 'cv_files', n_cvs, 'enquiries', n_enquiries,
    'profiles', n_profiles, 'accounts', n_accounts, 'account_files', n_objects, 'mail', n_mail);
end
$$;
revoke all on function app_private.erase_person(text) from public;

-- Adds counts (jsonb objects of numbers) key by key.
create or replace function app_private.add_counts(a jsonb, b jsonb) returns jsonb
language sql immutable set search_path = '' as $$
  select coalesce(jsonb_object_agg(k, coalesce((a ->> k)::int, 0) + coalesce((b ->> k)::int, 0)), '{}')
  from (select jsonb_object_keys(a) union select jsonb_object_keys(b)) keys (k)
$$;
revoke all on function app_private.add_counts(jsonb, jsonb) from public;

/** The notice e-mail *********************************************************************************************/
-- "2 job applications (with your CV), an enquiry and a Career Hub account".
create or replace function app_private.describe_holdings(applications int, enquiries int, accounts int, profiles int)
returns text
language sql immutable set search_path = '' as $$
  select regexp_replace(string_agg(part, ', ' order by ord), ', ([^,]*)$', ' and \1')
  from (values
    (1, case applications when 0 then null when 1 then 'a job application (with your CV)'
          else applications || ' job applications (with your CVs)' end),
    (2, case enquiries when 0 then null when 1 then 'an enquiry' else enquiries || ' enquiries' end),
    (3, case when accounts > 0 then 'a Career Hub account with any CV drafts and saved jobs' end),
    (4, case when profiles > 0 then 'a candidate profile we share with employers' end)
  ) v (ord, part)
$$;
revoke all on function app_private.describe_holdings(int, int, int, int) from public;

-- The name to greet a person by: their latest application, enquiry or account.
create or replace function app_private.greeting_name(person text) returns text
language sql stable security definer set search_path = '' as $$
  select app_private.one_line(coalesce(
    (select a.first_name from public.applications a where lower(a.email) = person order by a.created_at desc limit 1),
    (select e.name from public.enquiries e where lower(e.email) = person order by e.created_at desc limit 1),
    (select u.raw_user_meta_data ->> 'full_name' from auth.users u where lower(u.email) = person limit 1)))
$$;
revoke all on function app_private.greeting_name(text) from public;

-- Queues the notice for one person and records it (replacing an earlier cycle's row). Returns the outbox id, or
-- null when the address cannot receive mail (the clock runs all the same).
create or replace function app_private.send_retention_notice(
  person text, applications int, enquiries int, accounts int, profiles int, as_of timestamptz)
returns bigint
language plpgsql security definer set search_path = '' as $$
declare
  token text := encode(extensions.gen_random_bytes(32), 'hex');
  delete_after timestamptz := as_of + interval '1 year';
  site text := coalesce(app_private.setting('site_url'), '');
  firm text := coalesce((select s.site_name from public.site_settings s), app_private.setting('firm_name'), 'We');
  greeting text := app_private.greeting_name(person);
  mail_id bigint;
begin
  if person ~ '^[^@\s<>,;]+@[^@\s<>,;]+$' and length(person) <= 320 then
    mail_id := gateway.enqueue_mail(
      person,
      app_private.one_line('Would you like us to keep your details? (' || firm || ')'),
      concat_ws(E'\n',
        'Hello' || coalesce(' ' || nullif(greeting, ''), '') || ',',
        '',
        firm || ' holds personal details you gave us: '
          || app_private.describe_holdings(applications, enquiries, accounts, profiles) || '.',
        'Our privacy notice promises to keep them for one year from our last contact with you, and then to ask',
        'whether you would like to stay on our database. Please tell us here:',
        '',
        site || '/privacy/choice#token=' || token,
        '',
        '- Keep my details: we keep them so that we can tell you about suitable roles, and ask you again in a year.',
        '- Delete my details: we delete them straight away.',
        '',
        'If we do not hear from you, we will keep your details until '
          || to_char(delete_after at time zone 'Europe/London', 'FMDD FMMonth YYYY') || ' and then delete them.',
        'You can also reply to this e-mail. How we use your data: ' || site || '/privacy',
        '',
        'Kind regards,',
        firm));
  end if;
  insert into app_private.retention_notices (email, notified_at, delete_after, mail_id, token_hash)
  values (person, as_of, delete_after, mail_id, sha256(convert_to(token, 'UTF8')))
  on conflict (email) do update set notified_at = excluded.notified_at, delete_after = excluded.delete_after,
    mail_id = excluded.mail_id, token_hash = excluded.token_hash, answer = null, answered_at = null;
  return mail_id;
end
$$;
revoke all on function app_private.send_retention_notice(text, int, int, int, int, timestamptz) from public;

/** One pass ******************************************************************************************************/
-- Everything due as of `as_of` (now() when scheduled; tests pass a moved clock): queues each notice that is due
-- (once per cycle), erases each person whose stated date has passed, deletes anonymous accounts two years after
-- their last use, and keeps the other promises: views of shared profiles for up to a year, CV files never attached
-- to an application for a day, delivered or failed mail for 30 days, the rate-limit log for a day. Logs and returns
-- the counts. Two passes never overlap (an advisory lock), so a notice is never queued twice.
create or replace function app_private.run_retention(as_of timestamptz default now())
returns jsonb
language plpgsql security definer set search_path = '' as $$
declare
  p record;
  notices int := 0;
  erased int := 0;
  deleted jsonb := '{}';
  n int;
begin
  perform pg_advisory_xact_lock(7261320);
  for p in select * from app_private.retention_people(as_of) r where r.status = 'notice due' order by r.email loop
    perform app_private.send_retention_notice(p.email, p.applications, p.enquiries, p.accounts, p.profiles, as_of);
    notices := notices + 1;
  end loop;
  for p in select * from app_private.retention_people(as_of) r where r.status = 'deletion due' order by r.email loop
    deleted := app_private.add_counts(deleted, app_private.erase_person(p.email));
    erased := erased + 1;
  end loop;
  delete from auth.users u using app_private.personal_records() r
  where r.kind = 'account' and r.email is null and r.record_id = u.id::text and r.contact_at < as_of - interval '2 years';
  get diagnostics n = row_count;
  deleted := app_private.add_counts(deleted, jsonb_build_object('anonymous_accounts', n));
  delete from public.profile_views v where v.viewed_at < as_of - interval '1 year';
  get diagnostics n = row_count;
  deleted := app_private.add_counts(deleted, jsonb_build_object('profile_views', n));
  delete from storage.objects o
  where o.bucket_id = 'cvs' and o.created_at < as_of - interval '1 day'
    and not exists (select 1 from public.applications a where a.cv_object = o.name);
  get diagnostics n = row_count;
  deleted := app_private.add_counts(deleted, jsonb_build_object('unattached_cv_files', n));
  delete from gateway.outbox m
  where m.status in ('sent', 'failed') and coalesce(m.sent_at, m.created_at) < as_of - interval '30 days';
  get diagnostics n = row_count;
  deleted := app_private.add_counts(deleted, jsonb_build_object('old_mail', n));
  delete from app_private.submission_log l where l.created_at < as_of - interval '1 day';
  get diagnostics n = row_count;
  deleted := app_private.add_counts(deleted, jsonb_build_object('rate_limit_log', n));
  insert into app_private.retention_log (kind, as_of, notices, people_erased, deleted)
  values ('scheduled', as_of, notices, erased, deleted);
  return jsonb_build_object('notices', notices, 'people_erased', erased, 'deleted', deleted);
end
$$;
revoke all on function app_private.run_retention(timestamptz) from public;
comment on function app_private.run_retention(timestamptz) is
  'One retention pass as of the given time (default now()): notices due, erasures due, and the shorter purges. Run daily (pg_cron or an external scheduler).';

/** The person's answer (the link in the e-mail) ******************************************************************/
-- The notice a link token belongs to, or nothing. Tokens are 64 hex digits; only their SHA-256 is stored.
create or replace function app_private.notice_for(token text)
returns app_private.retention_notices
language sql stable security definer set search_path = '' as $$
  select n.* from app_private.retention_notices n
  where token ~ '^[0-9a-f]{64}$' and n.token_hash = sha256(convert_to(token, 'UTF8'))
$$;
revoke all on function app_private.notice_for(text) from public;

-- What the answer page shows: {status: 'awaiting' | 'kept' | 'unknown', delete_after, next_review_at, holds}.
-- 'unknown' covers a wrong token and one whose data is already erased (the row is gone); nothing personal is
-- returned beyond a description of what is held, to the holder of the link that was e-mailed to the person.
create or replace function app_private.privacy_choice(token text)
returns jsonb
language plpgsql stable security definer set search_path = '' as $$
declare
  n app_private.retention_notices := app_private.notice_for(token);
  p record;
begin
  if n.email is null then
    return jsonb_build_object('status', 'unknown');
  end if;
  select * into p from app_private.retention_people(now()) r where r.email = n.email;
  return jsonb_build_object(
    'status', case when n.answer = 'keep' then 'kept' else 'awaiting' end,
    'delete_after', n.delete_after,
    'next_review_at', case when n.answer = 'keep' then p.notice_due_at end,
    'holds', app_private.describe_holdings(coalesce(p.applications, 0), coalesce(p.enquiries, 0),
                                           coalesce(p.accounts, 0), coalesce(p.profiles, 0)));
end
$$;
revoke all on function app_private.privacy_choice(text) from public;

-- Records the answer: 'keep' (a new contact: the next notice comes a year from now; can later be changed to
-- 'delete') or 'delete' (everything is erased at once, and logged without personal data).
create or replace function app_private.set_privacy_choice(token text, choice text)
returns jsonb
language plpgsql volatile security definer set search_path = '' as $$
declare
  n app_private.retention_notices := app_private.notice_for(token);
  counts jsonb;
begin
  if choice is null or choice not in ('keep', 'delete') then
    raise exception 'choice must be keep or delete' using errcode = '22023';
  end if;
  if n.email is null then
    return jsonb_build_object('status', 'unknown');
  end if;
  if choice = 'keep' then
    update app_private.retention_notices r set answer = 'keep', answered_at = now() where r.email = n.email;
    return app_private.privacy_choice(token);
  end if;
  counts := app_private.erase_person(n.email);
  insert into app_private.retention_log (kind, as_of, people_erased, deleted) values ('request', now(), 1, counts);
  return jsonb_build_object('status', 'deleted');
end
$$;
revoke all on function app_private.set_privacy_choice(text, text) from public;

-- The API: SECURITY INVOKER wrappers (nothing in the exposed schema runs with the owner's rights for anon); the
-- link's token is what authorises, and it reaches only the app_private functions above.
grant usage on schema app_private to anon, authenticated;
grant execute on function app_private.privacy_choice(text), app_private.set_privacy_choice(text, text)
  to anon, authenticated;

create or replace function public.privacy_choice(token text)
returns jsonb
language sql stable set search_path = '' as $$
  select app_private.privacy_choice(token)
$$;
comment on function public.privacy_choice(text) is
  'The retention notice a link token (from the e-mail) belongs to: {status awaiting|kept|unknown, delete_after, next_review_at, holds}.';
revoke all on function public.privacy_choice(text) from public;
grant execute on function public.privacy_choice(text) to anon, authenticated;

create or replace function public.set_privacy_choice(token text, choice text)
returns jsonb
language sql volatile set search_path = '' as $$
  select app_private.set_privacy_choice(token, choice)
$$;
comment on function public.set_privacy_choice(text, text) is
  'Answers a retention notice: choice keep (stay on the database; asked again in a year) or delete (erased now). Returns {status kept|deleted|unknown, ...}.';
revoke all on function public.set_privacy_choice(text, text) from public;
grant execute on function public.set_privacy_choice(text, text) to anon, authenticated;

/** What admins see ***********************************************************************************************/
-- Refuses everyone but admins (and service_role, for scripts).
create or replace function app_private.require_admin() returns void
language plpgsql stable set search_path = '' as $$
begin
  if not (coalesce(current_setting('role', true), '') = 'service_role' or public.is_admin()) then
    raise exception 'only admins can see retention' using errcode = '42501';
  end if;
end
$$;
revoke all on function app_private.require_admin() from public;

-- People whose next step (the notice, or the erasure) falls within `within` from now, and those overdue, soonest
-- first. status: notice due | awaiting answer | deletion due | active; next_step: notice | erasure.
create or replace function public.retention_due(within interval default interval '30 days')
returns table (
  email text, applications integer, enquiries integer, accounts integer, profiles integer,
  last_contact_at timestamptz, status text, next_step text, next_step_at timestamptz,
  notified_at timestamptz, answer text, answered_at timestamptz
)
language plpgsql stable security definer set search_path = '' as $$
begin
  perform app_private.require_admin();
  return query
    select r.email, r.applications, r.enquiries, r.accounts, r.profiles, r.last_contact_at, r.status,
           case when r.delete_after is not null then 'erasure' else 'notice' end,
           coalesce(r.delete_after, r.notice_due_at), r.notified_at, r.answer, r.answered_at
    from app_private.retention_people(now()) r
    where coalesce(r.delete_after, r.notice_due_at) <= now() + within
    order by coalesce(r.delete_after, r.notice_due_at), r.email;
end
$$;
comment on function public.retention_due(interval) is
  'Admins: people whose retention notice or erasure is due within the interval (default 30 days), or overdue.';
revoke all on function public.retention_due(interval) from public;
grant execute on function public.retention_due(interval) to authenticated, service_role;

-- The latest passes and erasures on request, newest first.
create or replace function public.retention_runs(max_rows integer default 30)
returns table (ran_at timestamptz, kind text, as_of timestamptz, notices integer, people_erased integer, deleted jsonb)
language plpgsql stable security definer set search_path = '' as $$
begin
  perform app_private.require_admin();
  return query
    select l.ran_at, l.kind, l.as_of, l.notices, l.people_erased, l.deleted from app_private.retention_log l
    order by l.id desc limit least(greatest(max_rows, 1), 1000);
end
$$;
comment on function public.retention_runs(integer) is 'Admins: the latest retention passes and erasures on request.';
revoke all on function public.retention_runs(integer) from public;
grant execute on function public.retention_runs(integer) to authenticated, service_role;

/** The schedule **************************************************************************************************/
-- Schedules the nightly pass with pg_cron when pg_cron is loaded for this database (shared_preload_libraries =
-- pg_cron and cron.database_name = this database; make run's cluster is started so). Otherwise says what to do:
-- load pg_cron and call this function again, or run `select app_private.run_retention()` daily from any scheduler.
create or replace function app_private.schedule_retention(schedule text default '17 3 * * *')
returns text
language plpgsql set search_path = '' as $$
begin
  if coalesce(current_setting('cron.database_name', true), '') <> current_database() then
    return 'pg_cron is not loaded for database ' || current_database()
      || ': run "select app_private.run_retention()" daily from a scheduler, or load pg_cron and call app_private.schedule_retention()';
  end if;
  create extension if not exists pg_cron with schema pg_catalog; -- as Supabase installs it
  perform cron.schedule('privacy-retention', schedule, 'select app_private.run_retention()');
  return 'scheduled privacy-retention (' || schedule || ') with pg_cron';
end
$$;
revoke all on function app_private.schedule_retention(text) from public;

select app_private.schedule_retention();
