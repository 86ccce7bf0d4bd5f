-- Benchmark fixtures (performance.md §7): a catalogue readable by anon through RLS (100,000 items, each with two
-- notes: the to-many embed), an insert target, an RPC.
create table public.categories (
  id int primary key,
  name text not null
);
create table public.items (
  id int primary key,
  name text not null,
  price numeric(10, 2) not null,
  category_id int not null references public.categories (id),
  published boolean not null default true
);
create index on public.items (category_id);
create table public.bench_notes (
  id int primary key,
  item_id int not null references public.items (id),
  body text not null
);
create index on public.bench_notes (item_id);
create table public.events (
  id bigint generated always as identity primary key,
  kind text not null,
  payload jsonb not null default '{}',
  created_at timestamptz not null default now()
);

insert into public.categories select g, 'category ' || g from generate_series(1, 20) g;
insert into public.items (id, name, price, category_id)
  select g, 'item ' || g, (g % 997) + 0.99, 1 + g % 20 from generate_series(1, 100000) g;
insert into public.bench_notes (id, item_id, body)
  select g, 1 + (g - 1) % 100000, 'note ' || g || ': viewed by a candidate, follow up next week' from generate_series(1, 200000) g;

alter table public.categories enable row level security;
alter table public.items enable row level security;
alter table public.bench_notes enable row level security;
alter table public.events enable row level security;
create policy categories_read on public.categories for select to anon, authenticated using (true);
create policy items_read_published on public.items for select to anon, authenticated using (published);
create policy bench_notes_read on public.bench_notes for select to anon, authenticated using (true);
create policy events_insert on public.events for insert to anon, authenticated with check (kind <> '');

grant select on public.categories, public.items, public.bench_notes to anon, authenticated;
grant insert (kind, payload) on public.events to anon, authenticated;

create function public.add_them(a int, b int) returns int language sql immutable as $$ select a + b $$;
revoke execute on function public.add_them(int, int) from public;
grant execute on function public.add_them(int, int) to anon, authenticated;

vacuum analyze;
