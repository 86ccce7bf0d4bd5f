-- Vacancies 6/n (issue 24 §2): job alerts. An alert is a job search (the /jobs filters) and a frequency; new live
-- jobs that match are e-mailed as a digest (0406). Double opt-in: an address nobody has proven gets a confirmation
-- mail and nothing else until its link is used; a signed-in candidate's verified account address is active at once.
-- The consent is recorded with its time and the exact wording shown. Every mail carries a one-click unsubscribe link
-- (RFC 8058) that works without signing in. Alerts are personal data: the owner lists, edits and deletes them in the
-- Career Hub (table access under RLS), they are exported and erased with the account (0407), and unconfirmed ones are
-- removed after 7 days (0406).
--
-- supabase-js:
--   rpc('create_job_alert', { email, frequency, consent_text, q, location, sectors, regions, employment_types,
--       work_arrangements, salary_min }) → { status: 'pending' | 'active' }      anon + candidates; rate-limited
--   from('job_alerts').select(...) / .update({ frequency, q, … }) / .delete()     the signed-in owner's rows
-- Links in mail: /alerts/confirm?token=… and /alerts/unsubscribe?token=… (pages rendered by the database, whose
-- buttons POST back to the same address; a one-click POST to the unsubscribe address unsubscribes at once).
set local client_min_messages = warning;

create type public.alert_frequency as enum ('daily', 'weekly');
comment on type public.alert_frequency is 'How often a job alert''s digest is sent.';

create type public.job_alert_status as enum ('pending', 'active');
comment on type public.job_alert_status is 'pending = waiting for the address to be confirmed; active = digests are sent.';

create table public.job_alerts (
  id uuid primary key default gen_random_uuid(),
  user_id uuid references auth.users (id) on delete cascade,
  email text not null check (email = lower(email) and char_length(email) <= 320 and email ~ '^[^@\s<>,;]+@[^@\s<>,;]+\.[^@\s<>,;]+$'),
  status public.job_alert_status not null default 'pending',
  frequency public.alert_frequency not null default 'weekly',
  -- the search (the /jobs filters; null or empty = any)
  q text check (char_length(q) <= 200),
  query tsquery generated always as (websearch_to_tsquery('english'::regconfig, coalesce(q, ''))) stored,
  location text check (char_length(location) <= 100),
  sectors text[] check (cardinality(sectors) <= 20),
  regions public.uk_region[] check (cardinality(regions) <= 20),
  employment_types public.employment_type[] check (cardinality(employment_types) <= 20),
  work_arrangements public.work_arrangement[] check (cardinality(work_arrangements) <= 20),
  salary_min integer check (salary_min between 0 and 10000000),
  -- consent (PECR / UK GDPR): when, and the words the person agreed to
  consent_text text not null check (btrim(consent_text) <> '' and char_length(consent_text) <= 1000),
  consent_at timestamptz not null default now(),
  confirmed_at timestamptz,
  confirm_token_hash bytea unique,
  last_sent_at timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  check ((status = 'active') = (confirmed_at is not null))
);
comment on table public.job_alerts is
  'Job alerts: a search (q, location, sectors, regions, employment_types, work_arrangements, salary_min) e-mailed daily or weekly to a confirmed address. Personal data: owners manage their own rows; created through create_job_alert().';
comment on column public.job_alerts.user_id is 'The Career Hub account it belongs to (null: created by a visitor).';
comment on column public.job_alerts.query is 'Generated: the keywords as an English tsquery (websearch syntax), for matching jobs.search_vector.';
comment on column public.job_alerts.consent_text is 'The consent wording the person was shown and agreed to.';
comment on column public.job_alerts.consent_at is 'When they agreed (the sign-up).';
comment on column public.job_alerts.confirmed_at is 'When the address was confirmed (double opt-in), or the sign-up for a verified account address.';
comment on column public.job_alerts.confirm_token_hash is 'SHA-256 of the confirmation link''s token; cleared once confirmed.';
comment on column public.job_alerts.last_sent_at is 'When the last digest was sent; jobs that went live after it (or after confirmation) are new.';

