-- Platform: Supabase Storage's schema (storage.buckets, storage.objects and the helper functions with the same
-- columns and names as supabase/storage's tenant migrations), so existing policies and dumps load unchanged.
-- Access is decided by row-level security on these tables, evaluated as the request's role; service_role has
-- BYPASSRLS as in Supabase. Idempotent: re-run on every migrate.
set local client_min_messages = warning; -- no 'does not exist, skipping' notices from the idempotent drops
create schema if not exists storage;
grant usage on schema storage to anon, authenticated, service_role;

do $$
begin
  create type storage.buckettype as enum ('STANDARD', 'ANALYTICS', 'VECTOR');
exception when duplicate_object then
  null;
end
$$;

create table if not exists storage.buckets (
  id text primary key,
  name text not null,
  owner uuid,
  created_at timestamptz default now(),
  updated_at timestamptz default now(),
  public boolean default false,
  avif_autodetection boolean default false,
  file_size_limit bigint,
  allowed_mime_types text[],
  owner_id text,
  type storage.buckettype not null default 'STANDARD'
);
create unique index if not exists bname on storage.buckets using btree (name);
comment on table storage.buckets is 'Storage: buckets; access through row-level security.';
comment on column storage.buckets.owner is 'Field is deprecated, use owner_id instead';

create table if not exists storage.objects (
  id uuid not null default gen_random_uuid() primary key,
  bucket_id text references storage.buckets (id),
  name text,
  owner uuid,
  created_at timestamptz default now(),
  updated_at timestamptz default now(),
  last_accessed_at timestamptz default now(),
  metadata jsonb,
  path_tokens text[] generated always as (string_to_array(name, '/')) stored,
  version text,
  owner_id text,
  user_metadata jsonb,
  level integer
);
create unique index if not exists bucketid_objname on storage.objects using btree (bucket_id, name);
create index if not exists name_prefix_search on storage.objects using btree (name text_pattern_ops);
comment on table storage.objects is 'Storage: object metadata (contents live in the storage backend); access through row-level security.';
comment on column storage.objects.owner is 'Field is deprecated, use owner_id instead';

create table if not exists storage.migrations (
  id integer primary key,
  name varchar(100) unique not null,
  hash varchar(40) not null,
  executed_at timestamp default current_timestamp
);

alter table storage.buckets enable row level security;
alter table storage.objects enable row level security;
alter table storage.migrations enable row level security;

-- The same table privileges Supabase grants; policies decide which rows.
grant all on storage.buckets, storage.objects to anon, authenticated, service_role;

create or replace function storage.foldername(name text) returns text[]
language plpgsql immutable set search_path = '' as $$
declare
  _parts text[];
begin
  select string_to_array(name, '/') into _parts;
  return _parts[1:array_length(_parts, 1) - 1];
end
$$;

create or replace function storage.filename(name text) returns text
language plpgsql immutable set search_path = '' as $$
declare
  _parts text[];
begin
  select string_to_array(name, '/') into _parts;
  return _parts[array_length(_parts, 1)];
end
$$;

create or replace function storage.extension(name text) returns text
language plpgsql immutable set search_path = '' as $$
declare
  _parts text[];
  _filename text;
begin
  select string_to_array(name, '/') into _parts;
  select _parts[array_length(_parts, 1)] into _filename;
  return reverse(split_part(reverse(_filename), '.', 1));
end
$$;

-- The operation being performed (set by the gateway per request as `storage.operation`), as Supabase exposes it.
create or replace function storage.operation() returns text
language plpgsql stable set search_path = '' as $$
begin
  return current_setting('storage.operation', true);
end
$$;

create or replace function storage.update_updated_at_column() returns trigger
language plpgsql set search_path = '' as $$
begin
  new.updated_at = now();
  return new;
end
$$;

drop trigger if exists update_objects_updated_at on storage.objects;
create trigger update_objects_updated_at before update on storage.objects
  for each row execute function storage.update_updated_at_column();

grant execute on function storage.foldername(text), storage.filename(text), storage.extension(text), storage.operation()
  to anon, authenticated, service_role;
