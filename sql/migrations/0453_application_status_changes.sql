-- The firm's desk 4/8: changing where applications stand. admin_set_application_status moves one or several
-- applications to a status in one transaction, optionally with an internal note and optionally e-mailing each
-- applicant from the status's editable template through the outbox (the e-mail never carries a note);
-- admin_assign_consultant gives them a consultant. The templates are rows admins edit (subject and body with the
-- placeholders {greeting} {job_title} {status} {firm_name}; an unknown placeholder is refused).
set local client_min_messages = warning;

/* ---------------------------------------------------------------------------------------------------------------
 * Table application_mail_templates
 * --------------------------------------------------------------------------------------------------------------- */
create table public.application_mail_templates (
  status public.application_status primary key check (status <> 'new'),
  subject text not null check (btrim(subject) <> '' and char_length(subject) <= 200),
  body text not null check (btrim(body) <> '' and char_length(body) <= 5000),
  updated_at timestamptz not null default now(),
  updated_by uuid references auth.users (id) on delete set null
);
comment on table public.application_mail_templates is
  'The e-mail an applicant may be sent when their application moves to a status (one per status but new, whose acknowledgement is sent on arrival). Placeholders: {greeting} {job_title} {status} {firm_name}. Admins read and edit them.';
comment on column public.application_mail_templates.updated_by is 'The admin who last edited the template (set by the database).';

alter table public.application_mail_templates enable row level security;
revoke all on public.application_mail_templates from public, anon, authenticated;
grant select on public.application_mail_templates to authenticated;
grant update (subject, body) on public.application_mail_templates to authenticated;
grant select, insert, update, delete on public.application_mail_templates to service_role;

create policy "Admins read the status e-mails" on public.application_mail_templates
  for select to authenticated
  using ((select public.is_admin()));

create policy "Admins edit the status e-mails" on public.application_mail_templates
  for update to authenticated
  using ((select public.is_admin()))
  with check ((select public.is_admin()));


-- The first unknown {placeholder} in a text, or null.
create or replace function private.unknown_placeholder(template text) returns text
  language sql immutable set search_path = ''
as $$
  select m[1] from regexp_matches(template, '\{([^{}]*)\}', 'g') m
  where m[1] not in ('greeting', 'job_title', 'status', 'firm_name')
  limit 1
$$;
revoke all on function private.unknown_placeholder(text) from public;

create or replace function private.check_mail_template() returns trigger
  language plpgsql security definer set search_path = ''
as $$
declare
  unknown text := private.unknown_placeholder(new.subject || ' ' || new.body);
begin
  if unknown is not null then
    raise exception 'Unknown placeholder {%}: use {greeting}, {job_title}, {status} or {firm_name}', unknown
      using errcode = '22023';
  end if;
  new.updated_at := now();
  new.updated_by := auth.uid();
  return new;
end;
$$;
revoke all on function private.check_mail_template() from public;
create trigger application_mail_templates_check before insert or update on public.application_mail_templates
  for each row execute function private.check_mail_template();

insert into public.application_mail_templates (status, subject, body) values
  ('reviewed', 'Your application for {job_title}',
   E'{greeting},\n\nThank you for your application for {job_title}. A consultant is now reviewing it and will be in touch about the next steps.\n\nYou can follow your application in the Career Hub.\n\nKind regards,\n{firm_name}'),
  ('shortlisted', 'Your application for {job_title}: shortlisted',
   E'{greeting},\n\nGood news: your application for {job_title} has been shortlisted. Your consultant will contact you shortly to talk through the role and the next steps.\n\nKind regards,\n{firm_name}'),
  ('interviewing', 'Your application for {job_title}: interview stage',
   E'{greeting},\n\nYour application for {job_title} has moved to the interview stage. Your consultant will be in touch with the arrangements.\n\nKind regards,\n{firm_name}'),
  ('offered', 'Your application for {job_title}: an offer',
   E'{greeting},\n\nWe are delighted to let you know that there is an offer for you for {job_title}. Your consultant will call you to go through it.\n\nKind regards,\n{firm_name}'),
  ('placed', 'Congratulations on your new role',
   E'{greeting},\n\nCongratulations on accepting {job_title}. Thank you for working with us, and good luck in your new role.\n\nKind regards,\n{firm_name}'),
  ('not_progressed', 'Your application for {job_title}',
   E'{greeting},\n\nThank you for your interest in {job_title}. After careful consideration we will not be taking your application further for this role.\n\nWe would be glad to keep you in mind for other roles that suit your experience.\n\nKind regards,\n{firm_name}'),
  ('withdrawn', 'Your application for {job_title} has been withdrawn',
   E'{greeting},\n\nAs you asked, we have withdrawn your application for {job_title}. If you change your mind, or would like to hear about other roles, please get in touch.\n\nKind regards,\n{firm_name}');

