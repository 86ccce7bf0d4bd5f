-- The daily salts of the visitor hashes and rate-limit keys (app_private.profile_view_salts, 0233/0263) were dropped
-- only when a later day's first salt was made: on a site with no views or submissions for a while, old salts stayed,
-- and with them the means to test an address against the hashes made that day. The nightly retention pass (pg_cron,
-- app_private.schedule_retention) now drops every salt older than yesterday, whatever arrives. Yesterday's salt is
-- kept: a reload just after midnight is still recognised as a repeat, and a client's last hour still counts.
set local client_min_messages = warning;

-- Deletes the salts of days before yesterday (UTC) as of `as_of`; returns how many.
create or replace function app_private.drop_old_salts(as_of timestamptz default now()) returns integer
language plpgsql security definer set search_path = '' as $$
declare
  n integer;
begin
  delete from app_private.profile_view_salts s where s.day < (as_of at time zone 'utc')::date - 1;
  get diagnostics n = row_count;
  return n;
end
$$;
revoke all on function app_private.drop_old_salts(timestamptz) from public;

-- The pass of 0320, which now also drops old salts (the rest is unchanged).
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
  n := app_private.drop_old_salts(as_of);
  deleted := app_private.add_counts(deleted, jsonb_build_object('old_salts', n));
  insert into app_private.retention_log (kind, as_of, notices, people_erased, deleted)
  values ('scheduled', as_of, notices, erased, deleted);
  return jsonb_build_object('notices', notices, 'people_erased', erased, 'deleted', deleted);
end
$$;
revoke all on function app_private.run_retention(timestamptz) from public;
comment on function app_private.run_retention(timestamptz) is
  'One retention pass as of the given time (default now()): notices due, erasures due, the shorter purges and the daily salts older than yesterday. Run daily (pg_cron or an external scheduler).';

comment on table app_private.profile_view_salts is
  'One random salt per UTC day for profile_views.visitor_hash and the rate-limit client keys; salts older than yesterday are dropped when a day''s first salt is made and by the nightly retention pass.';
