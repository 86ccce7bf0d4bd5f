-- One private schema: everything of `app_private` (0100 onwards) moves into `private` (0001), and the two admin
-- guards become one, `private.require_admin(action, or_service_role)`. Objects keep their OIDs, so triggers, policies,
-- defaults, checks, views, grants, owners and comments follow them; what names the schema as text (function bodies,
-- pg_cron commands, comments, the personal-data registry's `covers`) is rewritten here. Then `app_private` is dropped.
set local client_min_messages = warning;

/* ---------------------------------------------------------------------------------------------------------------
 * The admin guard, named once
 * --------------------------------------------------------------------------------------------------------------- */
-- app_private.require_admin() (0320: retention, lets service_role through, "only admins can see retention") and
-- private.require_admin(action) (0450: the desk, admins only, "only admins can <action>") clash by name: one guard
-- covers both callers, each keeping what it did (0320's callers pass 'see retention', or_service_role => true).
drop function private.require_admin(text);
create function private.require_admin(action text, or_service_role boolean default false) returns void
  language plpgsql stable set search_path = ''
as $$
begin
  if not ((or_service_role and coalesce(current_setting('role', true), '') = 'service_role') or public.is_admin()) then
    raise exception 'only admins can %', action using errcode = '42501';
  end if;
end;
$$;
revoke all on function private.require_admin(text, boolean) from public;
grant execute on function private.require_admin(text, boolean) to app_definer;
comment on function private.require_admin(text, boolean) is
  'Raises 42501 "only admins can <action>" unless the caller is an admin (or service_role, when or_service_role).';
drop function app_private.require_admin();

/* ---------------------------------------------------------------------------------------------------------------
 * No other clash
 * --------------------------------------------------------------------------------------------------------------- */
do $$
declare
  clash text;
begin
  select string_agg(name, ', ') into clash from (
    select c.relname::text as name from pg_catalog.pg_class c
     where c.relnamespace = 'app_private'::regnamespace
       and exists (select 1 from pg_catalog.pg_class o
                    where o.relnamespace = 'private'::regnamespace and o.relname = c.relname)
    union all
    select t.typname::text from pg_catalog.pg_type t
     where t.typnamespace = 'app_private'::regnamespace
       and exists (select 1 from pg_catalog.pg_type o
                    where o.typnamespace = 'private'::regnamespace and o.typname = t.typname)
    union all
    select p.oid::regprocedure::text from pg_catalog.pg_proc p
     where p.pronamespace = 'app_private'::regnamespace
       and exists (select 1 from pg_catalog.pg_proc o where o.pronamespace = 'private'::regnamespace
                      and o.proname = p.proname and o.proargtypes = p.proargtypes)) clashes;
  if clash is not null then
    raise exception 'app_private and private both hold: %', clash;
  end if;
end
$$;

/* ---------------------------------------------------------------------------------------------------------------
 * Every object moves (by OID: what refers to it follows)
 * --------------------------------------------------------------------------------------------------------------- */
do $$
declare
  r record;
begin
  -- Tables first: their indexes, constraints, row types and owned sequences move with them.
  for r in select c.oid::regclass as rel from pg_catalog.pg_class c
            where c.relnamespace = 'app_private'::regnamespace and c.relkind in ('r', 'p', 'f') order by c.relname loop
    execute format('alter table %s set schema private', r.rel);
  end loop;
  for r in select c.oid::regclass as rel, c.relkind from pg_catalog.pg_class c
            where c.relnamespace = 'app_private'::regnamespace and c.relkind in ('S', 'v', 'm') order by c.relname loop
    execute format('alter %s %s set schema private',
                   case r.relkind when 'S' then 'sequence' when 'v' then 'view' else 'materialized view' end, r.rel);
  end loop;
  -- Composite, enum, domain and range types (array types follow their element type).
  for r in select t.oid::regtype as typ, t.typtype from pg_catalog.pg_type t
            where t.typnamespace = 'app_private'::regnamespace and t.typelem = 0
              and (t.typrelid = 0 or t.typtype = 'c') order by t.typname loop
    execute format('alter %s %s set schema private', case r.typtype when 'd' then 'domain' else 'type' end, r.typ);
  end loop;
  for r in select p.oid::regprocedure as fn from pg_catalog.pg_proc p
            where p.pronamespace = 'app_private'::regnamespace order by p.proname loop
    execute format('alter routine %s set schema private', r.fn);
  end loop;
end
$$;

/* ---------------------------------------------------------------------------------------------------------------
 * Every routine body that names app_private, in any schema
 * --------------------------------------------------------------------------------------------------------------- */
-- The rename as text; the schema lists ('public', 'private', 'app_private') of the definer-owner trigger (0330) lose
-- their duplicate.
create function pg_temp.renamed(t text) returns text
  language sql immutable
as $$
  select replace(replace(t, '''private'', ''app_private''', '''private'''), 'app_private', 'private')
$$;

-- Bodies are text (PL/pgSQL and SQL functions here; no `begin atomic` body names it, checked below): recreated from
-- pg_get_functiondef with the new name. CREATE OR REPLACE keeps the OID, owner, grants, comment and triggers.
do $$
declare
  r record;
  def text;
begin
  if exists (select 1 from pg_catalog.pg_proc p where p.prosqlbody is not null
                and pg_catalog.pg_get_functiondef(p.oid) like '%app\_private%') then
    raise exception 'a begin atomic body names app_private';
  end if;
  for r in select p.oid from pg_catalog.pg_proc p join pg_catalog.pg_namespace n on n.oid = p.pronamespace
            where p.prosrc like '%app\_private%' and p.prokind in ('f', 'p')
              and n.nspname not in ('pg_catalog', 'information_schema') and n.oid <> pg_catalog.pg_my_temp_schema()
            order by p.oid loop
    def := replace(pg_catalog.pg_get_functiondef(r.oid), 'app_private.require_admin()',
                   'private.require_admin(''see retention'', or_service_role => true)');
    execute pg_temp.renamed(def);
  end loop;
end
$$;

/* ---------------------------------------------------------------------------------------------------------------
 * Names kept as text elsewhere
 * --------------------------------------------------------------------------------------------------------------- */
do $$
declare
  r record;
begin
  -- pg_cron jobs (schedule_retention(), schedule_job_alerts(), schedule_job_closing(), schedule_desk_retention()).
  if pg_catalog.to_regclass('cron.job') is not null then
    execute $sql$update cron.job set command = pg_temp.renamed(command) where command like '%app\_private%'$sql$;
  end if;
  -- Comments (the moved objects keep theirs; some name the old schema in their text).
  for r in select o.type, o.identity, pg_temp.renamed(d.description) as text
             from pg_catalog.pg_description d,
                  lateral pg_catalog.pg_identify_object(d.classoid, d.objoid, d.objsubid) o
            where d.description like '%app\_private%'
              and (d.classoid, d.objoid) <> ('pg_namespace'::regclass, 'app_private'::regnamespace) loop
    execute format('comment on %s %s is %L', case r.type when 'table column' then 'column' else r.type end,
                   r.identity, r.text);
  end loop;
end
$$;
comment on event trigger adopt_definer_functions is
  'Gives every SECURITY DEFINER function created or altered in public or private to app_definer (0330).';
update private.personal_data_parts
   set covers = array(select pg_temp.renamed(c) from unnest(covers) c)
 where array_to_string(covers, ',') like '%app\_private.%';
comment on schema private is
  'Site internals: settings, limits, retention, the personal-data registry, job alerts and trigger functions. '
  'Not exposed through the data API; API roles may use it only to reach the functions granted to them.';

/* ---------------------------------------------------------------------------------------------------------------
 * Grants, then the empty schema goes
 * --------------------------------------------------------------------------------------------------------------- */
-- app_private gave USAGE to anon, authenticated and service_role (the SECURITY INVOKER wrappers and triggers name its
-- functions) and to app_definer; private gave it to app_definer only. Every function keeps its own EXECUTE grants.
grant usage on schema private to anon, authenticated, service_role, app_definer;
alter default privileges for role postgres in schema app_private revoke all on tables from app_definer;
alter default privileges for role postgres in schema app_private revoke all on sequences from app_definer;
alter default privileges for role postgres in schema app_private revoke all on functions from app_definer;
drop schema app_private;
