-- Admin area 4/6: what each profile view counts as, decided by the database when the view is recorded.
-- The page inserts into profile_views as spec §7 says (profile_id, user_id, user_agent, referrer); a BEFORE INSERT
-- trigger then sets, whoever inserts:
--   visitor_hash  a 64-bit hash of (daily salt, client address, user agent, accept-language): unique viewers are
--                 counted without storing an address or setting a cookie. The salt is random, one per UTC day, kept
--                 for two days (to spot a repeat across midnight) and then dropped, so a hash cannot be linked to a
--                 person or across days once the salt is gone (the Plausible/Fathom approach).
--   is_repeat     the same visitor viewed the same profile in the 30 minutes before (kept, counted as a view, not as
--                 a new unique viewer).
--   new_viewer    the visitor's first counted view of this profile under today's salt and not a repeat: unique
--                 viewers are the count of these (a visitor counts once per profile per day: the hash cannot link
--                 days, by design).
--   is_bot        the user agent is a crawler, link-preview bot, e-mail link scanner or HTTP library (kept, never
--                 counted).
--   by_admin      the viewer held the admin role at the time, or was granted it later (a trigger on user_roles
--                 marks their earlier views): "views by users holding the admin role" (spec §6). Kept until Clear
--                 Admin Views, never counted; a deleted admin's views stay excluded after their user_id becomes null.
-- So a view counts exactly when `not is_bot and not by_admin`, which partial indexes below cover.
-- user_agent is taken from the request's User-Agent header when there is one; referrer is reduced to its origin.
set local client_min_messages = warning;

alter table public.profile_views
  add column visitor_hash bigint,
  add column is_repeat boolean not null default false,
  add column new_viewer boolean not null default false,
  add column is_bot boolean not null default false,
  add column by_admin boolean not null default false;
comment on column public.profile_views.visitor_hash is
  'Hash of (salt of the day, client address, user agent, accept-language); no address or cookie is stored. Set by the database.';
comment on column public.profile_views.is_repeat is 'Same visitor and profile within 30 minutes: a view, not a new unique viewer. Set by the database.';
comment on column public.profile_views.new_viewer is 'First counted view of the profile by this visitor today (and not a repeat): counts as a unique viewer. Set by the database.';
comment on column public.profile_views.is_bot is 'Crawler, link preview or mail scanner by user agent: recorded, never counted. Set by the database.';
comment on column public.profile_views.by_admin is 'The viewer held the admin role when viewing: never counted. Set by the database.';

-- Repeat detection looks up a visitor's recent views of a profile; the analytics read the counted views per profile
-- from a covering partial index (an index-only scan, no table visit).
create index profile_views_repeat_idx on public.profile_views (profile_id, visitor_hash, viewed_at desc);
create index profile_views_counted_idx on public.profile_views (profile_id) include (viewed_at, new_viewer)
  where not is_bot and not by_admin;
create index profile_views_counted_recent_idx on public.profile_views (viewed_at) include (new_viewer, referrer)
  where not is_bot and not by_admin;
create index profile_views_excluded_idx on public.profile_views (is_bot, by_admin) where is_bot or by_admin;

/* ---------------------------------------------------------------------------------------------------------------
 * Daily salts (never exposed: schema app_private, no grants).
 * --------------------------------------------------------------------------------------------------------------- */
create table app_private.profile_view_salts (
  day date primary key,
  salt bytea not null default extensions.gen_random_bytes(32)
);
comment on table app_private.profile_view_salts is
  'One random salt per UTC day for profile_views.visitor_hash; rows older than yesterday are deleted as views arrive.';

-- Today's salt (created on first use); drops salts older than yesterday.
create or replace function app_private.profile_view_salt(for_day date) returns bytea
  language plpgsql volatile security definer set search_path = ''
as $$
declare
  found bytea;
begin
  select s.salt into found from app_private.profile_view_salts s where s.day = for_day;
  if found is null then
    delete from app_private.profile_view_salts s where s.day < for_day - 1;
    insert into app_private.profile_view_salts (day) values (for_day) on conflict (day) do nothing;
    select s.salt into found from app_private.profile_view_salts s where s.day = for_day;
  end if;
  return found;
end;
$$;
revoke all on function app_private.profile_view_salt(date) from public;

create or replace function app_private.visitor_hash(salt bytea, identity text) returns bigint
  language sql immutable set search_path = ''
as $$
  select ('x' || encode(substring(sha256(salt || convert_to(identity, 'UTF8')) from 1 for 8), 'hex'))::bit(64)::bigint
$$;
revoke all on function app_private.visitor_hash(bytea, text) from public;

-- Crawlers, link previews (chat apps, social networks), e-mail security scanners and HTTP libraries. An empty user
-- agent counts as a bot too: every browser sends one.
create or replace function app_private.is_bot_user_agent(ua text) returns boolean
  language sql immutable set search_path = ''
as $$
  select coalesce(btrim(ua), '') = '' or ua ~* concat_ws('|',
    'bot\M', 'bot[/;_ -]', 'crawl', 'spider', 'slurp', 'scanner', 'preview', 'facebookexternalhit', 'embedly',
    'whatsapp', 'telegram', 'skypeuri', 'slack', 'discord', 'vkshare', 'pinterest', 'redditbot', 'mastodon',
    'outlook', 'ms-office', 'microsoft office', 'safelinks', 'proofpoint', 'mimecast', 'barracuda', 'symantec',
    'messagelabs', 'trendmicro', 'trend micro', 'forcepoint', 'sophos', 'fortiguard', 'googleimageproxy',
    'headlesschrome', 'phantomjs', 'lighthouse', 'python-', 'python/', 'curl/', 'wget/', 'go-http-client', 'java/',
    'okhttp', 'axios', 'node-fetch', 'undici', 'libwww', 'httpclient', 'http_request', 'feedfetcher', 'monitor')
