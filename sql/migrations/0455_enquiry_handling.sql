-- The firm's desk 6/8: enquiries handled in /admin/enquiries. An enquiry is handled or not, with who handled it and
-- when (set by the database from the caller when an admin switches `handled`); admins search and page them on the
-- server (admin_enquiry_page), export them (admin_enquiry_export) and open one with its notes (admin_enquiry).
-- Visitors still only insert the form's columns; every change is in the audit log.
set local client_min_messages = warning;

alter table public.enquiries
  add column handled boolean not null default false,
  add column handled_at timestamptz,
  add column handled_by uuid references auth.users (id) on delete set null,
  add column updated_at timestamptz not null default now(),
  add constraint enquiries_handled_when check (handled = (handled_at is not null));
comment on column public.enquiries.handled is 'An admin has dealt with the enquiry (admins switch it; handled_at and handled_by follow).';
comment on column public.enquiries.handled_at is 'When the enquiry was marked handled (set by the database).';
comment on column public.enquiries.handled_by is 'The admin who marked it handled (set by the database from the caller).';

create index enquiries_handled_idx on public.enquiries (handled, created_at desc);
create index enquiries_handled_by_idx on public.enquiries (handled_by);

create trigger enquiries_set_updated_at before update on public.enquiries
  for each row execute function private.set_updated_at();

-- Admins switch `handled`, and nothing else of an enquiry.
grant update (handled) on public.enquiries to authenticated;

create policy "Admins mark enquiries handled" on public.enquiries
  for update to authenticated
  using ((select public.is_admin()))
  with check ((select public.is_admin()));

create or replace function private.stamp_enquiry_handling() returns trigger
  language plpgsql security definer set search_path = ''
as $$
begin
  if new.handled and (tg_op = 'INSERT' or not old.handled) then
    new.handled_at := now();
    new.handled_by := auth.uid();
  elsif not new.handled then
    new.handled_at := null;
    new.handled_by := null;
  end if;
  return new;
end;
$$;
revoke all on function private.stamp_enquiry_handling() from public;
create trigger enquiries_stamp_handling before insert or update of handled on public.enquiries
  for each row execute function private.stamp_enquiry_handling();

create trigger enquiries_audit after update or delete on public.enquiries
  for each row execute function private.audit_desk_change('id', 'kind', 'created_at', 'handled', 'handled_by');

/* ---------------------------------------------------------------------------------------------------------------
 * The filtered list: search (name, e-mail, company or message, case-insensitive substring), kind, handled.
 * --------------------------------------------------------------------------------------------------------------- */
create or replace function private.enquiry_rows(search text, wanted_kind text, wanted_handled boolean)
returns table (
  id uuid, created_at timestamptz, kind text, name text, email text, phone text, company text, message text,
  source_page text, handled boolean, handled_at timestamptz, handled_by_name text, notes bigint
)
  language sql stable security definer set search_path = ''
as $$
  select e.id, e.created_at, e.kind, e.name, e.email, e.phone, e.company, e.message, e.source_page, e.handled,
         e.handled_at, private.staff_name(e.handled_by),
         (select count(*) from public.desk_notes n where n.enquiry_id = e.id)
  from public.enquiries e
  where (coalesce(btrim(search), '') = ''
         or e.name ilike private.substring_pattern(search) or e.email ilike private.substring_pattern(search)
         or e.company ilike private.substring_pattern(search) or e.message ilike private.substring_pattern(search))
    and (wanted_kind is null or e.kind = wanted_kind)
    and (wanted_handled is null or e.handled = wanted_handled)
$$;
revoke all on function private.enquiry_rows(text, text, boolean) from public;

-- A kind filter as sent (null/empty for all), or 22023.
create or replace function private.kind_filter(value text) returns text
  language plpgsql immutable set search_path = ''
as $$
begin
  if nullif(btrim(value), '') is null then
    return null;
  end if;
  if btrim(value) not in ('contact', 'hiring-audit', 'client', 'candidate', 'callback', 'other') then
    raise exception 'Unknown kind "%": use one of contact, hiring-audit, client, candidate, callback, other', value
      using errcode = '22023';
  end if;
  return btrim(value);
end;
$$;
revoke all on function private.kind_filter(text) from public;

-- { total, unhandled, matching, counts: {kind: n} (over search and handled), page_size, page_offset, enquiries }
create or replace function public.admin_enquiry_page(
  search text default null, kind text default null, handled boolean default null,
  page_size integer default 25, page_offset integer default 0
) returns json
  language plpgsql stable security definer set search_path = '' set plan_cache_mode = force_custom_plan
