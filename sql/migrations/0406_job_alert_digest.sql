-- Vacancies 7/n (issue 24 §2): the job alert digest. app_private.run_job_alerts(as_of, max_mails) sends every due
-- alert (active; daily ones 20 hours after their last digest, weekly ones 6 days 20 hours after) one e-mail listing
-- the live jobs that went live since its last digest (or its confirmation) and match its search — at most 12, newest
-- first, each a link — and never a job it was sent before. Nothing is sent when nothing matched (the window stays
-- open until something does). One pass at a time (an advisory lock) and the record of what was sent make a repeated
-- or concurrent run send nothing twice. At most max_mails digests per pass (setting limit:job_alert_mails_per_pass,
-- default 5,000; the rest are due at the next pass), oldest digest first. The same pass removes alerts left
-- unconfirmed for 7 days and the send records of jobs closed for 30 days.
-- pg_cron runs it every 15 minutes where it is loaded (app_private.schedule_job_alerts()); `make job-alerts` runs one
-- pass now (scripts/job-alerts.sh). Mail goes through the outbox with List-Unsubscribe (the one-click address) and
-- List-Unsubscribe-Post (RFC 8058) headers, to addresses the person confirmed (so the outbox's caps for unproven
-- addresses do not apply).
set local client_min_messages = warning;

create table app_private.job_alert_runs (
  id bigint generated always as identity primary key,
  ran_at timestamptz not null default now(),
  as_of timestamptz not null,
  alerts_due integer not null,
  digests integer not null,
  jobs_sent integer not null,
  unconfirmed_removed integer not null,
  duration interval not null
);
comment on table app_private.job_alert_runs is 'One row per job alert pass: due alerts, digests queued, jobs listed, unconfirmed alerts removed. No personal data.';
alter table app_private.job_alert_runs enable row level security;
revoke all on app_private.job_alert_runs from public, anon, authenticated, service_role;

-- The digest e-mail of one alert: subject, text and HTML bodies, and its headers.
create or replace function app_private.job_alert_mail(a public.job_alerts, jobs jsonb,
  out subject text, out body_text text, out body_html text, out headers jsonb)
  language plpgsql stable security definer set search_path = ''
as $$
declare
  site text := coalesce(app_private.setting('site_url'), '');
  firm text := (public.site_identity()).site_name;
  n int := jsonb_array_length(jobs);
  label text := public.job_alert_label(a);
  unsubscribe text := site || '/alerts/unsubscribe?token=' || app_private.job_alert_unsubscribe_token(a.id);
  search text := site || app_private.job_alert_search_href(a);
begin
  subject := app_private.one_line(n || case when n = 1 then ' new role' else ' new roles' end || ' for your job alert: ' || label);
  body_text := concat_ws(E'\n',
    'New ' || case when n = 1 then 'role' else 'roles' end || ' matching your job alert (' || label || '):',
    '',
    (select string_agg(concat_ws(E'\n',
        '* ' || (j ->> 'title'),
        '  ' || concat_ws(' · ', j ->> 'company', j ->> 'location', coalesce(nullif(j ->> 'salary', ''), 'Competitive')),
        '  ' || site || '/jobs/' || (j ->> 'id'), ''), E'\n' order by o)
     from jsonb_array_elements(jobs) with ordinality as t(j, o)),
    'See every match: ' || search,
    '',
    'These roles are advertised by ' || firm || '.',
    'You get this ' || case a.frequency when 'daily' then 'daily' else 'weekly' end
      || ' e-mail because you asked for it. Stop it here (no sign-in needed): ' || unsubscribe,
    'How we use your data: ' || site || '/privacy');
  body_html := concat(
    '<p>New ', case when n = 1 then 'role' else 'roles' end, ' matching your job alert (', public.html_escape(label), '):</p><ul>',
    (select string_agg(concat('<li><a href="', public.html_escape(site || '/jobs/' || (j ->> 'id')), '">',
        public.html_escape(j ->> 'title'), '</a><br>',
        public.html_escape(concat_ws(' · ', j ->> 'company', j ->> 'location', coalesce(nullif(j ->> 'salary', ''), 'Competitive'))),
        '</li>'), '' order by o)
     from jsonb_array_elements(jobs) with ordinality as t(j, o)),
    '</ul><p><a href="', public.html_escape(search), '">See every match</a></p>',
    '<p>These roles are advertised by ', public.html_escape(firm), '. You get this ',
    case a.frequency when 'daily' then 'daily' else 'weekly' end, ' e-mail because you asked for it. ',
    '<a href="', public.html_escape(unsubscribe), '">Unsubscribe</a> (no sign-in needed) · ',
    '<a href="', public.html_escape(site || '/privacy'), '">How we use your data</a></p>');
  headers := jsonb_build_object('List-Unsubscribe', '<' || unsubscribe || '>',
                                'List-Unsubscribe-Post', 'List-Unsubscribe=One-Click');
end;
$$;
revoke all on function app_private.job_alert_mail(public.job_alerts, jsonb) from public;

create or replace function app_private.run_job_alerts(as_of timestamptz default now(), max_mails integer default null)
returns jsonb
  language plpgsql volatile security definer set search_path = ''
as $$
declare
  started timestamptz := clock_timestamp();
  budget int := coalesce(max_mails, app_private.limit_value('job_alert_mails_per_pass', 5000)::int);
  due_count int;
  digests int := 0;
  jobs_sent int := 0;
  removed int;
  d record;
  mail record;
  mail_id bigint;
