-- Rate limits without addresses. The per-client limits of 0260/0261 (applications, enquiries, visitors' uploads,
-- profile views) kept the client's address in app_private.submission_log.client_key for a day; the privacy promise
-- of the profile page (unique viewers "without storing IP addresses") and the notice's data minimisation rule both
-- want no address at rest. A client is now counted under a keyed hash of its address: SHA-256 of (the day's random
-- salt, "rate-limit", the address), the daily salt of app_private.profile_view_salts (0233), which is dropped when it
-- is two days old. Once it is gone nobody, the database owner included, can test an address against a stored key.
--
-- Behaviour is unchanged: per client and overall per hour, 429 + Retry-After, and no address is one shared bucket
-- ('unknown', never unlimited). The salt changes at midnight UTC, so a client's submissions are counted under
-- today's key and yesterday's (the hour before midnight still counts) and recorded under today's.
set local client_min_messages = warning;

-- A client's rate-limit key for one day's salt: 'h:' and 32 hex digits (128 bits). Null without an address or salt.
create or replace function app_private.client_key(address text, salt bytea) returns text
language sql immutable set search_path = '' as $$
  select 'h:' || encode(substring(sha256(salt || convert_to(E'rate-limit\n' || address, 'UTF8')) from 1 for 16), 'hex')
  where nullif(btrim(address), '') is not null and salt is not null
$$;
revoke all on function app_private.client_key(text, bytea) from public;
comment on function app_private.client_key(text, bytea) is
  'The rate-limit key of a client address under a daily salt (a keyed SHA-256; the address itself is never stored).';

-- The keys the current request's client is counted under: today's (created if need be; new submissions are recorded
-- under it) then yesterday's, or {unknown} when the gateway named no address.
create or replace function app_private.client_keys() returns text[]
language plpgsql volatile security definer set search_path = '' as $$
declare
  address text := app_private.client_ip();
  today date := (now() at time zone 'utc')::date;
begin
  if address is null then
    return array['unknown'];
  end if;
  return array_remove(array[
    app_private.client_key(address, app_private.profile_view_salt(today)),
    app_private.client_key(address, (select s.salt from app_private.profile_view_salts s where s.day = today - 1))
  ], null);
end
$$;
revoke all on function app_private.client_keys() from public;

-- Counts `amount` against `max_amount` per hour for `kind` over every key in `keys`, records it under keys[1], or
-- refuses with 429 + Retry-After. Buckets are locked in key order, so two requests sharing a key never both pass.
create or replace function app_private.take_keys(kind text, keys text[], max_amount bigint, amount bigint default 1)
returns void
language plpgsql security definer set search_path = '' as $$
declare
  k text;
  used bigint;
  oldest timestamptz;
  wait integer;
begin
  if coalesce(cardinality(keys), 0) = 0 or keys[1] is null then
    keys := array['unknown'];
  end if;
  for k in select distinct x from unnest(keys) x where x is not null order by 1 loop
    perform pg_advisory_xact_lock(7261003, hashtext(kind || '/' || k));
  end loop;
  select coalesce(sum(l.amount), 0), min(l.created_at) into used, oldest from app_private.submission_log l
   where l.kind = take_keys.kind and l.client_key = any (keys) and l.created_at > now() - interval '1 hour';
  if used + greatest(amount, 0) > max_amount then
    wait := greatest(1, ceil(extract(epoch from (coalesce(oldest, now()) + interval '1 hour' - now())))::integer);
    raise sqlstate 'PGRST' using
      message = json_build_object('code', 'PT429', 'message', 'Too many submissions, please try again later',
                                  'details', null, 'hint', null)::text,
      detail = json_build_object('status', 429, 'headers', json_build_object('Retry-After', wait::text))::text;
  end if;
  insert into app_private.submission_log (kind, client_key, amount) values (take_keys.kind, keys[1], greatest(amount, 0));
end
$$;
revoke all on function app_private.take_keys(text, text[], bigint, bigint) from public;

-- A key the caller names (an account id, 'all'); no key is the shared bucket 'unknown'.
create or replace function app_private.take(kind text, client_key text, max_amount bigint, amount bigint default 1)
returns void
language sql security definer set search_path = '' as $$
  select app_private.take_keys(kind, array[coalesce(nullif(btrim(client_key), ''), 'unknown')], max_amount, amount)
$$;
revoke all on function app_private.take(text, text, bigint, bigint) from public;

-- The current request's client, by its hashed address.
create or replace function app_private.take_for_client(kind text, max_amount bigint, amount bigint default 1)
returns void
language sql security definer set search_path = '' as $$
  select app_private.take_keys(kind, app_private.client_keys(), max_amount, amount)
$$;
revoke all on function app_private.take_for_client(text, bigint, bigint) from public;
comment on function app_private.take_for_client(text, bigint, bigint) is
  'Counts one submission (or `amount`) of the request''s client, keyed by its salted address hash, and refuses past max_amount an hour with HTTP 429 + Retry-After.';

/** The limits, keyed on the hash *********************************************************************************/
create or replace function app_private.limit_form(form text) returns void
language plpgsql security definer set search_path = '' as $$
begin
  if current_setting('role', true) in ('anon', 'authenticated') then
    perform app_private.take_for_client(form || ':client', app_private.limit_value(form || '_per_client_per_hour', 10));
    perform app_private.take(form || ':all', 'all', app_private.limit_value(form || '_per_hour', 200));
  end if;
end
$$;
revoke all on function app_private.limit_form(text) from public;

create or replace function app_private.limit_cv_uploads() returns trigger
language plpgsql security definer set search_path = '' as $$
declare
  size bigint := coalesce(nullif(new.metadata->>'size', '')::bigint, 0);
begin
  if current_setting('role', true) = 'anon'
     or (current_setting('role', true) = 'authenticated' and not public.is_admin()) then
    perform app_private.take_for_client('upload:client', app_private.limit_value('upload_per_client_per_hour', 20));
    perform app_private.take('upload:all', 'all', app_private.limit_value('upload_per_hour', 200));
    perform app_private.take('upload:bytes', 'all', app_private.limit_value('upload_bytes_per_hour', 524288000), size);
  end if;
  return new;
end
$$;

create or replace function app_private.limit_profile_views() returns trigger
language plpgsql security definer set search_path = '' as $$
begin
  if current_setting('role', true) in ('anon', 'authenticated') then
    perform app_private.take_for_client('profile_view:client',
                                        app_private.limit_value('profile_view_per_client_per_hour', 120));
    perform app_private.take('profile_view:all', 'all', app_private.limit_value('profile_view_per_hour', 5000));
  end if;
  return new;
end
$$;
revoke all on function app_private.limit_profile_views() from public;

/** What was stored before ****************************************************************************************/
-- Addresses already in the log become today's keys (a client's count carries over); the e-mail addresses of the
-- first limits (0100/0101, no longer read) go.
delete from app_private.submission_log where kind = 'application:email';
update app_private.submission_log l
   set client_key = app_private.client_key(l.client_key, app_private.profile_view_salt((now() at time zone 'utc')::date))
 where (l.kind like '%:client' or l.kind in ('application:ip', 'cv_upload:ip'))
   and l.client_key not like 'h:%' and l.client_key <> 'unknown';

comment on table app_private.submission_log is
  'One row per counted submission: kind, the key it is counted under (a salted hash of the client address ''h:…'', an account id, ''all'' or ''unknown''; never an address) and its amount. Kept a day.';
