-- Site schema 5/8: profile_views (one row per public profile page load) and delete_admin_profile_views().

/* ---------------------------------------------------------------------------------------------------------------
 * Table profile_views
 * --------------------------------------------------------------------------------------------------------------- */
create table public.profile_views (
  id uuid primary key default gen_random_uuid(),
  profile_id uuid not null references public.candidate_profiles (id) on delete cascade,
  viewed_at timestamptz not null default now(),
  user_id uuid references auth.users (id) on delete set null,
  user_agent text check (char_length(user_agent) <= 1000),
  referrer text check (char_length(referrer) <= 2000)
);
comment on table public.profile_views is
  'Views of shared candidate profiles (spec profile_views). Anyone records a view of an active profile as themselves (user_id null or their own id); only admins read them.';
comment on column public.profile_views.user_id is 'The signed-in viewer, or null for anonymous visitors. Views by admins are excluded from analytics.';
comment on column public.profile_views.viewed_at is 'Set by the database; clients cannot choose it.';

create index profile_views_profile_id_viewed_at_idx on public.profile_views (profile_id, viewed_at desc);
create index profile_views_viewed_at_idx on public.profile_views (viewed_at desc);
create index profile_views_user_id_idx on public.profile_views (user_id);

alter table public.profile_views enable row level security;

-- Writers may set only these columns (viewed_at and id come from their defaults).
grant insert (profile_id, user_id, user_agent, referrer) on public.profile_views to anon, authenticated;
grant select, delete on public.profile_views to authenticated;
grant select, insert, update, delete on public.profile_views to service_role;

create policy "Visitors record views of active profiles anonymously" on public.profile_views
  for insert to anon
  with check (
    user_id is null
    and exists (select 1 from public.candidate_profiles p where p.id = profile_views.profile_id and p.status = 'active')
  );

create policy "Signed-in users record views of active profiles as themselves" on public.profile_views
  for insert to authenticated
  with check (
    (user_id is null or user_id = (select auth.uid()))
    and exists (select 1 from public.candidate_profiles p where p.id = profile_views.profile_id and p.status = 'active')
  );

create policy "Admins can read every view" on public.profile_views
  for select to authenticated
  using ((select public.is_admin()));

create policy "Admins can delete views made by admins" on public.profile_views
  for delete to authenticated
  using (
    (select public.is_admin())
    and user_id in (select r.user_id from public.user_roles r where r.role = 'admin')
  );

/* ---------------------------------------------------------------------------------------------------------------
 * delete_admin_profile_views(): deletes the views made by admin users and returns how many were deleted.
 * SECURITY INVOKER: the delete policy above limits admins to admins' views (service_role bypasses RLS);
 * other callers get 42501.
 * --------------------------------------------------------------------------------------------------------------- */
create or replace function public.delete_admin_profile_views() returns integer
  language plpgsql volatile set search_path = ''
as $$
declare
  deleted integer;
begin
  if not (public.is_admin() or current_user = 'service_role') then
    raise exception 'only admins can clear admin views' using errcode = '42501';
  end if;
  delete from public.profile_views v
  where v.user_id in (select r.user_id from public.user_roles r where r.role = 'admin');
  get diagnostics deleted = row_count;
  return deleted;
end;
$$;
revoke all on function public.delete_admin_profile_views() from public, anon;
grant execute on function public.delete_admin_profile_views() to authenticated, service_role;
comment on function public.delete_admin_profile_views() is
  'Admins only: deletes every profile view made by a user holding the admin role; returns the number deleted.';
