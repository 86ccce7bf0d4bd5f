-- Site schema 2/8: jobs (imported from the CRM by service_role; read by everyone while active, by admins always).

/* ---------------------------------------------------------------------------------------------------------------
 * Table jobs
 * --------------------------------------------------------------------------------------------------------------- */
create table public.jobs (
  id uuid primary key default gen_random_uuid(),
  job_id text unique check (btrim(job_id) <> ''),
  status text not null default 'active' check (status in ('active', 'closed', 'draft')),
  posted_date timestamptz not null default now(),
  closing_date date,
  title text not null check (btrim(title) <> '' and char_length(title) <= 300),
  company text not null check (btrim(company) <> '' and char_length(company) <= 300),
  location text check (char_length(location) <= 300),
  salary text check (char_length(salary) <= 200),
  salary_min integer check (salary_min >= 0),
  salary_max integer check (salary_max >= 0),
  type text check (btrim(type) <> '' and char_length(type) <= 100),
  sector text check (char_length(sector) <= 200),
  description text,
  requirements text,
  benefits text[] not null default '{}',
  client_type text check (btrim(client_type) <> '' and char_length(client_type) <= 100),
  external_id text unique check (btrim(external_id) <> ''),
  hero_image text,
  consultant_name text,
  consultant_email text,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  constraint jobs_salary_range_check check (salary_min is null or salary_max is null or salary_min <= salary_max)
);
comment on table public.jobs is
  'Vacancies (spec jobs). Imported from the CRM by service_role. Public while status = active; admins read every status.';
comment on column public.jobs.job_id is 'Human job reference shown on the job page, e.g. PPR-1042 (spec jobId).';
comment on column public.jobs.status is 'active (public), closed or draft (admin only).';
comment on column public.jobs.salary is 'Display text, e.g. £85,000 - £95,000 or Competitive.';
comment on column public.jobs.salary_min is 'GBP per year, for JobPosting baseSalary; null when unknown.';
comment on column public.jobs.salary_max is 'GBP per year, for JobPosting baseSalary; null when unknown.';
comment on column public.jobs.closing_date is 'Last day to apply (JobPosting validThrough).';
comment on column public.jobs.client_type is 'Type of client shown in the sidebar: confidential, named, ... (spec clientType).';
comment on column public.jobs.external_id is 'The CRM''s id; imports upsert on it.';
comment on column public.jobs.hero_image is 'Image URL or path for the job hero (spec heroImage).';

-- The public list and single read filter status and order by posted_date desc.
create index jobs_status_posted_date_idx on public.jobs (status, posted_date desc);
create index jobs_posted_date_idx on public.jobs (posted_date desc);

create trigger jobs_set_updated_at before update on public.jobs
  for each row execute function private.set_updated_at();

alter table public.jobs enable row level security;

grant select on public.jobs to anon, authenticated;
grant select, insert, update, delete on public.jobs to service_role;

create policy "Anyone can read active jobs" on public.jobs
  for select to anon
  using (status = 'active');

create policy "Signed-in users read active jobs, admins read all" on public.jobs
  for select to authenticated
  using (status = 'active' or (select public.is_admin()));
