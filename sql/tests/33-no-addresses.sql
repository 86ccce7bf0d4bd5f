-- No client address at rest (0263) and old salts dropped on a schedule (0322): a visitor's profile view, enquiry,
-- application and CV upload leave the address nowhere in the database (any table, any column); the per-client
-- limits count a salted hash, keep their behaviour across midnight UTC, and the nightly retention pass drops every
-- daily salt older than yesterday even when no view or submission arrives.
begin;
\ir lib/setup.sql
select plan(16);

-- Every table (any schema but the catalogs) with a row whose text form contains `needle`.
create function tests.tables_holding(needle text) returns setof text language plpgsql as $$
declare
  t record;
  found boolean;
begin
  for t in select n.nspname, c.relname from pg_class c join pg_namespace n on n.oid = c.relnamespace
           where c.relkind in ('r', 'p') and n.nspname not in ('pg_catalog', 'information_schema', 'pg_toast')
           order by 1, 2 loop
    execute format('select exists (select 1 from %I.%I r where r::text like $1)', t.nspname, t.relname)
      into found using '%' || needle || '%';
    if found then
      return next t.nspname || '.' || t.relname;
    end if;
  end loop;
end
$$;

create function tests.today() returns date language sql stable as $$ select (now() at time zone 'utc')::date $$;

-- A visitor at 198.51.100.213 views a profile, sends an enquiry, uploads a CV and applies with it.
select tests.as_anon();
select set_config('request.headers', '{"x-forwarded-for": "198.51.100.213", "user-agent": "Mozilla/5.0 (X11; Linux) Firefox/131.0"}', true);
select lives_ok($$ insert into public.profile_views (profile_id, referrer) values (tests.row('profile-active'), 'https://example.org/') $$,
  'anon: records a view');
select lives_ok($$ insert into public.enquiries (name, email, message) values ('Vera Visitor', 'vera@example.org', 'Hello') $$,
  'anon: sends an enquiry');
select lives_ok($$ insert into storage.objects (bucket_id, name, metadata)
                   values ('cvs', '7d1c0b4e-3a52-4c6f-9f1e-2b8a6d5c4e3f/vera.pdf', '{"mimetype": "application/pdf", "size": 2048}') $$,
  'anon: uploads a CV');
select lives_ok($$ insert into public.applications (job_id, first_name, last_name, email, phone, cv_object, privacy_consent)
                   values (tests.job('active1'), 'Vera', 'Visitor', 'vera@example.org', '07700900123',
                           '7d1c0b4e-3a52-4c6f-9f1e-2b8a6d5c4e3f/vera.pdf', true) $$,
  'anon: applies');
select set_config('request.headers', '', true);
select tests.as_owner();

select is_empty($$ select tests.tables_holding('198.51.100.213') $$,
  'the address is in no table: not profile_views, not submission_log, nowhere');
select is((select count(*)::int from private.submission_log where kind like '%:client'), 4,
  'the four per-client limits each counted the visitor');
select is((select array_agg(distinct client_key) from private.submission_log where kind like '%:client'),
  array[private.client_key('198.51.100.213', (select salt from private.profile_view_salts where day = tests.today()))],
  'under one key: the address hashed with today''s salt');
select ok((select bool_and(client_key ~ '^h:[0-9a-f]{32}$') from private.submission_log where kind like '%:client'),
  'a key is 128 bits of hash, nothing else');
select isnt(private.client_key('198.51.100.213', (select salt from private.profile_view_salts where day = tests.today())),
  private.client_key('198.51.100.213', extensions.gen_random_bytes(32)), 'another day''s salt gives another key');

-- The limits keep their behaviour: the hour before midnight UTC (yesterday's key) still counts.
insert into private.profile_view_salts (day) values (tests.today() - 1) on conflict do nothing;
insert into private.settings (key, value) values ('limit:enquiry_per_client_per_hour', '3');
insert into private.submission_log (kind, client_key, created_at)
select 'enquiry:client', private.client_key('203.0.113.61', s.salt), now() - interval '20 minutes'
from private.profile_view_salts s where s.day = tests.today() - 1;
select tests.as_anon();
select set_config('request.headers', '{"x-forwarded-for": "203.0.113.61"}', true);
select lives_ok($$ insert into public.enquiries (name, email) values ('Yves Yesterday', 'y1@example.org') $$,
  'anon: a client with one enquiry under yesterday''s key sends a second');
select lives_ok($$ insert into public.enquiries (name, email) values ('Yves Yesterday', 'y2@example.org') $$, 'anon: and a third');
select throws_ok($$ insert into public.enquiries (name, email) values ('Yves Yesterday', 'y3@example.org') $$, 'PGRST', null,
  'anon: the fourth in the hour is refused: yesterday''s key counted');
select set_config('request.headers', '', true);
select tests.as_owner();

-- Salts older than yesterday go with the nightly pass, whether or not anything arrives.
insert into private.profile_view_salts (day) values (tests.today() - 9), (tests.today() - 2) on conflict do nothing;
select lives_ok($$ select private.run_retention(now()) $$, 'the retention pass runs');
select results_eq($$ select day - tests.today() from private.profile_view_salts order by day $$, $$ values (-1), (0) $$,
  'it keeps today''s and yesterday''s salts and drops the older ones');
select is((select (deleted ->> 'old_salts')::int from private.retention_log order by id desc limit 1), 2,
  'the pass logs how many salts it dropped');
select private.run_retention(now() + interval '2 days');
select is_empty($$ select day from private.profile_view_salts where day < tests.today() + 1 $$,
  'two days on (a moved clock), with no view in between, today''s and yesterday''s salts are gone too');

select * from finish();
rollback;