create index job_alerts_user_id_idx on public.job_alerts (user_id);
create index job_alerts_email_idx on public.job_alerts (email);
create index job_alerts_due_idx on public.job_alerts (last_sent_at nulls first, id) where status = 'active';
create index job_alerts_pending_idx on public.job_alerts (created_at) where status = 'pending';

create trigger job_alerts_set_updated_at before update on public.job_alerts
  for each row execute function private.set_updated_at();

alter table public.job_alerts enable row level security;
revoke all on public.job_alerts from public, anon, authenticated;
grant select (id, user_id, email, status, frequency, q, location, sectors, regions, employment_types, work_arrangements,
              salary_min, consent_text, consent_at, confirmed_at, last_sent_at, created_at, updated_at)
  on public.job_alerts to authenticated;
grant update (frequency, q, location, sectors, regions, employment_types, work_arrangements, salary_min)
  on public.job_alerts to authenticated;
grant delete on public.job_alerts to authenticated;
grant select, insert, update, delete on public.job_alerts to service_role;

create policy "Owners read their alerts" on public.job_alerts
  for select to authenticated using (user_id = (select auth.uid()));
create policy "Owners change their alerts" on public.job_alerts
  for update to authenticated using (user_id = (select auth.uid())) with check (user_id = (select auth.uid()));
create policy "Owners delete their alerts" on public.job_alerts
  for delete to authenticated using (user_id = (select auth.uid()));

/* ---------------------------------------------------------------------------------------------------------------
 * Which jobs were sent to which alert (never the same job twice).
 * --------------------------------------------------------------------------------------------------------------- */
create table app_private.job_alert_sends (
  alert_id uuid not null references public.job_alerts (id) on delete cascade,
  job_id uuid not null references public.jobs (id) on delete cascade,
  sent_at timestamptz not null default now(),
  mail_id bigint,
  primary key (alert_id, job_id)
);
comment on table app_private.job_alert_sends is 'Jobs each alert''s digests have carried (a job is never sent to an alert twice).';
create index job_alert_sends_job_id_idx on app_private.job_alert_sends (job_id);
alter table app_private.job_alert_sends enable row level security;
revoke all on app_private.job_alert_sends from public, anon, authenticated, service_role;

/* ---------------------------------------------------------------------------------------------------------------
 * Unsubscribe links: "<alert id>.<HMAC-SHA256 of the id under a secret kept here>", so every digest of an alert
 * carries the same link and nothing that opens it is stored in clear.
 * --------------------------------------------------------------------------------------------------------------- */
insert into app_private.settings (key, value)
values ('job_alert_link_secret', encode(extensions.gen_random_bytes(32), 'hex'))
on conflict (key) do nothing;

create or replace function app_private.job_alert_unsubscribe_token(alert_id uuid) returns text
  language sql stable security definer set search_path = ''
as $$
  select alert_id::text || '.' || encode(extensions.hmac(convert_to(alert_id::text, 'UTF8'),
    convert_to(app_private.setting('job_alert_link_secret'), 'UTF8'), 'sha256'), 'hex')
$$;
revoke all on function app_private.job_alert_unsubscribe_token(uuid) from public;

-- The alert an unsubscribe token names when its signature is right (whether or not the alert still exists).
create or replace function app_private.job_alert_of_token(token text) returns uuid
  language sql stable security definer set search_path = ''
as $$
  select split_part(token, '.', 1)::uuid
  where token ~ '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.[0-9a-f]{64}$'
    and app_private.job_alert_unsubscribe_token(split_part(token, '.', 1)::uuid) = token
$$;
revoke all on function app_private.job_alert_of_token(text) from public;

/* ---------------------------------------------------------------------------------------------------------------
 * Words shared by the pages and the mail.
 * --------------------------------------------------------------------------------------------------------------- */
