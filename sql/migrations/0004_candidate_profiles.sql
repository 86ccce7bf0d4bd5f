-- Site schema 4/8: candidate_profiles (anonymised profiles admins share with clients by link).
-- Private fields (name, email, location, source, external_id, timestamps) are protected by COLUMN grants: anon and
-- authenticated may select only the public columns, so no filter, order, embedding or `select=*` reaches them.
-- Admins read the private fields through public.admin_candidate_profiles().

/* ---------------------------------------------------------------------------------------------------------------
 * Table candidate_profiles
 * --------------------------------------------------------------------------------------------------------------- */
create table public.candidate_profiles (
  id uuid primary key default gen_random_uuid(),
  candidate_id text not null unique check (btrim(candidate_id) <> '' and char_length(candidate_id) <= 100),
  name text not null check (btrim(name) <> '' and char_length(name) <= 300),
  email text check (char_length(email) <= 320),
  location text check (char_length(location) <= 300),
  job_title text check (char_length(job_title) <= 300),
  candidate_reference text check (char_length(candidate_reference) <= 300),
  details text check (char_length(details) <= 20000),
  -- 16 random bytes = 128 bits, hex-encoded (32 characters); unrelated to candidate_id.
  slug text not null unique default encode(extensions.gen_random_bytes(16), 'hex')
    check (slug ~ '^[A-Za-z0-9_-]{22,128}$'),
  status text not null default 'active' check (status in ('active', 'inactive')),
  source text check (char_length(source) <= 100),
  external_id text unique check (btrim(external_id) <> ''),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
comment on table public.candidate_profiles is
  'Anonymised candidate profiles shared with clients at /profile/{slug} (spec candidate_profiles). The public sees only candidate_id, job_title, candidate_reference, details, slug (and id, status) of active profiles; name, email, location, source and external_id are admin-only.';
comment on column public.candidate_profiles.candidate_id is 'Human reference, CAND-style; read-only after creation in the admin form.';
comment on column public.candidate_profiles.name is 'Internal only: never granted to anon or authenticated.';
comment on column public.candidate_profiles.email is 'Internal only: never granted to anon or authenticated.';
comment on column public.candidate_profiles.location is 'Internal only: never granted to anon or authenticated.';
comment on column public.candidate_profiles.slug is 'Share link token: 128 random bits (default), separate from candidate_id.';
comment on column public.candidate_profiles.status is 'active (link works) or inactive (link shows Profile Not Found).';
comment on column public.candidate_profiles.source is 'Where the profile came from: manual (admin form) or an import.';

create index candidate_profiles_status_idx on public.candidate_profiles (status);
create index candidate_profiles_created_at_idx on public.candidate_profiles (created_at desc);

create trigger candidate_profiles_set_updated_at before update on public.candidate_profiles
  for each row execute function private.set_updated_at();

alter table public.candidate_profiles enable row level security;

-- Public columns only: a select, filter or order on any other column is "permission denied" (42501).
grant select (id, candidate_id, job_title, candidate_reference, details, slug, status)
  on public.candidate_profiles to anon, authenticated;
-- Admin writes (rows restricted by the policies below). RETURNING may only name the public columns.
grant insert, update, delete on public.candidate_profiles to authenticated;
grant select, insert, update, delete on public.candidate_profiles to service_role;

create policy "Anyone can read active profiles" on public.candidate_profiles
  for select to anon
  using (status = 'active');

create policy "Signed-in users read active profiles, admins read all" on public.candidate_profiles
  for select to authenticated
  using (status = 'active' or (select public.is_admin()));

create policy "Admins can create profiles" on public.candidate_profiles
  for insert to authenticated
  with check ((select public.is_admin()));

create policy "Admins can update profiles" on public.candidate_profiles
  for update to authenticated
  using ((select public.is_admin()))
  with check ((select public.is_admin()));

create policy "Admins can delete profiles" on public.candidate_profiles
  for delete to authenticated
  using ((select public.is_admin()));

/* ---------------------------------------------------------------------------------------------------------------
 * admin_candidate_profiles(): the admin path to every profile with its private fields.
 * supabase-js: rpc('admin_candidate_profiles').select('*').order('created_at', {ascending: false}), with
 * .or('name.ilike.*x*,email.ilike.*x*,location.ilike.*x*') for the search box. Non-admins get 42501.
 * --------------------------------------------------------------------------------------------------------------- */
create or replace function public.admin_candidate_profiles() returns setof public.candidate_profiles
  language plpgsql stable security definer set search_path = ''
as $$
begin
  if not public.is_admin() then
    raise exception 'only admins can read candidate profiles with private fields'
      using errcode = '42501';
  end if;
  return query select * from public.candidate_profiles;
end;
$$;
revoke all on function public.admin_candidate_profiles() from public, anon;
grant execute on function public.admin_candidate_profiles() to authenticated;
comment on function public.admin_candidate_profiles() is
  'Admins only: every candidate profile with its private fields (name, email, location, source, ...).';
