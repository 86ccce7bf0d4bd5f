-- Site schema 3/8: featured_jobs (curated by admins; the active ones on the home page with their job embedded).

/* ---------------------------------------------------------------------------------------------------------------
 * Table featured_jobs
 * --------------------------------------------------------------------------------------------------------------- */
create table public.featured_jobs (
  id uuid primary key default gen_random_uuid(),
  job_id uuid not null references public.jobs (id) on delete cascade,
  is_active boolean not null default true,
  display_order integer not null check (display_order >= 0),
  custom_excerpt text not null check (btrim(custom_excerpt) <> '' and char_length(custom_excerpt) <= 2000),
  custom_title text check (char_length(custom_title) <= 300),
  custom_company text check (char_length(custom_company) <= 300),
  custom_sector text check (char_length(custom_sector) <= 200),
  custom_location text check (char_length(custom_location) <= 300),
  custom_salary text check (char_length(custom_salary) <= 200),
  custom_type text check (char_length(custom_type) <= 100),
  tags text[] not null default '{}',
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  constraint featured_jobs_job_id_key unique (job_id)
);
comment on table public.featured_jobs is
  'Jobs curated for the home page (spec featured_jobs) with optional display overrides. Public while is_active and the job is active; written by admins.';
comment on column public.featured_jobs.job_id is 'The featured job (jobs.id); embed with select=*,jobs(...). A job is featured at most once.';
comment on column public.featured_jobs.display_order is 'Ascending sort key; defaults to the number of featured jobs at insert time.';
comment on column public.featured_jobs.custom_excerpt is 'Required card text.';
comment on column public.featured_jobs.tags is 'Free tags; always created empty by the admin form.';

create index featured_jobs_active_order_idx on public.featured_jobs (is_active, display_order);
create index featured_jobs_display_order_idx on public.featured_jobs (display_order);

-- display_order defaults to the current count of featured jobs (spec §7 writes, §9). SECURITY DEFINER so the count
-- covers every row whatever the inserting role can see.
create or replace function private.featured_jobs_default_display_order() returns trigger
  language plpgsql security definer set search_path = ''
as $$
begin
  if new.display_order is null then
    new.display_order := (select count(*) from public.featured_jobs);
  end if;
  return new;
end;
$$;
revoke all on function private.featured_jobs_default_display_order() from public;
comment on function private.featured_jobs_default_display_order() is
  'Trigger: a featured job inserted without display_order gets the current number of featured jobs.';

create trigger featured_jobs_default_display_order before insert on public.featured_jobs
  for each row execute function private.featured_jobs_default_display_order();

create trigger featured_jobs_set_updated_at before update on public.featured_jobs
  for each row execute function private.set_updated_at();

alter table public.featured_jobs enable row level security;

grant select on public.featured_jobs to anon;
grant select, insert, update, delete on public.featured_jobs to authenticated;
grant select, insert, update, delete on public.featured_jobs to service_role;

create policy "Anyone can read active featured jobs of active jobs" on public.featured_jobs
  for select to anon
  using (is_active and exists (select 1 from public.jobs j where j.id = featured_jobs.job_id and j.status = 'active'));

create policy "Signed-in users read active featured jobs, admins read all" on public.featured_jobs
  for select to authenticated
  using (
    (select public.is_admin())
    or (is_active and exists (select 1 from public.jobs j where j.id = featured_jobs.job_id and j.status = 'active'))
  );

create policy "Admins can add featured jobs" on public.featured_jobs
  for insert to authenticated
  with check ((select public.is_admin()));

create policy "Admins can update featured jobs" on public.featured_jobs
  for update to authenticated
  using ((select public.is_admin()))
  with check ((select public.is_admin()));

create policy "Admins can remove featured jobs" on public.featured_jobs
  for delete to authenticated
  using ((select public.is_admin()));
