-- Site schema 7/8: enquiries (contact and client pages). Anyone may submit; only admins read them.

/* ---------------------------------------------------------------------------------------------------------------
 * Table enquiries
 * --------------------------------------------------------------------------------------------------------------- */
create table public.enquiries (
  id uuid primary key default gen_random_uuid(),
  kind text not null default 'contact'
    check (kind in ('contact', 'hiring-audit', 'client', 'candidate', 'callback', 'other')),
  name text not null check (btrim(name) <> '' and char_length(name) <= 200),
  email text not null check (char_length(email) <= 320 and email ~ '^[^@[:space:]]+@[^@[:space:]]+\.[^@[:space:]]+$'),
  phone text check (char_length(phone) <= 50),
  company text check (char_length(company) <= 300),
  message text check (char_length(message) <= 10000),
  source_page text check (char_length(source_page) <= 500),
  created_at timestamptz not null default now()
);
comment on table public.enquiries is
  'Enquiries from the contact and client pages (hiring audit, client, callback, ...). Anyone submits; only admins read them.';
comment on column public.enquiries.kind is 'contact, hiring-audit, client, candidate, callback or other.';
comment on column public.enquiries.source_page is 'The site path the form was sent from, e.g. /clients/developer-investor.';

create index enquiries_created_at_idx on public.enquiries (created_at desc);
create index enquiries_kind_idx on public.enquiries (kind);

alter table public.enquiries enable row level security;

grant insert (kind, name, email, phone, company, message, source_page) on public.enquiries to anon, authenticated;
grant select on public.enquiries to authenticated;
grant select, insert, update, delete on public.enquiries to service_role;

-- Every visitor may send an enquiry; the CHECK constraints above validate it. (Not WITH CHECK (true): the lint
-- rejects permissive write policies, and the row must at least carry a name and e-mail.)
create policy "Anyone can send an enquiry" on public.enquiries
  for insert to anon, authenticated
  with check (btrim(name) <> '' and email is not null);

create policy "Admins can read enquiries" on public.enquiries
  for select to authenticated
  using ((select public.is_admin()));
