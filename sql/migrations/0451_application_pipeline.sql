-- The firm's desk 2/8: where each application stands. An application's progress lives beside it in
-- public.application_pipeline (one row per application, made when it arrives): its status on the pipeline
-- New → Reviewed → Shortlisted → Interviewing → Offered → Placed, or Not progressed / Withdrawn, and the consultant
-- (an admin) looking after it. Admins read it; nobody else does — candidates learn only the plain status
-- (public.plain_application_status) through my_applications(). Every status change is kept in
-- public.application_status_changes (who, when, from, to, and the e-mail sent, if any) by a trigger, whoever makes
-- it; the audit log records every change too. Rows go with their application (erasure, retention, account deletion).
set local client_min_messages = warning;

create type public.application_status as enum (
  'new', 'reviewed', 'shortlisted', 'interviewing', 'offered', 'placed', 'not_progressed', 'withdrawn');
comment on type public.application_status is
  'An application''s place on the firm''s pipeline: new → reviewed → shortlisted → interviewing → offered → placed, or not_progressed / withdrawn.';

-- What the candidate sees of a status: Received, In review, Interviewing, Offer, Placed, Not progressed, Withdrawn.
create or replace function public.plain_application_status(status public.application_status) returns text
  language sql immutable set search_path = ''
as $$
  select case status
    when 'new' then 'Received'
    when 'reviewed' then 'In review'
    when 'shortlisted' then 'In review'
    when 'interviewing' then 'Interviewing'
    when 'offered' then 'Offer'
    when 'placed' then 'Placed'
    when 'not_progressed' then 'Not progressed'
    when 'withdrawn' then 'Withdrawn'
  end
$$;
revoke all on function public.plain_application_status(public.application_status) from public;
grant execute on function public.plain_application_status(public.application_status) to authenticated, service_role;
comment on function public.plain_application_status(public.application_status) is
  'The status a candidate sees for a firm''s status: Received, In review (reviewed, shortlisted), Interviewing, Offer, Placed, Not progressed, Withdrawn.';

-- A status named in text (as the admin area and the API send it), or 22023 naming the statuses there are.
create or replace function private.application_status_from(value text) returns public.application_status
  language plpgsql immutable set search_path = ''
as $$
begin
  if value is null or not value = any (enum_range(null::public.application_status)::text[]) then
    raise exception 'Unknown status "%": use one of %', coalesce(value, ''),
      array_to_string(enum_range(null::public.application_status)::text[], ', ') using errcode = '22023';
  end if;
  return value::public.application_status;
end;
$$;
revoke all on function private.application_status_from(text) from public;

/* ---------------------------------------------------------------------------------------------------------------
 * Table application_pipeline
 * --------------------------------------------------------------------------------------------------------------- */
create table public.application_pipeline (
  application_id uuid primary key references public.applications (id) on delete cascade,
  status public.application_status not null default 'new',
  status_changed_at timestamptz not null default now(),
  consultant_id uuid references auth.users (id) on delete set null,
  updated_at timestamptz not null default now()
);
comment on table public.application_pipeline is
  'Where each application stands (one row per application, made on arrival): status and consultant. Admins read it; changes go through admin_set_application_status / admin_assign_consultant.';
comment on column public.application_pipeline.status is 'The firm''s status; candidates see only plain_application_status(status).';
comment on column public.application_pipeline.status_changed_at is 'When the status last changed (set by the database).';
comment on column public.application_pipeline.consultant_id is 'The admin looking after the application (must hold the admin role when assigned).';

create index application_pipeline_status_idx on public.application_pipeline (status);
create index application_pipeline_consultant_idx on public.application_pipeline (consultant_id);

create trigger application_pipeline_set_updated_at before update on public.application_pipeline
  for each row execute function private.set_updated_at();

alter table public.application_pipeline enable row level security;
revoke all on public.application_pipeline from public, anon, authenticated;
grant select on public.application_pipeline to authenticated;
grant select, insert, update, delete on public.application_pipeline to service_role;

create policy "Admins read where applications stand" on public.application_pipeline
  for select to authenticated
  using ((select public.is_admin()));

-- Rules for every writer (service_role and scripts too): the status change time is the database's, and a
-- consultant must be an admin when assigned.
create or replace function private.check_application_pipeline() returns trigger
  language plpgsql security definer set search_path = ''
as $$
begin
  if tg_op = 'INSERT' or new.status is distinct from old.status then
    new.status_changed_at := now();
  end if;
  if new.consultant_id is not null and (tg_op = 'INSERT' or new.consultant_id is distinct from old.consultant_id)
     and not exists (select 1 from public.user_roles r where r.user_id = new.consultant_id and r.role = 'admin') then
    raise exception 'The consultant must be one of the firm''s admins' using errcode = '22023';
  end if;
  return new;
end;
$$;
revoke all on function private.check_application_pipeline() from public;
create trigger application_pipeline_check before insert or update on public.application_pipeline
  for each row execute function private.check_application_pipeline();

create trigger application_pipeline_audit after update on public.application_pipeline
  for each row execute function private.audit_desk_change('application_id', 'status', 'consultant_id');

-- Every application gets its row when it arrives (and the ones already received, now).
create or replace function private.start_application_pipeline() returns trigger
  language plpgsql security definer set search_path = ''
as $$
begin
  insert into public.application_pipeline (application_id) values (new.id) on conflict do nothing;
  return null;
end;
$$;
revoke all on function private.start_application_pipeline() from public;
create trigger application_pipeline_start after insert on public.applications
  for each row execute function private.start_application_pipeline();

insert into public.application_pipeline (application_id, status_changed_at)
select a.id, a.created_at from public.applications a on conflict do nothing;

/* ---------------------------------------------------------------------------------------------------------------
 * Table application_status_changes: the history of every status change.
 * --------------------------------------------------------------------------------------------------------------- */
create table public.application_status_changes (
  id bigint generated always as identity primary key,
  application_id uuid not null references public.applications (id) on delete cascade,
  from_status public.application_status not null,
  to_status public.application_status not null,
  changed_at timestamptz not null default now(),
  changed_by uuid references auth.users (id) on delete set null,
  mail_id bigint
);
comment on table public.application_status_changes is
  'Every change of an application''s status (written by a trigger on application_pipeline): from, to, who, when, and the outbox id of the e-mail sent to the applicant, if one was. Admins read it.';
comment on column public.application_status_changes.mail_id is 'gateway.outbox id of the status e-mail, when the admin chose to send one.';

create index application_status_changes_application_idx on public.application_status_changes (application_id, changed_at);

alter table public.application_status_changes enable row level security;
revoke all on public.application_status_changes from public, anon, authenticated;
grant select on public.application_status_changes to authenticated;
grant select, insert, update, delete on public.application_status_changes to service_role;

create policy "Admins read the status history" on public.application_status_changes
  for select to authenticated
  using ((select public.is_admin()));

create or replace function private.record_status_change() returns trigger
  language plpgsql security definer set search_path = ''
as $$
begin
  if new.status is distinct from old.status then
    insert into public.application_status_changes (application_id, from_status, to_status, changed_by)
    values (new.application_id, old.status, new.status, auth.uid());
  end if;
  return null;
end;
$$;
revoke all on function private.record_status_change() from public;
create trigger application_pipeline_history after update of status on public.application_pipeline
  for each row execute function private.record_status_change();