begin
  perform pg_advisory_xact_lock(7261400);

  delete from public.job_alerts a where a.status = 'pending' and a.created_at < as_of - interval '7 days';
  get diagnostics removed = row_count;
  delete from app_private.job_alert_sends s using public.jobs j
  where j.id = s.job_id and j.status <> 'active' and j.updated_at < as_of - interval '30 days';

  drop table if exists pg_temp.due_alerts;
  create temporary table due_alerts on commit drop as
    select a.* from public.job_alerts a
    where a.status = 'active'
      and (a.last_sent_at is null
           or a.last_sent_at <= as_of - case a.frequency when 'daily' then interval '20 hours' else interval '6 days 20 hours' end);
  get diagnostics due_count = row_count;

  -- Every (alert, new job) that matches, newest 12 per alert, the alerts with the oldest digest first.
  for d in
    with new_jobs as (
      select j.id, j.title, j.company, j.location, j.salary, j.sector, j.region, j.employment_type, j.work_arrangement,
             j.salary_min, j.salary_max, j.salary_period, j.search_vector, j.published_at
      from public.jobs j
      where j.status = 'active' and j.published_at <= as_of
        and j.published_at > (select min(coalesce(x.last_sent_at, x.confirmed_at)) from due_alerts x)
    ),
    matches as (
      select a.id as alert_id, j.*, row_number() over (partition by a.id order by j.published_at desc, j.id) as rank
      from due_alerts a
      join new_jobs j on j.published_at > coalesce(a.last_sent_at, a.confirmed_at)
      where (a.sectors is null or j.sector = any (a.sectors))
        and (a.regions is null or j.region = any (a.regions))
        and (a.employment_types is null or j.employment_type = any (a.employment_types))
        and (a.work_arrangements is null or j.work_arrangement = any (a.work_arrangements))
        and (a.salary_min is null or (j.salary_period = 'year' and coalesce(j.salary_max, j.salary_min) >= a.salary_min))
        and (a.location is null
             or j.location ilike '%' || replace(replace(replace(a.location, '\', '\\'), '%', '\%'), '_', '\_') || '%' escape '\'
             or j.region::text ilike replace(replace(replace(a.location, '\', '\\'), '%', '\%'), '_', '\_') escape '\')
        and (numnode(a.query) = 0 or j.search_vector @@ a.query)
        and not exists (select 1 from app_private.job_alert_sends s where s.alert_id = a.id and s.job_id = j.id)
    )
    select m.alert_id,
           jsonb_agg(jsonb_build_object('id', m.id, 'title', m.title, 'company', m.company, 'location', m.location,
                                        'salary', m.salary) order by m.published_at desc, m.id) as jobs
    from matches m join due_alerts a on a.id = m.alert_id
    where m.rank <= 12
    group by m.alert_id, a.last_sent_at
    order by a.last_sent_at nulls first, m.alert_id
  loop
    exit when digests >= budget;
    select * into mail from app_private.job_alert_mail((select a from public.job_alerts a where a.id = d.alert_id), d.jobs);
    mail_id := gateway.enqueue_mail_with_headers(
      (select a.email from public.job_alerts a where a.id = d.alert_id), mail.subject, mail.body_text, mail.body_html, mail.headers, true);
    insert into app_private.job_alert_sends (alert_id, job_id, sent_at, mail_id)
    select d.alert_id, (j ->> 'id')::uuid, as_of, mail_id from jsonb_array_elements(d.jobs) j;
    update public.job_alerts set last_sent_at = as_of where id = d.alert_id;
    digests := digests + 1;
    jobs_sent := jobs_sent + jsonb_array_length(d.jobs);
  end loop;

  drop table pg_temp.due_alerts;
  insert into app_private.job_alert_runs (as_of, alerts_due, digests, jobs_sent, unconfirmed_removed, duration)
  values (as_of, due_count, digests, jobs_sent, removed, clock_timestamp() - started);
  return jsonb_build_object('alerts_due', due_count, 'digests', digests, 'jobs_sent', jobs_sent,
                            'unconfirmed_removed', removed,
                            'seconds', round(extract(epoch from clock_timestamp() - started)::numeric, 3));
end;
$$;
revoke all on function app_private.run_job_alerts(timestamptz, integer) from public;
comment on function app_private.run_job_alerts(timestamptz, integer) is
  'One job alert pass as of the given time: digests of new matching jobs for every due alert (≤ 12 jobs each, never one twice, ≤ max_mails digests), unconfirmed alerts older than 7 days removed. pg_cron every 15 minutes; make job-alerts.';

-- Schedules the pass with pg_cron where it is loaded for this database (as app_private.schedule_retention does);
-- otherwise says how to run it from another scheduler.
create or replace function app_private.schedule_job_alerts(schedule text default '*/15 * * * *')
returns text
  language plpgsql set search_path = ''
as $$
begin
  if coalesce(current_setting('cron.database_name', true), '') <> current_database() then
    return 'pg_cron is not loaded for database ' || current_database()
      || ': run "select app_private.run_job_alerts()" every 15 minutes from a scheduler, or load pg_cron and call app_private.schedule_job_alerts()';
  end if;
  create extension if not exists pg_cron with schema pg_catalog;
  perform cron.schedule('job-alerts', schedule, 'select app_private.run_job_alerts()');
  return 'scheduled job-alerts (' || schedule || ') with pg_cron';
end
$$;
revoke all on function app_private.schedule_job_alerts(text) from public;

select app_private.schedule_job_alerts();
