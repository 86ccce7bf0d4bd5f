-- U-hardening 9 (sql/migrations/0330): the site's SECURITY DEFINER functions run as app_definer, a role with no
-- superuser powers and only granted rights, never as a superuser; a definer function added or altered by a later
-- migration gets the same owner (an event trigger); the functions still answer each role as before.
begin;
\ir lib/setup.sql
select plan(24);

create function tests.owner_of(fn regprocedure) returns text language sql as $$
  select pg_get_userbyid(p.proowner)::text from pg_proc p where p.oid = fn
$$;

-- The rule, over every definer function of the site's schemas.
select is_empty($$ select p.oid::regprocedure::text from pg_proc p
                     join pg_namespace n on n.oid = p.pronamespace join pg_roles r on r.oid = p.proowner
                    where p.prosecdef and n.nspname in ('public', 'private') and r.rolsuper $$,
  'no SECURITY DEFINER function of public or private is owned by a superuser');
select is_empty($$ select p.oid::regprocedure::text from pg_proc p join pg_namespace n on n.oid = p.pronamespace
                    where p.prosecdef and n.nspname in ('public', 'private')
                      and p.proowner <> 'app_definer'::regrole $$,
  'every one of them is owned by app_definer');
select ok((select count(*) from pg_proc p join pg_namespace n on n.oid = p.pronamespace
            where p.prosecdef and n.nspname in ('public', 'private')) > 40, 'there are definer functions to check');

-- What app_definer is, and is not.
select results_eq($$ select rolsuper, rolcanlogin, rolcreaterole, rolcreatedb, rolreplication, rolinherit from pg_roles where rolname = 'app_definer' $$,
  $$ values (false, false, false, false, false, false) $$, 'app_definer: no superuser, no login, no CREATEROLE/CREATEDB/REPLICATION, inherits nothing');
select is_empty($$ select 1 from pg_auth_members m where m.roleid = 'app_definer'::regrole or m.member = 'app_definer'::regrole $$,
  'no role can become app_definer, and it is a member of none');
select ok(not has_schema_privilege('app_definer', 'public', 'create') and not has_schema_privilege('app_definer', 'private', 'create'),
  'app_definer cannot create objects (no DDL)');
select ok(not has_column_privilege('app_definer', 'auth.users', 'encrypted_password', 'select')
          and not has_column_privilege('app_definer', 'auth.users', 'recovery_token', 'select'),
  'app_definer cannot read password hashes or mailed tokens');
select ok(not has_table_privilege('app_definer', 'gateway.signing_keys', 'select')
          and not has_table_privilege('app_definer', 'auth.refresh_tokens', 'select'),
  'app_definer cannot read the JWT signing keys or refresh tokens');
select ok(not has_table_privilege('app_definer', 'public.audit_log', 'truncate'), 'app_definer cannot truncate a table');

-- A definer function runs as app_definer: what a superuser could do, it cannot.
create function public.tests_definer_probe() returns text language sql security definer set search_path = '' as $$
  select current_user::text
$$;
create function public.tests_definer_reads_keys() returns bigint language sql security definer set search_path = '' as $$
  select count(*) from gateway.signing_keys
$$;
create function public.tests_definer_reads_files() returns text language sql security definer set search_path = '' as $$
  select pg_catalog.pg_read_file('PG_VERSION')
$$;
select is(public.tests_definer_probe(), 'app_definer', 'a new definer function runs as app_definer');
create function public.tests_definer_broadcasts() returns void language plpgsql security definer set search_path = '' as $$
begin
  perform realtime.send('{"n": 1}', 'probe', 'tests:definer', false);
end
$$;
select lives_ok($$ select public.tests_definer_broadcasts() $$, 'a definer function may broadcast through Realtime''s SQL API, like any API role');
select throws_ok($$ select public.tests_definer_reads_keys() $$, '42501', null, 'a definer function cannot read the signing keys');
select throws_ok($$ select public.tests_definer_reads_files() $$, '42501', null, 'nor the server''s files');

-- Later migrations: created, made definer by ALTER, or handed back to a superuser.
select is(tests.owner_of('public.tests_definer_probe()'), 'app_definer', 'CREATE FUNCTION … SECURITY DEFINER: adopted by app_definer');
create function private.tests_made_definer() returns integer language sql set search_path = '' as $$ select 1 $$;
select is(tests.owner_of('private.tests_made_definer()'), 'postgres', 'an invoker function keeps its owner');
alter function private.tests_made_definer() security definer;
select is(tests.owner_of('private.tests_made_definer()'), 'app_definer', 'ALTER FUNCTION … SECURITY DEFINER: adopted');
alter function public.tests_definer_probe() owner to postgres;
select is(tests.owner_of('public.tests_definer_probe()'), 'app_definer', 'giving one back to the superuser is undone');
select tests.as_user('cand1');
select lives_ok($$ create function pg_temp.tests_realtime_like() returns integer language plpgsql as 'begin return 1; end' $$,
  'a role without rights on private''s functions still runs its own DDL (Realtime creates pg_temp functions as authenticator)');
select tests.as_owner();
create function tests.elsewhere() returns integer language sql security definer as $$ select 1 $$;
select is(tests.owner_of('tests.elsewhere()'), 'postgres', 'other schemas are left alone');

-- The functions still answer each role as before.
select tests.as_user('admin');
select is(public.is_admin(), true, 'admin: is_admin() is true');
select lives_ok($$ select * from public.retention_due() $$, 'admin: an admin-only definer function answers');
select tests.as_user('cand1');
select is(public.is_admin(), false, 'candidate: is_admin() is false');
select tests.as_anon();
select throws_ok($$ select public.my_saved_jobs() $$, '42501', null, 'anon: a candidate''s definer function stays out of reach');
select tests.as_service();
select lives_ok($$ select * from public.retention_runs() $$, 'service_role: its definer functions answer');
select tests.as_owner();

select * from finish();
rollback;