-- Audited from here on (the defaults above are the migration's, not a change).
create trigger application_mail_templates_audit after insert or update or delete on public.application_mail_templates
  for each row execute function private.audit_desk_change('status', 'subject', 'body');

/* ---------------------------------------------------------------------------------------------------------------
 * The e-mail for one application at a status: the template with its placeholders filled. {greeting} is "Hello" and
 * the applicant's first name only when it is a plausible name (app_private.is_person_name), so no text typed into
 * the public form can ride along; the applicant's address is not proven, so the outbox's caps apply.
 * --------------------------------------------------------------------------------------------------------------- */
create or replace function private.firm_name() returns text
  language sql stable security definer set search_path = ''
as $$
  select coalesce((select s.site_name from public.site_settings s limit 1), app_private.setting('firm_name'), 'The recruitment team')
$$;
revoke all on function private.firm_name() from public;

create or replace function private.send_status_mail(application uuid, to_status public.application_status) returns bigint
  language plpgsql security definer set search_path = ''
as $$
declare
  a record;
  t public.application_mail_templates;
  filled text[];
begin
  select ap.email, ap.first_name, coalesce(j.title, 'the role') as job_title into a
  from public.applications ap left join public.jobs j on j.id = ap.job_id where ap.id = application;
  select * into t from public.application_mail_templates m where m.status = to_status;
  if t.status is null or not (a.email ~ '^[^@\s<>,;]+@[^@\s<>,;]+$' and length(a.email) <= 320) then
    return null;
  end if;
  select array_agg(replace(replace(replace(replace(part,
           '{greeting}', 'Hello' || case when app_private.is_person_name(a.first_name) then ' ' || a.first_name else '' end),
           '{job_title}', a.job_title),
           '{status}', public.plain_application_status(to_status)),
           '{firm_name}', private.firm_name()) order by n)
    into filled from unnest(array[t.subject, t.body]) with ordinality as x (part, n);
  return gateway.enqueue_mail(a.email, app_private.one_line(filled[1]), filled[2]);
end;
$$;
revoke all on function private.send_status_mail(uuid, public.application_status) from public;

/* ---------------------------------------------------------------------------------------------------------------
 * admin_set_application_status(application_ids, status, note, notify)
 *   -> { changed, unchanged, mailed }
 * Moves every listed application to `status` (those already there are left alone and counted as unchanged), adds
 * `note` (when given) to each as an internal note, and with notify = true queues the status e-mail to each changed
 * application's applicant, recorded on its history row. Unknown status, unknown ids, an empty list or more than 500
 * ids: 22023 and nothing changes. Non-admins: 42501.
 * --------------------------------------------------------------------------------------------------------------- */
create or replace function public.admin_set_application_status(
  application_ids uuid[], status text, note text default null, notify boolean default false
) returns json
  language plpgsql volatile security definer set search_path = ''
as $$
declare
  target public.application_status;
  ids uuid[] := array(select distinct x from unnest(application_ids) x where x is not null);
  changed uuid[];
  mailed integer := 0;
  moved_id uuid;
begin
  perform private.require_admin('change an application''s status');
  target := private.application_status_from(status);
  if cardinality(ids) = 0 or cardinality(ids) > 500 then
    perform private.refuse('Choose between 1 and 500 applications');
  end if;
  if exists (select 1 from unnest(ids) x where not exists (select 1 from public.application_pipeline p where p.application_id = x)) then
    perform private.refuse('An application in the list does not exist (it may have been erased)');
  end if;
  if note is not null and (btrim(note) = '' or char_length(note) > 5000) then
    perform private.refuse('A note must have between 1 and 5000 characters');
  end if;
  with moved as (
    update public.application_pipeline p set status = target
    where p.application_id = any (ids) and p.status <> target
    returning p.application_id
  )
  select coalesce(array_agg(m.application_id), '{}') into changed from moved m;
  if note is not null then
    insert into public.desk_notes (application_id, body) select x, btrim(note) from unnest(ids) x;
  end if;
  if notify and target <> 'new' then
    foreach moved_id in array changed loop
      update public.application_status_changes c set mail_id = private.send_status_mail(moved_id, target)
      where c.id = (select max(c2.id) from public.application_status_changes c2 where c2.application_id = moved_id);
      mailed := mailed + 1;
    end loop;
  end if;
  return json_build_object('changed', cardinality(changed), 'unchanged', cardinality(ids) - cardinality(changed),
                           'mailed', mailed);
end;
$$;
revoke all on function public.admin_set_application_status(uuid[], text, text, boolean) from public, anon;
grant execute on function public.admin_set_application_status(uuid[], text, text, boolean) to authenticated;
comment on function public.admin_set_application_status(uuid[], text, text, boolean) is
  'Admins only: moves applications (1-500) to a status in one transaction, with an optional internal note on each and, with notify, the status e-mail to each applicant whose status changed. Returns {changed, unchanged, mailed}.';

/* ---------------------------------------------------------------------------------------------------------------
 * admin_assign_consultant(application_ids, consultant_id) -> number of applications changed. consultant_id null
 * unassigns; it must otherwise be an admin (22023).
 * --------------------------------------------------------------------------------------------------------------- */
create or replace function public.admin_assign_consultant(application_ids uuid[], consultant_id uuid) returns integer
  language plpgsql volatile security definer set search_path = ''
as $$
declare
  ids uuid[] := array(select distinct x from unnest(application_ids) x where x is not null);
  n integer;
begin
  perform private.require_admin('assign a consultant');
  if cardinality(ids) = 0 or cardinality(ids) > 500 then
    perform private.refuse('Choose between 1 and 500 applications');
  end if;
  update public.application_pipeline p set consultant_id = admin_assign_consultant.consultant_id
  where p.application_id = any (ids) and p.consultant_id is distinct from admin_assign_consultant.consultant_id;
  get diagnostics n = row_count;
  return n;
end;
$$;
revoke all on function public.admin_assign_consultant(uuid[], uuid) from public, anon;
grant execute on function public.admin_assign_consultant(uuid[], uuid) to authenticated;
comment on function public.admin_assign_consultant(uuid[], uuid) is
  'Admins only: sets the consultant (an admin, or null to unassign) of 1-500 applications; returns how many changed.';