-- "“asset manager” · Consultancy · London · Permanent · Hybrid · £50,000+", or "All new roles".
create or replace function public.job_alert_label(a public.job_alerts) returns text
  language sql immutable set search_path = ''
as $$
  select coalesce(nullif(concat_ws(' · ',
    case when nullif(btrim(a.q), '') is not null then '“' || btrim(a.q) || '”' end,
    nullif(btrim(a.location), ''),
    nullif(array_to_string(a.sectors, ', '), ''),
    nullif(array_to_string(a.regions, ', '), ''),
    (select nullif(string_agg(public.employment_type_label(t), ', '), '') from unnest(a.employment_types) t),
    (select nullif(string_agg(public.work_arrangement_label(w), ', '), '') from unnest(a.work_arrangements) w),
    case when a.salary_min is not null then '£' || to_char(a.salary_min, 'FM999,999,999') || '+' end), ''), 'All new roles')
$$;
comment on function public.job_alert_label(public.job_alerts) is 'A job alert''s search in words, e.g. “asset manager” · London · £50,000+.';
grant execute on function public.job_alert_label(public.job_alerts) to anon, authenticated, service_role;

-- The /jobs address of an alert's search.
create or replace function app_private.job_alert_search_href(a public.job_alerts) returns text
  language sql immutable set search_path = ''
as $$
  select app_private.jobs_href(jsonb_strip_nulls(jsonb_build_object('q', nullif(btrim(a.q), ''),
    'location', nullif(btrim(a.location), ''), 'sector', to_jsonb(a.sectors), 'region', to_jsonb(a.regions),
    'type', to_jsonb(a.employment_types), 'arrangement', to_jsonb(a.work_arrangements), 'salary', a.salary_min)))
$$;
revoke all on function app_private.job_alert_search_href(public.job_alerts) from public;

/* ---------------------------------------------------------------------------------------------------------------
 * Signing up.
 * --------------------------------------------------------------------------------------------------------------- */
create or replace function app_private.create_job_alert(
  email text, frequency public.alert_frequency, consent_text text, q text, location text, sectors text[],
  regions public.uk_region[], employment_types public.employment_type[], work_arrangements public.work_arrangement[],
  salary_min integer)
returns jsonb
  language plpgsql volatile security definer set search_path = ''
as $$
declare
  address text := lower(btrim(email));
  uid uuid := auth.uid();
  verified boolean;
  token text := encode(extensions.gen_random_bytes(32), 'hex');
  alert public.job_alerts;
  site text := coalesce(app_private.setting('site_url'), '');
  firm text := (public.site_identity()).site_name;
begin
  perform app_private.limit_form('job_alert');
  if address is null or address !~ '^[^@\s<>,;]+@[^@\s<>,;]+\.[^@\s<>,;]+$' or char_length(address) > 320 then
    raise exception 'Enter a valid e-mail address' using errcode = '22023';
  end if;
  if nullif(btrim(consent_text), '') is null then
    raise exception 'Tick the box to agree to receive job alerts' using errcode = '22023';
  end if;
  if (select count(*) from public.job_alerts a where a.email = address) >= 10 then
    raise exception 'An address can have at most 10 job alerts; delete one first' using errcode = '22023';
  end if;
  verified := uid is not null and exists (
    select 1 from auth.users u where u.id = uid and lower(u.email) = address and u.email_confirmed_at is not null);
  insert into public.job_alerts (user_id, email, status, frequency, q, location, sectors, regions, employment_types,
                                 work_arrangements, salary_min, consent_text, confirmed_at, confirm_token_hash)
  values (uid, address, case when verified then 'active' else 'pending' end::public.job_alert_status,
          coalesce(frequency, 'weekly'), nullif(btrim(q), ''), nullif(btrim(location), ''), nullif(sectors, '{}'),
          nullif(regions, '{}'), nullif(employment_types, '{}'), nullif(work_arrangements, '{}'), salary_min,
          btrim(consent_text), case when verified then now() end,
          case when not verified then sha256(convert_to(token, 'UTF8')) end)
  returning * into alert;
  if not verified then
    -- Only the firm's words and the search in words: the address is not proven yet (outbox caps apply).
    perform gateway.enqueue_mail(address,
      app_private.one_line('Confirm your job alert (' || firm || ')'),
      concat_ws(E'\n',
        'Hello,',
        '',
        'Someone (we hope you) asked ' || firm || ' to e-mail new roles to this address '
          || case alert.frequency when 'daily' then 'once a day' else 'once a week' end || ':',
        '',
        '  ' || public.job_alert_label(alert),
        '',
        'To start the alerts, confirm here within 7 days:',
        '',
        site || '/alerts/confirm?token=' || token,
        '',
        'If this was not you, ignore this e-mail: nothing will be sent and the request is deleted after 7 days.',
        'How we use your data: ' || site || '/privacy',
        '',
        firm));
  end if;
  return jsonb_build_object('status', alert.status);
