-- Site schema 1/8: helpers shared by every site table, the user_roles table and the admin check.
-- Access model (see sql/README.md): grants decide whether a role reaches a table or column, RLS decides which rows.
-- Nothing is granted by default; every table below lists its grants explicitly.

/* ---------------------------------------------------------------------------------------------------------------
 * Schema `private`: helpers that must not be callable through the data API (only `public` is exposed).
 * --------------------------------------------------------------------------------------------------------------- */
create schema if not exists private;
revoke all on schema private from public;
comment on schema private is 'Site helpers (trigger functions). Not exposed through the data API.';

-- Keeps updated_at current on every UPDATE (BEFORE UPDATE trigger on each site table that has the column).
create or replace function private.set_updated_at() returns trigger
  language plpgsql set search_path = ''
as $$
begin
  new.updated_at := now();
  return new;
end;
$$;
revoke all on function private.set_updated_at() from public;
comment on function private.set_updated_at() is 'Trigger: sets updated_at to now() on update.';

/* ---------------------------------------------------------------------------------------------------------------
 * Table user_roles: which auth user holds which site role. Only 'admin' is checked by the site.
 * Granted from the command line (sql/README.md) or by service_role; never by a user through the API.
 * --------------------------------------------------------------------------------------------------------------- */
create table public.user_roles (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references auth.users (id) on delete cascade,
  role text not null check (role in ('admin')),
  created_at timestamptz not null default now(),
  constraint user_roles_user_id_role_key unique (user_id, role)
);
comment on table public.user_roles is
  'Site roles per auth user (spec user_roles). A row with role admin makes the user an admin. Readable by its own user and by admins; written only by service_role or the database owner.';
comment on column public.user_roles.role is 'The site role; only admin exists today.';

create index user_roles_role_idx on public.user_roles (role);

alter table public.user_roles enable row level security;

revoke all on public.user_roles from public, anon, authenticated;
grant select on public.user_roles to authenticated;
grant select, insert, update, delete on public.user_roles to service_role;

/* ---------------------------------------------------------------------------------------------------------------
 * is_admin(): does the calling user hold the admin role?
 * SECURITY DEFINER so policies on user_roles itself can call it without recursion; search_path pinned to ''
 * and every name schema-qualified. Not executable by anon (no anon policy needs it).
 * --------------------------------------------------------------------------------------------------------------- */
create or replace function public.is_admin() returns boolean
  language sql stable security definer set search_path = ''
as $$
  select exists (
    select 1 from public.user_roles r
    where r.user_id = (select auth.uid()) and r.role = 'admin'
  )
$$;
revoke all on function public.is_admin() from public, anon;
grant execute on function public.is_admin() to authenticated, service_role;
comment on function public.is_admin() is
  'True when the caller (auth.uid()) has a user_roles row with role admin. Used by the admin policies.';

create policy "Users can read their own roles" on public.user_roles
  for select to authenticated
  using (user_id = (select auth.uid()));

create policy "Admins can read every role" on public.user_roles
  for select to authenticated
  using ((select public.is_admin()));
