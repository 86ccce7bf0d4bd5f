-- Site schema 6/8: applications (the job page's application dialog). Anyone may submit; only admins read them.

/* ---------------------------------------------------------------------------------------------------------------
 * Table applications
 * --------------------------------------------------------------------------------------------------------------- */
create table public.applications (
  id uuid primary key default gen_random_uuid(),
  job_id uuid references public.jobs (id) on delete set null,
  first_name text not null check (btrim(first_name) <> '' and char_length(first_name) <= 200),
  last_name text not null check (btrim(last_name) <> '' and char_length(last_name) <= 200),
  email text not null check (char_length(email) <= 320 and email ~ '^[^@[:space:]]+@[^@[:space:]]+\.[^@[:space:]]+$'),
  phone text not null check (btrim(phone) <> '' and char_length(phone) <= 50),
  cover_letter text check (char_length(cover_letter) <= 10000),
  cv_object text not null check (
    btrim(cv_object) <> '' and char_length(cv_object) <= 500 and cv_object !~ '(^/|\.\./|^\.\.$)'
  ),
  privacy_consent boolean not null check (privacy_consent),
  created_at timestamptz not null default now()
);
comment on table public.applications is
  'Job applications (spec application form). Anyone submits one for an active job; nobody but admins reads them back.';
comment on column public.applications.job_id is 'The job applied for; set null if the job is later deleted (the application is kept).';
comment on column public.applications.cv_object is 'Object name of the uploaded CV in the storage bucket cvs.';
comment on column public.applications.privacy_consent is 'The applicant accepted the privacy notice; must be true.';

create index applications_job_id_idx on public.applications (job_id);
create index applications_created_at_idx on public.applications (created_at desc);

alter table public.applications enable row level security;

-- Submitters may set only the form's columns; no SELECT for anon, and authenticated reads are admin-only (RLS).
grant insert (job_id, first_name, last_name, email, phone, cover_letter, cv_object, privacy_consent)
  on public.applications to anon, authenticated;
grant select on public.applications to authenticated;
grant select, insert, update, delete on public.applications to service_role;

create policy "Anyone can apply to an active job" on public.applications
  for insert to anon, authenticated
  with check (exists (select 1 from public.jobs j where j.id = applications.job_id and j.status = 'active'));

create policy "Admins can read applications" on public.applications
  for select to authenticated
  using ((select public.is_admin()));