end;
$$;
revoke all on function app_private.create_job_alert(text, public.alert_frequency, text, text, text, text[], public.uk_region[], public.employment_type[], public.work_arrangement[], integer) from public;
grant execute on function app_private.create_job_alert(text, public.alert_frequency, text, text, text, text[], public.uk_region[], public.employment_type[], public.work_arrangement[], integer) to anon, authenticated;

create or replace function public.create_job_alert(
  email text, consent_text text, frequency public.alert_frequency default 'weekly', q text default null,
  location text default null, sectors text[] default null, regions public.uk_region[] default null,
  employment_types public.employment_type[] default null, work_arrangements public.work_arrangement[] default null,
  salary_min integer default null)
returns jsonb
  language sql volatile set search_path = ''
as $$
  select app_private.create_job_alert(email, frequency, consent_text, q, location, sectors, regions, employment_types,
                                      work_arrangements, salary_min)
$$;
comment on function public.create_job_alert(text, text, public.alert_frequency, text, text, text[], public.uk_region[], public.employment_type[], public.work_arrangement[], integer) is
  'Signs an address up for a job alert with the consent wording shown: {status active} for the signed-in user''s verified address, else {status pending} and a confirmation e-mail. Rate-limited per client (429).';
revoke all on function public.create_job_alert(text, text, public.alert_frequency, text, text, text[], public.uk_region[], public.employment_type[], public.work_arrangement[], integer) from public;
grant execute on function public.create_job_alert(text, text, public.alert_frequency, text, text, text[], public.uk_region[], public.employment_type[], public.work_arrangement[], integer) to anon, authenticated;

/* ---------------------------------------------------------------------------------------------------------------
 * The links in mail: confirm, unsubscribe.
 * --------------------------------------------------------------------------------------------------------------- */
-- The pending alert a confirmation token belongs to (unconfirmed alerts live 7 days).
create or replace function app_private.pending_job_alert(token text) returns public.job_alerts
  language sql stable security definer set search_path = ''
as $$
  select a.* from public.job_alerts a
  where token ~ '^[0-9a-f]{64}$' and a.confirm_token_hash = sha256(convert_to(token, 'UTF8'))
    and a.status = 'pending' and a.created_at > now() - interval '7 days'
$$;
revoke all on function app_private.pending_job_alert(text) from public;

-- {status: 'pending' (can confirm) | 'unknown', label, frequency} for the confirmation page.
create or replace function app_private.job_alert_confirmation(token text) returns jsonb
  language sql stable security definer set search_path = ''
as $$
  select coalesce((select jsonb_build_object('status', 'pending', 'label', public.job_alert_label(a), 'frequency', a.frequency)
                   from app_private.pending_job_alert(token) a where a.id is not null),
                  jsonb_build_object('status', 'unknown'))
$$;
revoke all on function app_private.job_alert_confirmation(text) from public;

create or replace function app_private.confirm_job_alert(token text) returns jsonb
  language plpgsql volatile security definer set search_path = ''
as $$
declare
  a public.job_alerts := app_private.pending_job_alert(token);
