-- Site schema 8/8: the Career Hub's per-user data: cv_documents (CV builder drafts) and saved_jobs. Owner-only.

/* ---------------------------------------------------------------------------------------------------------------
 * Table cv_documents
 * --------------------------------------------------------------------------------------------------------------- */
create table public.cv_documents (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null default auth.uid() references auth.users (id) on delete cascade,
  title text not null default 'My CV' check (btrim(title) <> '' and char_length(title) <= 200),
  data jsonb not null default '{}' check (jsonb_typeof(data) = 'object' and pg_column_size(data) <= 262144),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
comment on table public.cv_documents is
  'CV builder drafts (spec CV draft), several per user; the whole draft (personalInfo, summary, experience, education, skills, step) is in data. Only the owner reads or writes them.';
comment on column public.cv_documents.user_id is 'Owner; defaults to the caller and cannot be changed.';
comment on column public.cv_documents.data is 'The draft as JSON: {personalInfo, summary, experience[], education[], skills, step}.';

create index cv_documents_user_id_updated_at_idx on public.cv_documents (user_id, updated_at desc);

create trigger cv_documents_set_updated_at before update on public.cv_documents
  for each row execute function private.set_updated_at();

alter table public.cv_documents enable row level security;

grant select, delete on public.cv_documents to authenticated;
grant insert (id, user_id, title, data) on public.cv_documents to authenticated;
grant update (title, data) on public.cv_documents to authenticated;
grant select, insert, update, delete on public.cv_documents to service_role;

create policy "Users read their own CVs" on public.cv_documents
  for select to authenticated
  using (user_id = (select auth.uid()));

create policy "Users create CVs for themselves" on public.cv_documents
  for insert to authenticated
  with check (user_id = (select auth.uid()));

create policy "Users update their own CVs" on public.cv_documents
  for update to authenticated
  using (user_id = (select auth.uid()))
  with check (user_id = (select auth.uid()));

create policy "Users delete their own CVs" on public.cv_documents
  for delete to authenticated
  using (user_id = (select auth.uid()));

/* ---------------------------------------------------------------------------------------------------------------
 * Table saved_jobs
 * --------------------------------------------------------------------------------------------------------------- */
create table public.saved_jobs (
  user_id uuid not null default auth.uid() references auth.users (id) on delete cascade,
  job_id uuid not null references public.jobs (id) on delete cascade,
  created_at timestamptz not null default now(),
  primary key (user_id, job_id)
);
comment on table public.saved_jobs is 'Jobs a signed-in candidate saved (Save Job). Only the owner reads or writes them.';

create index saved_jobs_job_id_idx on public.saved_jobs (job_id);

alter table public.saved_jobs enable row level security;

grant select, delete on public.saved_jobs to authenticated;
grant insert (user_id, job_id) on public.saved_jobs to authenticated;
grant select, insert, update, delete on public.saved_jobs to service_role;

create policy "Users read their saved jobs" on public.saved_jobs
  for select to authenticated
  using (user_id = (select auth.uid()));

create policy "Users save active jobs for themselves" on public.saved_jobs
  for insert to authenticated
  with check (
    user_id = (select auth.uid())
    and exists (select 1 from public.jobs j where j.id = saved_jobs.job_id and j.status = 'active')
  );

create policy "Users remove their saved jobs" on public.saved_jobs
  for delete to authenticated
  using (user_id = (select auth.uid()));