$$;
revoke all on function app_private.is_bot_user_agent(text) from public;
comment on function app_private.is_bot_user_agent(text) is 'True for crawlers, link previews, mail scanners and HTTP libraries (by user agent).';

-- The origin of a referrer URL (scheme://host[:port]); anything else is dropped. Paths and queries can carry
-- tokens (webmail links), so they are never kept.
create or replace function app_private.referrer_origin(referrer text) returns text
  language sql immutable set search_path = ''
as $$
  select lower(substring(btrim(referrer) from '^[A-Za-z][A-Za-z0-9+.-]*://[^/?#\s]+'))
$$;
revoke all on function app_private.referrer_origin(text) from public;

/* ---------------------------------------------------------------------------------------------------------------
 * The trigger.
 * --------------------------------------------------------------------------------------------------------------- */
create or replace function private.classify_profile_view() returns trigger
  language plpgsql security definer set search_path = ''
as $$
declare
  headers jsonb := nullif(current_setting('request.headers', true), '')::jsonb;
  ua text := coalesce(nullif(left(headers ->> 'user-agent', 1000), ''), new.user_agent);
  identity text := concat_ws(E'\n', coalesce(app_private.client_ip(), ''), coalesce(ua, ''),
                             coalesce(left(headers ->> 'accept-language', 200), ''));
  today date := (now() at time zone 'utc')::date;
  yesterday_hash bigint;
begin
  new.user_agent := ua;
  new.referrer := app_private.referrer_origin(new.referrer);
  new.is_bot := app_private.is_bot_user_agent(ua);
  new.by_admin := public.is_admin()
    or exists (select 1 from public.user_roles r where r.user_id = new.user_id and r.role = 'admin');
  new.visitor_hash := app_private.visitor_hash(app_private.profile_view_salt(today), identity);
  yesterday_hash := app_private.visitor_hash(
    (select s.salt from app_private.profile_view_salts s where s.day = today - 1), identity);
  new.is_repeat := exists (
    select 1 from public.profile_views v
    where v.profile_id = new.profile_id
      and v.visitor_hash in (new.visitor_hash, yesterday_hash)
      and v.viewed_at > new.viewed_at - interval '30 minutes'
      and v.viewed_at <= new.viewed_at);
  new.new_viewer := not new.is_repeat and not new.is_bot and not new.by_admin and not exists (
    select 1 from public.profile_views v
    where v.profile_id = new.profile_id and v.visitor_hash = new.visitor_hash
      and v.viewed_at <= new.viewed_at and not v.is_bot and not v.by_admin);
  return new;
end;
$$;
revoke all on function private.classify_profile_view() from public;
comment on function private.classify_profile_view() is
  'Trigger: sets visitor_hash, is_repeat, new_viewer, is_bot and by_admin of a new profile view (see the columns).';

create trigger profile_views_classify before insert on public.profile_views
  for each row execute function private.classify_profile_view();

-- Views recorded before this migration: classified by what they kept (user agent, user).
update public.profile_views v
   set is_bot = app_private.is_bot_user_agent(v.user_agent),
       by_admin = exists (select 1 from public.user_roles r where r.user_id = v.user_id and r.role = 'admin'),
       referrer = app_private.referrer_origin(v.referrer),
       visitor_hash = app_private.visitor_hash(app_private.profile_view_salt((now() at time zone 'utc')::date),
                                               coalesce(v.user_id::text, v.id::text));
-- Each earlier view counts as one unique viewer unless it was a bot's or an admin's.
update public.profile_views v set new_viewer = not v.is_bot and not v.by_admin;

/* ---------------------------------------------------------------------------------------------------------------
 * Admin views: "views by users holding the admin role" (spec §6). A user granted the role has their earlier views
 * marked by_admin too, so counting needs no join with user_roles. Clear Admin Views deletes them all.
 * --------------------------------------------------------------------------------------------------------------- */
create or replace function private.mark_new_admin_views() returns trigger
  language plpgsql security definer set search_path = ''
as $$
begin
  if new.role = 'admin' then
    update public.profile_views v set by_admin = true, new_viewer = false
    where v.user_id = new.user_id and not v.by_admin;
  end if;
  return null;
end;
$$;
revoke all on function private.mark_new_admin_views() from public;
comment on function private.mark_new_admin_views() is 'Trigger: a user granted the admin role has their earlier profile views marked by_admin.';

create trigger user_roles_mark_admin_views after insert or update of role, user_id on public.user_roles
  for each row execute function private.mark_new_admin_views();

drop policy "Admins can delete views made by admins" on public.profile_views;
create policy "Admins can delete views made by admins" on public.profile_views
  for delete to authenticated
  using (
    (select public.is_admin())
    and (by_admin or user_id in (select r.user_id from public.user_roles r where r.role = 'admin'))
  );

create or replace function public.delete_admin_profile_views() returns integer
  language plpgsql volatile set search_path = ''
as $$
declare
  deleted integer;
begin
  if not (public.is_admin() or current_user = 'service_role') then
    raise exception 'only admins can clear admin views' using errcode = '42501';
  end if;
  delete from public.profile_views v
  where v.by_admin or v.user_id in (select r.user_id from public.user_roles r where r.role = 'admin');
  get diagnostics deleted = row_count;
  return deleted;
end;
$$;