begin
  if a.id is null then
    return jsonb_build_object('status', 'unknown');
  end if;
  update public.job_alerts set status = 'active', confirmed_at = now(), confirm_token_hash = null where id = a.id;
  return jsonb_build_object('status', 'active', 'label', public.job_alert_label(a), 'frequency', a.frequency);
end;
$$;
revoke all on function app_private.confirm_job_alert(text) from public;

-- {status: 'active' | 'gone' (a real link whose alert is already deleted) | 'unknown', label, frequency}.
create or replace function app_private.job_alert_subscription(token text) returns jsonb
  language sql stable security definer set search_path = ''
as $$
  select case
    when app_private.job_alert_of_token(token) is null then jsonb_build_object('status', 'unknown')
    else coalesce((select jsonb_build_object('status', 'active', 'label', public.job_alert_label(a), 'frequency', a.frequency)
                   from public.job_alerts a where a.id = app_private.job_alert_of_token(token)),
                  jsonb_build_object('status', 'gone')) end
$$;
revoke all on function app_private.job_alert_subscription(text) from public;

-- Unsubscribing deletes the alert and what was sent for it: nothing more is sent, nothing is kept.
create or replace function app_private.unsubscribe_job_alert(token text) returns jsonb
  language plpgsql volatile security definer set search_path = ''
as $$
declare
  alert_id uuid := app_private.job_alert_of_token(token);
  a public.job_alerts;
begin
  if alert_id is null then
    return jsonb_build_object('status', 'unknown');
  end if;
  delete from public.job_alerts x where x.id = alert_id returning * into a;
  if a.id is null then
    return jsonb_build_object('status', 'gone');
  end if;
  return jsonb_build_object('status', 'unsubscribed', 'label', public.job_alert_label(a));
end;
$$;
revoke all on function app_private.unsubscribe_job_alert(text) from public;

grant execute on function app_private.job_alert_confirmation(text), app_private.confirm_job_alert(text),
  app_private.job_alert_subscription(text), app_private.unsubscribe_job_alert(text) to anon, authenticated;

/* ---------------------------------------------------------------------------------------------------------------
 * The pages /alerts/confirm and /alerts/unsubscribe (`dynamic` route /alerts/ with the query string; a POST to
 * the page does the action). Rendered as anon; the token is the authority. Mirrors
 * web/src/features/job-alerts/alert-page.tsx.
 * --------------------------------------------------------------------------------------------------------------- */
create or replace function app_private.alert_page(title text, message text, button text, state jsonb, status int default 200)
returns jsonb
  language sql stable set search_path = ''
as $$
  select jsonb_build_object('status', status,
    'head', concat('<title>', public.html_escape(title), ' | ', public.html_escape((public.site_identity()).site_name), '</title>',
                   '<meta data-head name="robots" content="noindex, nofollow">',
                   '<meta data-head name="referrer" content="no-referrer">'),
    'body', concat('<div class="alert-page" data-testid="alert-page" data-ssr-alert="',
      public.html_escape((jsonb_build_object('title', title, 'message', message, 'button', button) || state)::text), '">',
      '<section class="page-hero"><div class="container"><p class="eyebrow">Job alerts</p>',
      '<h1>', public.html_escape(title), '</h1></div></section>',
      '<div class="container section"><div class="card alert-page__card">',
      '<p>', public.html_escape(message), '</p>',
      case when button is not null then
        '<form method="post"><button type="submit" class="btn btn--accent">' || public.html_escape(button) || '</button></form>' end,
      '<p class="alert-page__links"><a href="/jobs">Search live roles</a> · <a href="/privacy#job-alerts">How we use your data</a></p>',
      '</div></div></div>'))
$$;
revoke all on function app_private.alert_page(text, text, text, jsonb, int) from public;
grant execute on function app_private.alert_page(text, text, text, jsonb, int) to anon, authenticated, service_role;

-- The page for what a link's token shows, or for what a POST did.
create or replace function app_private.alert_page_for(action text, state jsonb) returns jsonb
  language sql stable set search_path = ''
