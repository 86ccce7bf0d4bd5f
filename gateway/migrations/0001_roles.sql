-- Platform: the API roles and the login role the gateway's pool uses (PostgREST / Supabase model).
-- Roles are cluster-wide; every statement here is idempotent.
do $$
begin
  if not exists (select from pg_roles where rolname = 'anon') then
    create role anon nologin noinherit;
  end if;
  if not exists (select from pg_roles where rolname = 'authenticated') then
    create role authenticated nologin noinherit;
  end if;
  if not exists (select from pg_roles where rolname = 'service_role') then
    create role service_role nologin noinherit bypassrls;
  end if;
  if not exists (select from pg_roles where rolname = 'authenticator') then
    create role authenticator login noinherit;
  end if;
exception when duplicate_object or unique_violation then
  null; -- another database of the same cluster created it concurrently
end
$$;

alter role authenticator with login noinherit nosuperuser nobypassrls nocreaterole nocreatedb;

do $$
begin
  grant anon, authenticated, service_role to authenticator;
exception when others then
  null; -- already granted (concurrent grants may race on pg_auth_members)
end
$$;

alter role anon set statement_timeout = '3s';
alter role authenticated set statement_timeout = '8s';

create schema if not exists extensions;
create extension if not exists pgcrypto with schema extensions;
create extension if not exists "uuid-ossp" with schema extensions;

grant usage on schema public, extensions to anon, authenticated, service_role;
-- Deny by default: app migrations grant table privileges explicitly, per table.
revoke create on schema public from public;
