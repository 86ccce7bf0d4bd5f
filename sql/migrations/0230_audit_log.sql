-- Admin area 1/6: the audit log. Every write to featured_jobs, candidate_profiles and user_roles is recorded by the
-- database itself (AFTER row triggers): who (auth user, e-mail, database role), when, what (table, row, action, a
-- readable subject) and the row before and after. Admins read it through the API; nobody can change or delete it
-- through the API (no INSERT/UPDATE/DELETE/TRUNCATE grant to any API role; the trigger writes as the owner).

/* ---------------------------------------------------------------------------------------------------------------
 * Table audit_log
 * --------------------------------------------------------------------------------------------------------------- */
create table public.audit_log (
  id bigint generated always as identity primary key,
  at timestamptz not null default now(),
  actor_id uuid,
  actor_email text,
  actor_role text not null,
  table_name text not null,
  record_id uuid,
  action text not null check (action in ('INSERT', 'UPDATE', 'DELETE')),
  subject text,
  old_data jsonb,
  new_data jsonb
);
comment on table public.audit_log is
  'Admin audit trail written by triggers on featured_jobs, candidate_profiles and user_roles. Admins read it; no API role may write, change or delete it.';
comment on column public.audit_log.actor_id is 'auth.uid() of the writer; null for the database owner, scripts and service_role without a user.';
comment on column public.audit_log.actor_email is 'The writer''s e-mail at the time of the write (auth.users).';
comment on column public.audit_log.actor_role is 'The database role the write ran as (authenticated, service_role, or the session user for scripts).';
comment on column public.audit_log.subject is 'A readable name for the row: the featured job''s title, the profile''s candidate_id, the role holder''s e-mail.';
comment on column public.audit_log.old_data is 'The row before the write (UPDATE, DELETE).';
comment on column public.audit_log.new_data is 'The row after the write (INSERT, UPDATE).';

create index audit_log_at_idx on public.audit_log (at desc, id desc);
create index audit_log_table_record_idx on public.audit_log (table_name, record_id);

alter table public.audit_log enable row level security;

revoke all on public.audit_log from public, anon, authenticated, service_role;
grant select on public.audit_log to authenticated, service_role;

create policy "Admins can read the audit log" on public.audit_log
  for select to authenticated
  using ((select public.is_admin()));

/* ---------------------------------------------------------------------------------------------------------------
 * The trigger function. SECURITY DEFINER: it writes the log as the owner whatever role made the change.
 * --------------------------------------------------------------------------------------------------------------- */
create or replace function private.audit_subject(table_name text, data jsonb) returns text
  language plpgsql stable security definer set search_path = ''
as $$
begin
  if data is null then
    return null;
  end if;
  return case table_name
    when 'featured_jobs' then coalesce(
      nullif(data ->> 'custom_title', ''),
      (select j.title from public.jobs j where j.id = (data ->> 'job_id')::uuid),
      data ->> 'job_id')
    when 'candidate_profiles' then data ->> 'candidate_id'
    when 'user_roles' then coalesce(
      (select u.email from auth.users u where u.id = (data ->> 'user_id')::uuid), data ->> 'user_id')
        || ' (' || (data ->> 'role') || ')'
    else null
  end;
end;
$$;
revoke all on function private.audit_subject(text, jsonb) from public;
comment on function private.audit_subject(text, jsonb) is 'A readable name for an audited row (see audit_log.subject).';

-- A deleted candidate profile leaves no personal data in the log (the UK GDPR erasure that retention and admins
-- perform must not survive here): its entries keep who did what and when, and the candidate_id, but lose the name,
-- e-mail, location, details, reference and external id.
create or replace function private.without_personal_fields(data jsonb) returns jsonb
  language sql immutable set search_path = ''
as $$
  select case when data is null then null
              else (data - array['name', 'email', 'location', 'details', 'candidate_reference', 'external_id'])
                   || '{"personal_data": "erased"}'::jsonb end
$$;
revoke all on function private.without_personal_fields(jsonb) from public;

create or replace function private.audit_row_change() returns trigger
  language plpgsql security definer set search_path = ''
as $$
declare
  old_row jsonb := case when tg_op in ('UPDATE', 'DELETE') then to_jsonb(old) end;
  new_row jsonb := case when tg_op in ('INSERT', 'UPDATE') then to_jsonb(new) end;
  actor uuid := auth.uid();
begin
  if tg_op = 'UPDATE' and old_row = new_row then
    return null;
  end if;
  insert into public.audit_log (actor_id, actor_email, actor_role, table_name, record_id, action, subject, old_data, new_data)
  values (
    actor,
    (select u.email from auth.users u where u.id = actor),
    coalesce(nullif(current_setting('role', true), 'none'), session_user),
    tg_table_name,
    coalesce(new_row ->> 'id', old_row ->> 'id')::uuid,
    tg_op,
    private.audit_subject(tg_table_name, coalesce(new_row, old_row)),
    old_row,
    new_row
  );
  if tg_table_name = 'candidate_profiles' and tg_op = 'DELETE' then
    update public.audit_log a
       set old_data = private.without_personal_fields(a.old_data), new_data = private.without_personal_fields(a.new_data)
     where a.table_name = 'candidate_profiles' and a.record_id = old.id;
  end if;
  return null;
end;
$$;
revoke all on function private.audit_row_change() from public;
comment on function private.audit_row_change() is
  'Trigger: records an INSERT, UPDATE or DELETE in public.audit_log with the writer, time and the row before and after.';

create trigger featured_jobs_audit after insert or update or delete on public.featured_jobs
  for each row execute function private.audit_row_change();
create trigger candidate_profiles_audit after insert or update or delete on public.candidate_profiles
  for each row execute function private.audit_row_change();
create trigger user_roles_audit after insert or update or delete on public.user_roles
  for each row execute function private.audit_row_change();
