-- The firm's desk: the candidate's data rights and retention for what the desk adds. Two parts of the personal data
-- registry (0335, sql/README.md "Personal data: export and erasure"), so "Download my data", "Delete my account" and
-- the retention erasure cover them without changing:
--   application_progress  for each of the person's applications (signed in, or sent with their proven address): the
--                         plain status and the dates it changed. Never the internal notes, the firm's status names or
--                         the consultant. Erased with the applications (cascade from the applications part).
--   introductions         for a candidate profile the firm holds with their proven address: the consents recorded
--                         (date, how, scope, withdrawal) and the companies it was shared with (dates, views), never
--                         the client contact's name. Erased with the profile (cascade from the profiles part).
--   Retention: views through links follow profile_views' year (0320); a link's client name and company are kept a
--             year after the link ended (expired or revoked), then the link is deleted
--             (app_private.run_desk_retention, nightly with pg_cron beside the privacy-retention pass).
set local client_min_messages = warning;

create or replace function app_private.export_application_progress(subject app_private.data_subject, max_items integer,
                                                                   skip integer)
returns jsonb
  language sql stable security definer set search_path = ''
as $$
  select coalesce(jsonb_agg(jsonb_build_object(
           'application_id', a.id, 'applied_at', a.created_at, 'job_title', j.title,
           'status', public.plain_application_status(coalesce(p.status, 'new')),
           'status_history', coalesce((
             select jsonb_agg(jsonb_build_object('at', c.changed_at, 'status', public.plain_application_status(c.to_status))
                              order by c.id)
             from public.application_status_changes c where c.application_id = a.id), '[]'))
         order by a.created_at desc, a.id), '[]')
  from (select * from public.applications x
         where x.user_id = subject.user_id or lower(x.email) = subject.email
         order by x.created_at desc, x.id limit max_items offset skip) a
  cross join lateral app_private.job_as_shown(a.job_id) j
  left join public.application_pipeline p on p.application_id = a.id
$$;

create or replace function app_private.export_introductions(subject app_private.data_subject, max_items integer,
                                                            skip integer)
returns jsonb
  language sql stable security definer set search_path = ''
as $$
  select coalesce(jsonb_agg(jsonb_build_object(
           'candidate_id', p.candidate_id,
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
         order by p.candidate_id), '[]')
  from (select * from public.candidate_profiles x
         where subject.email is not null and lower(x.email) = subject.email
         order by x.candidate_id limit max_items offset skip) p
$$;

revoke all on function app_private.export_application_progress(app_private.data_subject, integer, integer),
  app_private.export_introductions(app_private.data_subject, integer, integer) from public;

select app_private.register_personal_data_part('application_progress',
  'Where each of your applications stands (the status you see) and when it changed',
  'app_private.export_application_progress(app_private.data_subject, integer, integer)', null,
  array['public.application_pipeline', 'public.application_status_changes'], 55, 10);
select app_private.register_personal_data_part('introductions',
  'Your consent to be introduced to clients, and the companies your candidate profile was shared with',
  'app_private.export_introductions(app_private.data_subject, integer, integer)', null,
  array['public.profile_consents', 'public.profile_client_links'], 75, 30);

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
