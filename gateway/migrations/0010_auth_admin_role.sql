-- Platform (auth): the role the auth module works as, and what Supabase Auth's own migrations add to the schema.
-- `supabase_auth_admin` (NOLOGIN) owns the auth tables, as in Supabase; it is granted to the NOINHERIT pool user
-- `authenticator`, so only an explicit `set local role supabase_auth_admin` — done by the auth module inside its own
-- transactions — reaches the tables. API requests never can: the gateway switches only to the roles its identity
-- check allows (anon, authenticated, service_role), and those have no privileges on auth tables.
do $$
begin
  if not exists (select from pg_roles where rolname = 'supabase_auth_admin') then
    create role supabase_auth_admin nologin noinherit;
  end if;
exception when duplicate_object or unique_violation then
  null; -- created concurrently by another database of the same cluster
end
$$;

alter role supabase_auth_admin with nologin noinherit nosuperuser nobypassrls nocreaterole nocreatedb;

do $$
begin
  grant supabase_auth_admin to authenticator;
exception when others then
  null; -- already granted
end
$$;

grant usage on schema auth to supabase_auth_admin;
grant usage on schema extensions to supabase_auth_admin;

do $$ begin
  create type auth.one_time_token_type as enum (
    'confirmation_token', 'reauthentication_token', 'recovery_token',
    'email_change_token_new', 'email_change_token_current', 'phone_change_token');
exception when duplicate_object then null;
end $$;

do $$ begin
  create type auth.code_challenge_method as enum ('s256', 'plain');
exception when duplicate_object then null;
end $$;

create table if not exists auth.instances (
  id uuid primary key,
  uuid uuid,
  raw_base_config text,
  created_at timestamptz,
  updated_at timestamptz
);
comment on table auth.instances is 'Auth: Manages users across multiple sites.';

create table if not exists auth.one_time_tokens (
  id uuid primary key,
  user_id uuid not null references auth.users (id) on delete cascade,
  token_type auth.one_time_token_type not null,
  token_hash text not null check (char_length(token_hash) > 0),
  relates_to text not null,
  created_at timestamp without time zone not null default now(),
  updated_at timestamp without time zone not null default now()
);
create unique index if not exists one_time_tokens_user_id_token_type_key on auth.one_time_tokens (user_id, token_type);
create index if not exists one_time_tokens_token_hash_hash_idx on auth.one_time_tokens using hash (token_hash);
create index if not exists one_time_tokens_relates_to_hash_idx on auth.one_time_tokens using hash (relates_to);

create table if not exists auth.flow_state (
  id uuid primary key,
  user_id uuid,
  auth_code text not null,
  code_challenge_method auth.code_challenge_method not null,
  code_challenge text not null,
  provider_type text not null,
  provider_access_token text,
  provider_refresh_token text,
  created_at timestamptz,
  updated_at timestamptz,
  authentication_method text not null,
  auth_code_issued_at timestamptz
);
create index if not exists idx_auth_code on auth.flow_state (auth_code);
comment on table auth.flow_state is 'stores metadata for pkce logins';

alter table auth.sessions add column if not exists refresh_token_hmac_key text;
alter table auth.sessions add column if not exists refresh_token_counter bigint;

-- Token lookups (GoTrue's partial unique indexes on the non-numeric token columns).
create unique index if not exists confirmation_token_idx on auth.users (confirmation_token)
  where confirmation_token !~ '^[0-9 ]*$';
create unique index if not exists recovery_token_idx on auth.users (recovery_token)
  where recovery_token !~ '^[0-9 ]*$';
create unique index if not exists email_change_token_current_idx on auth.users (email_change_token_current)
  where email_change_token_current !~ '^[0-9 ]*$';
create unique index if not exists email_change_token_new_idx on auth.users (email_change_token_new)
  where email_change_token_new !~ '^[0-9 ]*$';
create index if not exists refresh_tokens_updated_at_idx on auth.refresh_tokens (updated_at desc);

alter table auth.instances enable row level security;
alter table auth.one_time_tokens enable row level security;
alter table auth.flow_state enable row level security;

-- The auth module's role owns every auth table (owners are not subject to RLS unless forced).
do $$
declare t record;
begin
  for t in select tablename from pg_tables where schemaname = 'auth' loop
    execute format('alter table auth.%I owner to supabase_auth_admin', t.tablename);
  end loop;
end
$$;

-- The API roles get no table privileges here (0003 grants none): they use auth.uid()/auth.jwt(). Nothing is revoked
-- on every migrate, so an app migration's own deliberate grant is not undone.