as $$
  select case
    when action = 'confirm' and state ->> 'status' = 'pending' then app_private.alert_page('Confirm your job alert',
      'Confirm that you would like ' || case state ->> 'frequency' when 'daily' then 'a daily' else 'a weekly' end
        || ' e-mail of new roles matching: ' || (state ->> 'label') || '.',
      'Confirm my job alert', state)
    when action = 'confirm' and state ->> 'status' = 'active' then app_private.alert_page('Your job alert is on',
      'We will e-mail you ' || case state ->> 'frequency' when 'daily' then 'once a day' else 'once a week' end
        || ' when new roles match: ' || (state ->> 'label') || '. Every e-mail has a link to stop them.', null, state)
    when action = 'unsubscribe' and state ->> 'status' = 'active' then app_private.alert_page('Stop this job alert',
      'Stop the e-mails for: ' || (state ->> 'label') || '? The alert is deleted; you can create a new one at any time.',
      'Unsubscribe', state)
    when action = 'unsubscribe' and state ->> 'status' = 'unsubscribed' then app_private.alert_page('You are unsubscribed',
      'You will get no more e-mails for: ' || (state ->> 'label') || '. The alert has been deleted.', null, state)
    when action = 'unsubscribe' and state ->> 'status' = 'gone' then app_private.alert_page('You are unsubscribed',
      'This job alert has already been deleted; you will get no more e-mails for it.', null, state)
    else app_private.alert_page('This link has expired',
      'This link is not valid any more. Confirmation links last 7 days; you can create a new alert on the job search.',
      null, jsonb_build_object('status', 'unknown'), 404)
  end
$$;
revoke all on function app_private.alert_page_for(text, jsonb) from public;
grant execute on function app_private.alert_page_for(text, jsonb) to anon, authenticated, service_role;

-- The token of a query string.
create or replace function app_private.token_param(query text) returns text
  language sql immutable set search_path = ''
as $$
  select p.value from app_private.query_params(query) p where p.key = 'token' order by p.n desc limit 1
$$;
revoke all on function app_private.token_param(text) from public;
grant execute on function app_private.token_param(text) to anon, authenticated, service_role;

create or replace function public.render_alert_page(rest text, query text) returns jsonb
  language plpgsql stable set search_path = ''
as $$
declare
  token text;
begin
  begin
    token := app_private.token_param(query);
  exception when others then
    token := null;
  end;
  return app_private.alert_page_for(rest, case rest
    when 'confirm' then app_private.job_alert_confirmation(token)
    when 'unsubscribe' then app_private.job_alert_subscription(token)
    else jsonb_build_object('status', 'unknown') end);
end;
$$;
comment on function public.render_alert_page(text, text) is
  'The job alert link pages /alerts/confirm and /alerts/unsubscribe (GET): what the token shows, with a button that POSTs back.';

-- POST: confirm, or unsubscribe (also RFC 8058 one-click: body "List-Unsubscribe=One-Click", token in the address).
create or replace function public.post_alert_page(rest text, query text, form text) returns jsonb
  language plpgsql volatile set search_path = ''
as $$
declare
  token text;
begin
  begin
    token := app_private.token_param(query);
  exception when others then
    token := null;
  end;
  return app_private.alert_page_for(rest, case rest
    when 'confirm' then app_private.confirm_job_alert(token)
    when 'unsubscribe' then app_private.unsubscribe_job_alert(token)
    else jsonb_build_object('status', 'unknown') end);
end;
$$;
comment on function public.post_alert_page(text, text, text) is
  'The job alert link pages, posted: confirms the alert or unsubscribes (deletes) it; a one-click unsubscribe POST (RFC 8058) lands here.';

revoke all on function public.render_alert_page(text, text), public.post_alert_page(text, text, text) from public;
grant execute on function public.render_alert_page(text, text), public.post_alert_page(text, text, text) to anon, authenticated, service_role;
