-- The firm's desk 3/8: internal notes on an application or an enquiry. Written and read by admins only (author and
-- time set by the database); never shown to the candidate, never in an e-mail, never copied into the audit log
-- (which records that a note was added, not what it says). A note goes with its application or enquiry.
create table public.desk_notes (
  id uuid primary key default gen_random_uuid(),
  application_id uuid references public.applications (id) on delete cascade,
  enquiry_id uuid references public.enquiries (id) on delete cascade,
  author_id uuid default auth.uid() references auth.users (id) on delete set null,
  body text not null check (btrim(body) <> '' and char_length(body) <= 5000),
  created_at timestamptz not null default now(),
  constraint desk_notes_one_subject check (num_nonnulls(application_id, enquiry_id) = 1)
);
comment on table public.desk_notes is
  'Internal notes on an application or an enquiry (exactly one). Admins write and read them; the author (auth.uid()) and time are set by the database. Never shown to candidates.';
comment on column public.desk_notes.author_id is 'The admin who wrote the note (the caller; not settable through the API).';

create index desk_notes_application_idx on public.desk_notes (application_id, created_at) where application_id is not null;
create index desk_notes_enquiry_idx on public.desk_notes (enquiry_id, created_at) where enquiry_id is not null;
create index desk_notes_author_idx on public.desk_notes (author_id);

alter table public.desk_notes enable row level security;
revoke all on public.desk_notes from public, anon, authenticated;
grant select on public.desk_notes to authenticated;
grant insert (application_id, enquiry_id, body) on public.desk_notes to authenticated;
grant select, insert, update, delete on public.desk_notes to service_role;

create policy "Admins read notes" on public.desk_notes
  for select to authenticated
  using ((select public.is_admin()));

create policy "Admins add notes as themselves" on public.desk_notes
  for insert to authenticated
  with check ((select public.is_admin()) and author_id = (select auth.uid()));

create trigger desk_notes_audit after insert on public.desk_notes
  for each row execute function private.audit_desk_change('id', 'application_id', 'enquiry_id', 'author_id');
