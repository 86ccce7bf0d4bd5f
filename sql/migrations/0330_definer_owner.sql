-- SECURITY DEFINER functions of the site run as `app_definer`, a role made for them, instead of the superuser that
-- ran the migrations (U-hardening 9). A superuser owner meant that a mistake in any definer function (an injected
-- identifier, a path through dynamic SQL) ran with every power of the cluster: files, programs, roles, other
-- databases, the JWT signing keys. app_definer is NOLOGIN, NOSUPERUSER, NOCREATEDB, NOCREATEROLE and granted to no
-- role, so nothing can sign in as it or switch to it; it keeps BYPASSRLS because these functions exist to do what
-- the row rules do not express (an admin check, erasure across every table holding a person, retention), and what
-- it can reach is bounded by its grants:
--   * the site's schemas public, private, app_private: read and write rows of their tables (no DDL, no TRUNCATE),
--     execute their functions; the same for every table and function a later migration creates there (default
--     privileges of the migrating role);
--   * the platform's tables only where a site function needs them: auth.users (its non-secret columns; delete),
--     auth.sessions / auth.identities (read), auth.flow_state (delete), storage.objects and storage.buckets (read,
--     delete), gateway.outbox (read, delete), gateway.outbox_proven_recipients (register the firm's inbox), and
--     gateway.enqueue_mail / gateway.public_url, and Realtime's SQL API (realtime.send, broadcast_changes: what every
--     API role may call). Never password hashes, tokens, signing keys or refresh tokens.
-- The rule holds for later migrations too: an event trigger gives every SECURITY DEFINER function created or
-- altered in public, private or app_private to app_definer (sql/tests/70-definer-owner.sql checks that none is
-- owned by a superuser). A later definer function that needs a platform table not listed here must grant it to
-- app_definer in its own migration (as below).
set local client_min_messages = warning;

do $$
begin
  if not exists (select from pg_roles where rolname = 'app_definer') then
    create role app_definer nologin noinherit bypassrls;
  end if;
exception when duplicate_object or unique_violation then
  null; -- created concurrently by another database of the same cluster
end
$$;
alter role app_definer with nologin noinherit nosuperuser nocreatedb nocreaterole noreplication bypassrls;
comment on role app_definer is
  'Owner of the site''s SECURITY DEFINER functions (sql/migrations/0330): no login, no superuser powers, rights by grant only.';

/** The site's schemas ********************************************************************************************/
grant usage on schema public, private, app_private to app_definer;
grant select, insert, update, delete on all tables in schema public, private, app_private to app_definer;
grant usage, select, update on all sequences in schema public, private, app_private to app_definer;
grant execute on all functions in schema public, private, app_private to app_definer;
-- What the migrating role creates there later (this role runs every migration).
alter default privileges in schema public, private, app_private
  grant select, insert, update, delete on tables to app_definer;
alter default privileges in schema public, private, app_private
  grant usage, select, update on sequences to app_definer;
alter default privileges in schema public, private, app_private
  grant execute on functions to app_definer;

/** The platform, column by column where secrets live *************************************************************/
grant usage on schema auth, storage, gateway, extensions to app_definer;
grant select (id, aud, role, email, email_confirmed_at, invited_at, confirmation_sent_at, recovery_sent_at,
              email_change, email_change_sent_at, last_sign_in_at, raw_app_meta_data, raw_user_meta_data,
              created_at, updated_at, phone, phone_confirmed_at, confirmed_at, banned_until, deleted_at,
              is_anonymous, is_sso_user)
  on auth.users to app_definer;
grant delete on auth.users to app_definer;
grant select (id, user_id, created_at, updated_at, refreshed_at, not_after, aal, user_agent, ip)
  on auth.sessions to app_definer;
grant select (provider, provider_id, user_id, identity_data, last_sign_in_at, created_at, updated_at)
  on auth.identities to app_definer;
grant select (user_id), delete on auth.flow_state to app_definer;
grant select, delete on storage.objects, storage.buckets to app_definer;
grant select, delete on gateway.outbox to app_definer;
grant select, insert on gateway.outbox_proven_recipients to app_definer;
grant select on gateway.demo_accounts to app_definer;
grant execute on function gateway.enqueue_mail(text, text, text, text), gateway.public_url(text) to app_definer;
-- Realtime's SQL API, as every API role has it: broadcast from a definer trigger (Supabase's documented pattern).
grant usage on schema realtime to app_definer;
grant insert, select, update on realtime.messages to app_definer;
grant execute on function realtime.topic(), realtime.send(jsonb, text, text, boolean),
  realtime.send_binary(bytea, text, text, boolean),
  realtime.broadcast_changes(text, text, text, text, text, record, record, text)
  to app_definer;

/** Every definer function of the site gets this owner, now and from now on *****************************************/
-- Gives app_definer every SECURITY DEFINER function of public, private and app_private owned by anyone else, among
-- `candidates` (function oids; null: all of them). Returns how many it adopted.
create or replace function app_private.adopt_definer_functions(candidates oid[]) returns integer
language plpgsql set search_path = '' as $$
declare
  fn regprocedure;
  n integer := 0;
begin
  for fn in select p.oid::regprocedure
              from pg_catalog.pg_proc p join pg_catalog.pg_namespace n on n.oid = p.pronamespace
             where p.prosecdef and n.nspname in ('public', 'private', 'app_private')
               and p.proowner <> 'app_definer'::regrole and (candidates is null or p.oid = any (candidates)) loop
    execute format('alter routine %s owner to app_definer', fn);
    n := n + 1;
  end loop;
  return n;
end
$$;
revoke all on function app_private.adopt_definer_functions(oid[]) from public;

-- Event trigger: after CREATE / ALTER FUNCTION (or PROCEDURE), adopts what it made. It fires for every role's DDL
-- (the Realtime dispatcher creates pg_temp functions as authenticator), so it reads only the catalog, which every
-- role may, and calls the adopting function only for a site schema's definer function: DDL that only the
-- migrating superuser can run there. The ALTER it runs fires it once more, which then finds nothing to do.
create or replace function app_private.on_routine_ddl() returns event_trigger
language plpgsql set search_path = '' as $$
declare
  made oid[];
begin
  select array_agg(c.objid) into made
    from pg_catalog.pg_event_trigger_ddl_commands() c
    join pg_catalog.pg_proc p on p.oid = c.objid
    join pg_catalog.pg_namespace n on n.oid = p.pronamespace
   where c.object_type in ('function', 'procedure') and p.prosecdef
     and n.nspname in ('public', 'private', 'app_private') and p.proowner <> 'app_definer'::regrole;
  if made is not null then
    perform app_private.adopt_definer_functions(made);
  end if;
end
$$;

drop event trigger if exists adopt_definer_functions;
create event trigger adopt_definer_functions on ddl_command_end
  when tag in ('CREATE FUNCTION', 'ALTER FUNCTION', 'CREATE PROCEDURE', 'ALTER PROCEDURE', 'ALTER ROUTINE')
  execute function app_private.on_routine_ddl();
comment on event trigger adopt_definer_functions is
  'Gives every SECURITY DEFINER function created or altered in public, private or app_private to app_definer (0330).';

-- The functions that exist now.
select app_private.adopt_definer_functions(null);
