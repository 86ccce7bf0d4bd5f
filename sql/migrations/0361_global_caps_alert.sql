-- Global caps that protect the machine without handing one client the power to lock everybody out (U2). Before,
-- 200 applications, 200 enquiries, 200 uploads (500 MB) and 5,000 profile views an hour were hard stops for
-- everyone: a few clients (one host with an ordinary /64, before 0360) spent them and every real applicant was
-- refused for an hour. Now each has two levels, explained in sql/README.md ("Rate limits"):
--  * an alert level, the old numbers (what a busy hour of real traffic stays under): the first submission past it
--    in an hour mails the firm's inbox once through the outbox and records a row in app_private.limit_alerts, and
--    nothing is refused;
--  * a hard cap ten times higher (2,000 applications or enquiries or uploads, 5 GB of uploads, 50,000 profile
--    views an hour) that bounds what the machine stores: reaching it takes a couple of hundred distinct clients
--    (IPv4 addresses or IPv6 /64s) each at its own limit, not one host; past it everyone gets 429 + Retry-After.
-- Uploads also get a per-client byte limit (50 MB an hour, five CVs at the bucket's 10 MB limit), so a few clients
-- cannot spend the byte cap either. Totals are one counter row per kind and clock hour (an upsert, not a sum over
-- the log), read as a sliding hour: this hour's count plus the previous hour's weighted by how much of it is still
-- inside the last 60 minutes. Every number is an app_private.settings row ('limit:<name>'), as before.
set local client_min_messages = warning;

create table if not exists app_private.hourly_totals (
  kind text not null,
  hour timestamptz not null,
  amount bigint not null default 0,
  alerted boolean not null default false,
  primary key (kind, hour)
);
comment on table app_private.hourly_totals is
  'What all visitors submitted per kind and clock hour (counts or bytes), for the global caps and their alerts. Kept two days.';

create table if not exists app_private.limit_alerts (
  id bigint generated always as identity primary key,
  kind text not null,
  alert_level bigint not null,
  hard_cap bigint not null,
  created_at timestamptz not null default now()
);
comment on table app_private.limit_alerts is
  'Each time visitors'' submissions of a kind passed the alert level in an hour (the firm is mailed once per kind and hour).';
revoke all on app_private.hourly_totals, app_private.limit_alerts from public;

-- The firm's words for each kind.
create or replace function app_private.total_label(kind text) returns text
language sql immutable set search_path = '' as $$
  select case kind
    when 'application:all' then 'applications'
    when 'enquiry:all' then 'enquiries'
    when 'upload:all' then 'CV uploads'
    when 'upload:bytes' then 'bytes of CV uploads'
    when 'profile_view:all' then 'profile views'
    else kind end
$$;

-- Counts `amount` of `kind` for all visitors this hour. Past the hard cap ('limit:<name>_per_hour', default
-- `hard_default`) the request is refused with 429 + Retry-After; the first time in a clock hour the total passes the
-- alert level ('limit:<name>_alert_per_hour', default `alert_default`) the firm is told, and the request goes on.
create or replace function app_private.take_total(kind text, name text, hard_default bigint, alert_default bigint,
                                                  amount bigint default 1)
returns void
language plpgsql security definer set search_path = '' as $$
declare
  this_hour timestamptz := date_trunc('hour', now());
  elapsed float8 := extract(epoch from now() - date_trunc('hour', now())) / 3600.0;
  hard_cap bigint := app_private.limit_value(name || '_per_hour', hard_default);
  alert_level bigint := app_private.limit_value(name || '_alert_per_hour', alert_default);
  last_hour_total bigint;
  this_hour_total bigint;
  was_alerted boolean;
  estimate float8;
  inbox text := app_private.setting('firm_inbox');
begin
  select t.amount into last_hour_total from app_private.hourly_totals t
   where t.kind = take_total.kind and t.hour = this_hour - interval '1 hour';
  -- the row lock taken here orders concurrent submissions of a kind
  insert into app_private.hourly_totals as t (kind, hour, amount) values (take_total.kind, this_hour, greatest(take_total.amount, 0))
  on conflict on constraint hourly_totals_pkey do update set amount = t.amount + excluded.amount
  returning t.amount, t.alerted into this_hour_total, was_alerted;
  estimate := this_hour_total + coalesce(last_hour_total, 0) * (1.0 - elapsed);
  if estimate > hard_cap then
    raise sqlstate 'PGRST' using
      message = json_build_object('code', 'PT429', 'message', 'Too many submissions, please try again later',
                                  'details', null, 'hint', null)::text,
      detail = json_build_object('status', 429, 'headers', json_build_object('Retry-After',
                 greatest(1, ceil(3600 * (1.0 - elapsed)))::integer::text))::text;
  end if;
  if estimate > alert_level and not was_alerted then
    update app_private.hourly_totals t set alerted = true where t.kind = take_total.kind and t.hour = this_hour;
    insert into app_private.limit_alerts (kind, alert_level, hard_cap) values (take_total.kind, alert_level, hard_cap);
    if inbox is not null then
      insert into gateway.outbox_proven_recipients (address) values (lower(inbox)) on conflict (address) do nothing;
      perform gateway.enqueue_mail(inbox,
        'Unusual activity on the site: more than ' || alert_level || ' ' || app_private.total_label(take_total.kind) || ' in an hour',
        concat_ws(E'\n',
          'Visitors have sent more than ' || alert_level || ' ' || app_private.total_label(take_total.kind)
            || ' in the last hour, more than a busy hour usually brings.',
          '',
          'Nothing has been refused: each visitor is still held to their own hourly limit. If it reaches '
            || hard_cap || ' in an hour, the site will refuse further ' || app_private.total_label(take_total.kind)
            || ' from everyone until the hour has passed.',
          '',
          'If this is not a campaign or a busy day, it may be an automated attack: the admin area lists what arrived.',
          '',
          'Time: ' || to_char(now() at time zone 'Europe/London', 'YYYY-MM-DD HH24:MI') || ' (UK time)'));
    end if;
  end if;
  if random() < 0.001 then
    delete from app_private.hourly_totals t where t.hour < now() - interval '2 days';
  end if;
end
$$;
revoke all on function app_private.take_total(text, text, bigint, bigint, bigint) from public;
comment on function app_private.take_total(text, text, bigint, bigint, bigint) is
  'Counts a visitor submission against the global hourly total of its kind: refuses past the hard cap (429), alerts the firm once an hour past the alert level.';

/** The limits with their global levels ***************************************************************************/
create or replace function app_private.limit_form(form text) returns void
language plpgsql security definer set search_path = '' as $$
begin
  if current_setting('role', true) in ('anon', 'authenticated') then
    perform app_private.take_for_client(form || ':client', app_private.limit_value(form || '_per_client_per_hour', 10));
    perform app_private.take_total(form || ':all', form, 2000, 200);
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
    perform app_private.take_for_client('upload:client_bytes',
                                        app_private.limit_value('upload_bytes_per_client_per_hour', 52428800), size);
    perform app_private.take_total('upload:all', 'upload', 2000, 200);
    perform app_private.take_total('upload:bytes', 'upload_bytes', 5368709120, 524288000, size);
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
    perform app_private.take_total('profile_view:all', 'profile_view', 50000, 5000);
  end if;
  return new;
end
$$;
revoke all on function app_private.limit_profile_views() from public;
