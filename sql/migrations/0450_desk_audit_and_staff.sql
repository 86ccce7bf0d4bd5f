-- The firm's desk 1/8: what every desk table shares. Its audit trigger (every change to application progress,
-- notes, enquiry handling, consents, client links and mail templates is one public.audit_log row that keeps only the
-- columns named in the trigger, never a note's text, a name or an address: the log is append-only and outlives
-- erasure, 0331), the admin check that refuses with 42501, and the list of admins a consultant is chosen from.
set local client_min_messages = warning;

/* ---------------------------------------------------------------------------------------------------------------
 * Refusals
 * --------------------------------------------------------------------------------------------------------------- */
-- Raises 42501 (HTTP 401/403 through the data API) unless the caller holds the admin role.
create or replace function private.require_admin(action text) returns void
  language plpgsql stable set search_path = ''
as $$
begin
  if not public.is_admin() then
    raise exception 'only admins can %', action using errcode = '42501';
  end if;
end;
$$;
revoke all on function private.require_admin(text) from public;
comment on function private.require_admin(text) is 'Raises 42501 "only admins can <action>" unless the caller is an admin.';

-- Raises 22023 (HTTP 400) with a message the admin area shows as it is.
create or replace function private.refuse(message text) returns void
  language plpgsql immutable set search_path = ''
as $$
begin
  raise exception '%', message using errcode = '22023';
end;
$$;
revoke all on function private.refuse(text) from public;

-- A search term as an ILIKE pattern that matches it as a substring: % _ and \ match themselves (as in 0235).
create or replace function private.substring_pattern(search text) returns text
  language sql immutable set search_path = ''
as $$
  select '%' || replace(replace(replace(coalesce(btrim(search), ''), '\', '\\'), '%', '\%'), '_', '\_') || '%'
$$;
revoke all on function private.substring_pattern(text) from public;

/* ---------------------------------------------------------------------------------------------------------------
 * The audit trigger of the desk's tables. TG_ARGV: the columns whose values the log keeps (the rest of the row is
 * never copied: notes, cover letters, names and addresses stay out of the log, which is append-only and outlives
 * erasure: 0331). An UPDATE that changes none of them is not logged; changed_fields names those it changed. The
 * subject is a label without personal data: the job applied for, an enquiry's kind and day, a candidate ID.
 * --------------------------------------------------------------------------------------------------------------- */
create or replace function private.desk_audit_subject(table_name text, data jsonb) returns text
  language plpgsql stable security definer set search_path = ''
as $$
begin
  return case table_name
    when 'application_pipeline' then coalesce((
      select 'Application for ' || j.title || coalesce(' (' || j.job_id || ')', '')
      from public.applications a join public.jobs j on j.id = a.job_id
      where a.id = (data ->> 'application_id')::uuid), 'Application')
    when 'enquiries' then 'Enquiry (' || (data ->> 'kind') || ') of '
      || to_char(((data ->> 'created_at')::timestamptz) at time zone 'Europe/London', 'DD Mon YYYY')
    when 'desk_notes' then case when data ->> 'application_id' is not null then 'note on an application'
                                else 'note on an enquiry' end
    when 'profile_consents' then (
      select p.candidate_id from public.candidate_profiles p where p.id = (data ->> 'profile_id')::uuid)
    when 'profile_client_links' then (
      select p.candidate_id || ' → ' || (data ->> 'client_company')
      from public.candidate_profiles p where p.id = (data ->> 'profile_id')::uuid)
    when 'application_mail_templates' then 'status e-mail: ' || (data ->> 'status')
    else null
  end;
end;
$$;
revoke all on function private.desk_audit_subject(text, jsonb) from public;

create or replace function private.audit_desk_change() returns trigger
  language plpgsql security definer set search_path = ''
as $$
declare
  kept text[] := tg_argv;
  old_row jsonb := case when tg_op in ('UPDATE', 'DELETE') then to_jsonb(old) end;
  new_row jsonb := case when tg_op in ('INSERT', 'UPDATE') then to_jsonb(new) end;
  old_kept jsonb;
  new_kept jsonb;
  key_column text := case tg_table_name when 'application_pipeline' then 'application_id'
                                        when 'application_mail_templates' then null else 'id' end;
  actor uuid := auth.uid();
begin
  select jsonb_object_agg(k, old_row -> k) into old_kept from unnest(kept) k where old_row is not null;
  select jsonb_object_agg(k, new_row -> k) into new_kept from unnest(kept) k where new_row is not null;
  if tg_op = 'UPDATE' and old_kept is not distinct from new_kept then
    return null;
  end if;
  insert into public.audit_log (actor_id, actor_email, actor_role, table_name, record_id, action, subject, old_data,
                                new_data, changed_fields)
  values (
    actor,
    (select u.email from auth.users u where u.id = actor),
    coalesce(nullif(current_setting('role', true), 'none'), session_user),
    tg_table_name,
    (coalesce(new_row, old_row) ->> key_column)::uuid,
    tg_op,
    private.desk_audit_subject(tg_table_name, coalesce(new_row, old_row)),
    old_kept,
    new_kept,
    case when tg_op <> 'DELETE' then private.audit_changed_fields(old_kept, new_kept) end
  );
  return null;
end;
$$;
revoke all on function private.audit_desk_change() from public;
comment on function private.audit_desk_change() is
  'Trigger: records a change to a desk table in public.audit_log, keeping only the columns named as trigger arguments (never personal data).';

/* ---------------------------------------------------------------------------------------------------------------
 * admin_staff(): the admins, as the people a consultant is chosen from and the names the desk shows for authors.
 * --------------------------------------------------------------------------------------------------------------- */
create or replace function private.staff_name(user_id uuid) returns text
  language sql stable security definer set search_path = ''
as $$
  select coalesce(nullif(btrim(u.raw_user_meta_data ->> 'full_name'), ''), u.email) from auth.users u where u.id = user_id
$$;
revoke all on function private.staff_name(uuid) from public;

create or replace function public.admin_staff()
returns table (id uuid, email text, name text)
  language plpgsql stable security definer set search_path = ''
as $$
begin
  perform private.require_admin('list the staff');
  return query
    select u.id, u.email::text, private.staff_name(u.id)
    from auth.users u
    where exists (select 1 from public.user_roles r where r.user_id = u.id and r.role = 'admin')
    order by private.staff_name(u.id), u.id;
end;
$$;
revoke all on function public.admin_staff() from public, anon;
grant execute on function public.admin_staff() to authenticated;
comment on function public.admin_staff() is
  'Admins only: every admin (id, e-mail, name from the full_name metadata, else the e-mail), for the consultant picker.';