as $$
declare
  wanted text;
  size integer := least(greatest(coalesce(page_size, 25), 1), 200);
  skip integer := greatest(coalesce(page_offset, 0), 0);
  result json;
begin
  perform private.require_admin('read enquiries');
  wanted := private.kind_filter(kind);
  with filtered as (
    select * from private.enquiry_rows(search, null, handled)
  ),
  matching as (
    select * from filtered f where wanted is null or f.kind = wanted
  ),
  page as (
    select * from matching m order by m.created_at desc, m.id limit size offset skip
  )
  select json_build_object(
    'total', (select count(*) from public.enquiries),
    'unhandled', (select count(*) from public.enquiries e where not e.handled),
    'matching', (select count(*) from matching),
    'counts', (select coalesce(json_object_agg(k.kind, k.n order by k.kind), '{}')
               from (select f.kind, count(*) as n from filtered f group by f.kind) k),
    'page_size', size,
    'page_offset', skip,
    'enquiries', coalesce((select json_agg(p order by p.created_at desc, p.id) from page p), '[]')
  ) into result;
  return result;
end;
$$;
revoke all on function public.admin_enquiry_page(text, text, boolean, integer, integer) from public, anon;
grant execute on function public.admin_enquiry_page(text, text, boolean, integer, integer) to authenticated;
comment on function public.admin_enquiry_page(text, text, boolean, integer, integer) is
  'Admins only: one page of enquiries (newest first) searched by name, e-mail, company or message, filtered by kind and handled, with counts.';

create or replace function public.admin_enquiry_export(
  search text default null, kind text default null, handled boolean default null
)
returns table (
  received_at timestamptz, enquiry_kind text, name text, email text, phone text, company text, message text,
  source_page text, is_handled boolean, handled_at timestamptz, handled_by text, notes bigint
)
  language plpgsql stable security definer set search_path = '' set plan_cache_mode = force_custom_plan
as $$
declare
  wanted text;
  n bigint;
begin
  perform private.require_admin('export enquiries');
  wanted := private.kind_filter(kind);
  select count(*) into n from private.enquiry_rows(search, wanted, admin_enquiry_export.handled);
  if n > 10000 then
    raise exception 'Too many enquiries to export (%): narrow the filters to at most 10,000', n using errcode = '54000';
  end if;
  return query
    select r.created_at, r.kind, r.name, r.email, r.phone, r.company, r.message, r.source_page, r.handled,
           r.handled_at, r.handled_by_name, r.notes
    from private.enquiry_rows(search, wanted, admin_enquiry_export.handled) r
    order by r.created_at desc, r.id;
end;
$$;
revoke all on function public.admin_enquiry_export(text, text, boolean) from public, anon;
grant execute on function public.admin_enquiry_export(text, text, boolean) to authenticated;
comment on function public.admin_enquiry_export(text, text, boolean) is
  'Admins only: every enquiry of the filtered list (at most 10,000), newest first, for the CSV export.';

-- One enquiry with who handled it and its notes (newest first); null when unknown.
create or replace function public.admin_enquiry(enquiry_id uuid) returns json
  language plpgsql stable security definer set search_path = ''
as $$
declare
  result json;
begin
  perform private.require_admin('read enquiries');
  select json_build_object(
    'id', e.id, 'created_at', e.created_at, 'kind', e.kind, 'name', e.name, 'email', e.email, 'phone', e.phone,
    'company', e.company, 'message', e.message, 'source_page', e.source_page, 'handled', e.handled,
    'handled_at', e.handled_at, 'handled_by', private.staff_name(e.handled_by),
    'notes', coalesce((select json_agg(json_build_object('id', n.id, 'body', n.body, 'created_at', n.created_at,
                         'author', private.staff_name(n.author_id)) order by n.created_at desc, n.id)
                       from public.desk_notes n where n.enquiry_id = e.id), '[]')
  ) into result
  from public.enquiries e where e.id = admin_enquiry.enquiry_id;
  return result;
end;
$$;
revoke all on function public.admin_enquiry(uuid) from public, anon;
grant execute on function public.admin_enquiry(uuid) to authenticated;
comment on function public.admin_enquiry(uuid) is 'Admins only: one enquiry with who handled it and its notes (null when unknown).';
