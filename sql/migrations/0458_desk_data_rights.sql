-- The firm's desk: the candidate's data rights and retention for what the desk adds.
--   export_my_desk_data()  what the desk holds that is the caller's, beside export_my_data() (0202), which the
--                          Career Hub's "Download my data" merges with it: each application's plain status and the
--                          dates it changed (never the internal notes, the firm's status names or the consultant),
--                          and for the candidate profile kept under the account's confirmed e-mail, the consents
--                          recorded and the companies it was shared with (dates and views, not the client's name).
--   Deletion: applications (with their progress, history and notes) go with the account (cascade, 0201);
--             consents and links go with the profile, which retention erases with the rest of the person's data.
--   Retention: views through links follow profile_views' year (0320); a link's client name and company are kept
--             a year after the link ended (expired or revoked), then the link is deleted
--             (app_private.run_desk_retention, nightly with pg_cron beside the privacy-retention pass).
set local client_min_messages = warning;

create or replace function public.export_my_desk_data() returns jsonb
  language sql stable security definer set search_path = ''
as $$
  with me as (
    select u.id, lower(u.email) as email, u.email_confirmed_at is not null as confirmed
    from auth.users u where u.id = private.require_uid()
  ),
  mine as (
    select p.* from public.candidate_profiles p, me
    where me.confirmed and nullif(btrim(p.email), '') is not null and lower(p.email) = me.email
  )
  select jsonb_build_object(
    'application_progress', coalesce((
      select jsonb_agg(jsonb_build_object(
               'application_id', a.id, 'applied_at', a.created_at, 'job_title', j.title,
               'status', public.plain_application_status(coalesce(pl.status, 'new')),
               'status_history', coalesce((
                 select jsonb_agg(jsonb_build_object('at', c.changed_at,
                          'status', public.plain_application_status(c.to_status)) order by c.id)
                 from public.application_status_changes c where c.application_id = a.id), '[]'))
             order by a.created_at desc)
      from public.applications a
      left join public.jobs j on j.id = a.job_id
      left join public.application_pipeline pl on pl.application_id = a.id, me
      where a.user_id = me.id), '[]'),
    'candidate_profiles', coalesce((
      select jsonb_agg(jsonb_build_object(
               'candidate_id', p.candidate_id, 'job_title', p.job_title, 'details', p.details,
               'consents', coalesce((
                 select jsonb_agg(jsonb_build_object('given_on', c.given_on, 'method', c.method, 'scope', c.scope,
                          'recorded_at', c.recorded_at, 'withdrawn_at', c.withdrawn_at) order by c.recorded_at)
                 from public.profile_consents c where c.profile_id = p.id), '[]'),
               'shared_with', coalesce((
                 select jsonb_agg(jsonb_build_object('company', l.client_company, 'shared_at', l.created_at,
                          'expires_at', l.expires_at, 'revoked_at', l.revoked_at,
                          'views', (select count(*) from public.profile_views v
                                    where v.client_link_id = l.id and not v.is_bot and not v.by_admin))
                          order by l.created_at)
                 from public.profile_client_links l where l.profile_id = p.id), '[]'))
             order by p.candidate_id)
      from mine p), '[]'))
$$;
revoke all on function public.export_my_desk_data() from public;
grant execute on function public.export_my_desk_data() to authenticated;
comment on function public.export_my_desk_data() is
  'The caller''s part of the firm''s desk as JSON: each application''s plain status and its changes, and for a profile under the account''s confirmed e-mail, its consents and the companies it was shared with. "Download my data" merges it with export_my_data().';

/* ---------------------------------------------------------------------------------------------------------------
 * Retention of client links.
 * --------------------------------------------------------------------------------------------------------------- */
create or replace function app_private.run_desk_retention(as_of timestamptz default now()) returns jsonb
  language plpgsql security definer set search_path = ''
as $$
declare
  n integer;
begin
  delete from public.profile_client_links l
  where least(l.expires_at, coalesce(l.revoked_at, l.expires_at)) < as_of - interval '1 year';
  get diagnostics n = row_count;
  insert into app_private.retention_log (kind, as_of, deleted)
  values ('scheduled', as_of, jsonb_build_object('ended_client_links', n));
  return jsonb_build_object('ended_client_links', n);
end;
$$;
revoke all on function app_private.run_desk_retention(timestamptz) from public;
comment on function app_private.run_desk_retention(timestamptz) is
  'Deletes client links that ended (expired or revoked) more than a year before as_of; logged in retention_log. Run nightly.';

-- Scheduled with pg_cron where it is loaded for this database, as app_private.schedule_retention (0320) does.
create or replace function app_private.schedule_desk_retention(schedule text default '27 3 * * *') returns text
  language plpgsql set search_path = ''
as $$
begin
  if coalesce(current_setting('cron.database_name', true), '') <> current_database() then
    return 'pg_cron is not loaded for database ' || current_database()
      || ': run "select app_private.run_desk_retention()" daily from a scheduler';
  end if;
  create extension if not exists pg_cron with schema pg_catalog;
  perform cron.schedule('desk-retention', schedule, 'select app_private.run_desk_retention()');
  return 'scheduled desk-retention (' || schedule || ') with pg_cron';
end;
$$;
revoke all on function app_private.schedule_desk_retention(text) from public;

select app_private.schedule_desk_retention();
