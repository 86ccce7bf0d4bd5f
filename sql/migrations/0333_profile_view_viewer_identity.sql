-- Profile-view analytics that a visitor cannot inflate or dress up (U5). A unique viewer was a hash of the address,
-- the User-Agent and the Accept-Language, the last two chosen by the client: five inserts with five user agents
-- made five unique viewers. And any `scheme://host` text passed as a referrer, so `javascript://…` could top the
-- referrer list. Now:
--   * the viewer is the client's address alone (the one the gateway resolved, app_private.client_ip(); an IPv6
--     address by its /64, which one host holds), salted by the day as before: one viewer per address per profile
--     per day, whatever headers it sends; a view is a repeat when a counted view (not an admin's, not a crawler's)
--     from the address came in the 30 minutes before;
--   * a referrer is kept only when it is an http(s) URL with a plain host name or address, reduced to its origin
--     (scheme, host, port; no user name, path or query); anything else is dropped. Stored referrers are cleaned.
set local client_min_messages = warning;

-- The part of a client address that identifies one viewer: an IPv4 address, or an IPv6 address's /64 (an IPv4
-- address written as IPv6, ::ffff:a.b.c.d, is that IPv4 address). Null without an address; text that is not an
-- address stays as it is.
create or replace function app_private.viewer_address(address text) returns text
language plpgsql immutable set search_path = '' as $$
declare
  a inet;
begin
  if nullif(btrim(address), '') is null then
    return null;
  end if;
  a := btrim(address)::inet;
  if family(a) = 6 and host(a) ~* '^::ffff:[0-9.]+$' then
    return substring(host(a) from 8);
  end if;
  return case when family(a) = 6 then network(set_masklen(a, 64))::text else host(a) end;
exception when invalid_text_representation then
  return btrim(address);
end
$$;
revoke all on function app_private.viewer_address(text) from public;
comment on function app_private.viewer_address(text) is
  'One viewer''s address for analytics: an IPv4 address or an IPv6 /64 (one host''s block).';

-- The origin of an http(s) referrer (lower-cased scheme://host[:port], no user info); null for anything else.
create or replace function app_private.referrer_origin(referrer text) returns text
language sql immutable set search_path = '' as $$
  select lower(m[1] || '://' || m[2])
  from (select regexp_match(btrim(referrer),
               '^(https?)://(?:[^/?#\s@]*@)?([A-Za-z0-9](?:[A-Za-z0-9.-]*[A-Za-z0-9])?(?::[0-9]{1,5})?|\[[0-9A-Fa-f:.]+\](?::[0-9]{1,5})?)(?:[/?#]|$)',
               'i') as m) s
  where m is not null and char_length(m[2]) <= 260
$$;
revoke all on function app_private.referrer_origin(text) from public;
comment on function app_private.referrer_origin(text) is
  'The origin of an http(s) referrer (scheme://host[:port]); null for any other scheme or a malformed URL.';

-- The trigger of 0233 with the viewer identified by address only.
create or replace function private.classify_profile_view() returns trigger
  language plpgsql security definer set search_path = ''
as $$
declare
  headers jsonb := nullif(current_setting('request.headers', true), '')::jsonb;
  ua text := coalesce(nullif(left(headers ->> 'user-agent', 1000), ''), new.user_agent);
  identity text := coalesce(app_private.viewer_address(app_private.client_ip()), '');
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
  -- Only counted views make a later one a repeat: an admin's or a crawler's view from the same address (an office,
  -- a shared connection) does not make a visitor's first view a repeat.
  new.is_repeat := exists (
    select 1 from public.profile_views v
    where v.profile_id = new.profile_id
      and v.visitor_hash in (new.visitor_hash, yesterday_hash)
      and v.viewed_at > new.viewed_at - interval '30 minutes'
      and v.viewed_at <= new.viewed_at
      and not v.is_bot and not v.by_admin);
  new.new_viewer := not new.is_repeat and not new.is_bot and not new.by_admin and not exists (
    select 1 from public.profile_views v
    where v.profile_id = new.profile_id and v.visitor_hash = new.visitor_hash
      and v.viewed_at <= new.viewed_at and not v.is_bot and not v.by_admin);
  return new;
end;
$$;
revoke all on function private.classify_profile_view() from public;

comment on column public.profile_views.visitor_hash is
  'Hash of (salt of the day, client address: IPv4, or IPv6 /64); headers the client chooses play no part. No address or cookie is stored. Set by the database.';
comment on column public.profile_views.referrer is 'The origin (scheme://host[:port]) of an http(s) referrer; anything else is not kept.';

-- Referrers stored before: the same rule.
update public.profile_views v set referrer = app_private.referrer_origin(v.referrer)
 where v.referrer is distinct from app_private.referrer_origin(v.referrer);
