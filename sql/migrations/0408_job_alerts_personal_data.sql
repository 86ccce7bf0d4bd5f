-- Vacancies 9/n (issue 24 §2): job alerts are personal data. "Download my data" lists them and "Delete my account"
-- (and the retention erasure) deletes them, through the personal-data registry of 0335/0336: an alert is the
-- person's when it belongs to their account or was set up with their (proven) address. What was sent for each alert
-- goes with it (app_private.job_alert_sends cascades).

create or replace function app_private.export_job_alerts(subject app_private.data_subject, max_items integer, skip integer)
returns jsonb
  language sql stable security definer set search_path = ''
as $$
  select coalesce(jsonb_agg(jsonb_build_object(
      'email', a.email, 'status', a.status, 'frequency', a.frequency, 'search', public.job_alert_label(a),
      'q', a.q, 'location', a.location, 'sectors', a.sectors, 'regions', a.regions,
      'employment_types', a.employment_types, 'work_arrangements', a.work_arrangements, 'salary_min', a.salary_min,
      'consent_text', a.consent_text, 'consent_at', a.consent_at, 'confirmed_at', a.confirmed_at,
      'last_sent_at', a.last_sent_at, 'created_at', a.created_at,
      'jobs_sent', (select count(*) from app_private.job_alert_sends s where s.alert_id = a.id))
    order by a.created_at, a.id), '[]'::jsonb)
  from (select * from public.job_alerts x
        where (subject.user_id is not null and x.user_id = subject.user_id)
           or (subject.email is not null and x.email = subject.email)
        order by x.created_at, x.id limit max_items offset skip) a
$$;

create or replace function app_private.erase_job_alerts(subject app_private.data_subject) returns bigint
  language sql volatile security definer set search_path = ''
as $$
  with gone as (
    delete from public.job_alerts x
    where (subject.user_id is not null and x.user_id = subject.user_id)
       or (subject.email is not null and x.email = subject.email)
    returning 1)
  select count(*) from gone
$$;

revoke all on function app_private.export_job_alerts(app_private.data_subject, integer, integer),
  app_private.erase_job_alerts(app_private.data_subject) from public;

select app_private.register_personal_data_part('job_alerts',
  'Job alerts you set up: the search, how often, the consent you gave and when, and how many roles we sent',
  'app_private.export_job_alerts(app_private.data_subject, integer, integer)',
  'app_private.erase_job_alerts(app_private.data_subject)',
  array['public.job_alerts'], 120, 80);

-- The digest (0406) queues its mail with the outbox's headers function as the definer owner (0330).
grant execute on function gateway.enqueue_mail_with_headers(text, text, text, text, jsonb, boolean) to app_definer;
