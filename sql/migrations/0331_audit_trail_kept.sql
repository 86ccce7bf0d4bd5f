-- The audit log keeps who, what and when of every change, whatever is erased later (U-hardening 9).
--  * Deleting a candidate profile erases the personal fields of its earlier entries (UK GDPR erasure, 0230), which
--    also erased what those entries changed: an admin could edit a profile and then delete it to hide the edit.
--    Each entry now records the names of the fields it changed (`changed_fields`) when it is written; erasure keeps
--    them, with the actor, the time, the action and the row's id, and replaces only the values.
--  * The log is append-only for everyone, the database owner included: a trigger refuses DELETE and TRUNCATE, and
--    refuses every UPDATE except that erasure (personal values of a candidate profile's entries, nothing else).
--  * Deleting profile views is recorded (one entry per statement: Clear Admin Views, an admin's DELETE through the
--    API, the retention pass), and so is every deleted application (by the firm, by retention, or with the
--    applicant's account), without the applicant's personal data.
set local client_min_messages = warning;

alter table public.audit_log add column if not exists changed_fields text[];
comment on column public.audit_log.changed_fields is
  'The fields the write changed (UPDATE), or set (INSERT); kept when personal values are erased.';

-- The fields an UPDATE changed, or the non-null fields an INSERT set (updated_at, which every edit touches, aside).
create or replace function private.audit_changed_fields(old_row jsonb, new_row jsonb) returns text[]
language sql immutable set search_path = '' as $$
  select coalesce(array_agg(k order by k), '{}')
  from jsonb_object_keys(coalesce(new_row, '{}')) k
  where k <> 'updated_at'
    and case when old_row is null then new_row -> k <> 'null'::jsonb
             else (old_row -> k) is distinct from (new_row -> k) end
$$;
revoke all on function private.audit_changed_fields(jsonb, jsonb) from public;

-- Entries written before this migration: what they changed, from the rows they kept.
update public.audit_log a set changed_fields = private.audit_changed_fields(a.old_data, a.new_data)
 where a.action in ('INSERT', 'UPDATE') and a.changed_fields is null;

-- The personal fields of a candidate profile's entry, replaced (not removed) so the entry still shows they were set.
create or replace function private.without_personal_fields(data jsonb) returns jsonb
language sql immutable set search_path = '' as $$
  select case when data is null then null
              else data || coalesce((select jsonb_object_agg(k, 'erased') from jsonb_object_keys(data) k
                                      where k in ('name', 'email', 'location', 'details', 'candidate_reference',
                                                  'external_id')), '{}')
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
  insert into public.audit_log (actor_id, actor_email, actor_role, table_name, record_id, action, subject, old_data,
                                new_data, changed_fields)
  values (
    actor,
    (select u.email from auth.users u where u.id = actor),
    coalesce(nullif(current_setting('role', true), 'none'), session_user),
    tg_table_name,
    coalesce(new_row ->> 'id', old_row ->> 'id')::uuid,
    tg_op,
    private.audit_subject(tg_table_name, coalesce(new_row, old_row)),
    old_row,
    new_row,
    case when tg_op <> 'DELETE' then private.audit_changed_fields(old_row, new_row) end
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

/** Append-only ***************************************************************************************************/
-- BEFORE UPDATE: only the erasure above, which changes nothing but personal values of a profile's entries.
create or replace function private.audit_log_append_only() returns trigger
language plpgsql set search_path = '' as $$
begin
  if tg_op = 'UPDATE'
     and old.table_name = 'candidate_profiles'
     and (new.id, new.at, new.actor_id, new.actor_email, new.actor_role, new.table_name, new.record_id, new.action,
          new.subject, new.changed_fields)
         is not distinct from
         (old.id, old.at, old.actor_id, old.actor_email, old.actor_role, old.table_name, old.record_id, old.action,
          old.subject, old.changed_fields)
     and new.old_data is not distinct from private.without_personal_fields(old.old_data)
     and new.new_data is not distinct from private.without_personal_fields(old.new_data) then
    return new;
  end if;
  raise exception 'The audit log cannot be changed (only personal values are erased when a profile is deleted)'
    using errcode = '42501';
end
$$;
revoke all on function private.audit_log_append_only() from public;

drop trigger if exists audit_log_append_only on public.audit_log;
create trigger audit_log_append_only before update or delete on public.audit_log
  for each row execute function private.audit_log_append_only();
drop trigger if exists audit_log_no_truncate on public.audit_log;
create trigger audit_log_no_truncate before truncate on public.audit_log
  for each statement execute function private.audit_log_append_only();

/** Profile views deleted (Clear Admin Views and every other direct DELETE) ***************************************/
-- One entry per statement with the counts.
create or replace function private.audit_profile_views_deleted() returns trigger
language plpgsql security definer set search_path = '' as $$
declare
  n integer;
  n_admin integer;
  n_profiles integer;
  actor uuid := auth.uid();
begin
  -- Views of a profile deleted in the same statement went with it (a cascade): the profile's entry covers them.
  select count(*), count(*) filter (where d.by_admin), count(distinct d.profile_id)
    into n, n_admin, n_profiles from deleted_views d
   where exists (select 1 from public.candidate_profiles p where p.id = d.profile_id);
  if n = 0 then
    return null;
  end if;
  insert into public.audit_log (actor_id, actor_email, actor_role, table_name, record_id, action, subject, old_data)
  values (
    actor,
    (select u.email from auth.users u where u.id = actor),
    coalesce(nullif(current_setting('role', true), 'none'), session_user),
    'profile_views', null, 'DELETE',
    case when n_admin = n then 'Clear Admin Views: ' else '' end
      || n || case when n = 1 then ' view' else ' views' end
      || ' of ' || n_profiles || case when n_profiles = 1 then ' profile' else ' profiles' end,
    jsonb_build_object('views', n, 'admin_views', n_admin, 'profiles', n_profiles));
  return null;
end
$$;
revoke all on function private.audit_profile_views_deleted() from public;

drop trigger if exists profile_views_audit_delete on public.profile_views;
create trigger profile_views_audit_delete after delete on public.profile_views
  referencing old table as deleted_views
  for each statement execute function private.audit_profile_views_deleted();

/** Applications deleted ******************************************************************************************/
-- Who, when, which application and job; none of the applicant's details (erasure must not leave them here). The
-- writer's e-mail is kept only when an admin deleted it (an applicant deleting their account is not named).
create or replace function private.audit_application_deleted() returns trigger
language plpgsql security definer set search_path = '' as $$
declare
  actor uuid := auth.uid();
begin
  insert into public.audit_log (actor_id, actor_email, actor_role, table_name, record_id, action, subject, old_data)
  values (
    actor,
    (select u.email from auth.users u
      where u.id = actor and exists (select 1 from public.user_roles r where r.user_id = u.id and r.role = 'admin')),
    coalesce(nullif(current_setting('role', true), 'none'), session_user),
    'applications', old.id, 'DELETE',
    coalesce((select 'Application for ' || j.title || ' (' || j.job_id || ')' from public.jobs j where j.id = old.job_id),
             'Application'),
    jsonb_build_object('job_id', old.job_id, 'created_at', old.created_at, 'signed_in', old.user_id is not null,
                       'by_the_applicant', actor is not null and actor = old.user_id));
  return null;
end
$$;
revoke all on function private.audit_application_deleted() from public;

drop trigger if exists applications_audit_delete on public.applications;
create trigger applications_audit_delete after delete on public.applications
  for each row execute function private.audit_application_deleted();

comment on table public.audit_log is
  'Admin audit trail written by triggers: writes to featured_jobs, candidate_profiles and user_roles (row before and after, fields changed), deleted applications (no applicant details) and deleted profile views (counts per statement). Append-only: only a deleted profile''s personal values are erased. Admins read it; no API role may write, change or delete it.';
