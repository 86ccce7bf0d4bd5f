-- The demo content (sql/seed) loads into a fresh database, loads again without change, and gives the admin
-- pages something to show. Rolled back like every test.
begin;
set local client_min_messages = warning;
\ir ../seed/01_demo_users.sql
\ir ../seed/02_jobs.sql
\ir ../seed/03_featured_jobs.sql
\ir ../seed/04_candidate_profiles.sql
\ir ../seed/05_career_hub.sql
create temp table first_load as
  select (select count(*) from public.jobs) jobs, (select count(*) from public.featured_jobs) featured,
         (select count(*) from public.candidate_profiles) profiles, (select count(*) from public.profile_views) views,
         (select count(*) from auth.users) users, (select string_agg(slug, ',' order by id) from public.candidate_profiles) slugs;
\ir ../seed/01_demo_users.sql
\ir ../seed/02_jobs.sql
\ir ../seed/03_featured_jobs.sql
\ir ../seed/04_candidate_profiles.sql
\ir ../seed/05_career_hub.sql
select plan(18);

select results_eq($$ select (select count(*) from public.jobs), (select count(*) from public.featured_jobs),
                            (select count(*) from public.candidate_profiles), (select count(*) from public.profile_views),
                            (select count(*) from auth.users), (select string_agg(slug, ',' order by id) from public.candidate_profiles) $$,
  $$ select jobs, featured, profiles, views, users, slugs from first_load $$, 'loading the seed twice changes nothing');
select is((select count(*)::int from public.jobs), 20, '20 jobs');
select ok((select count(distinct type) >= 8 from public.jobs), 'jobs cover the spec''s job types');
select ok((select count(distinct location) >= 10 from public.jobs), 'jobs cover UK locations');
select ok((select count(*) >= 2 from public.jobs where status = 'closed'), 'some jobs are closed');
select ok((select count(*) >= 4 from public.jobs where status = 'active' and (description is null or requirements is null
           or company = 'Unknown Company' or salary is null or salary = 'Competitive')), 'some active jobs are incomplete (data-quality panel)');
select is((select count(*)::int from public.featured_jobs where is_active), 5, 'five active featured jobs');
select is((select count(*)::int from public.candidate_profiles), 12, 'a dozen candidate profiles');
select ok((select count(*) > 0 from public.profile_views v join public.user_roles r on r.user_id = v.user_id and r.role = 'admin'),
  'some views are by the admin (Clear Admin Views has work)');
select ok((select encrypted_password = extensions.crypt('demo-admin-2025', encrypted_password) from auth.users where email = 'admin@example.com'),
  'the demo admin''s password verifies (bcrypt)');
select ok((select encrypted_password = extensions.crypt('demo-candidate-2025', encrypted_password) from auth.users where email = 'candidate@example.com'),
  'the demo candidate''s password verifies (bcrypt)');
select ok((select encrypted_password like '$2a$10$%' from auth.users where email = 'admin@example.com'), 'bcrypt cost 10');
select ok((select bool_and(email_confirmed_at is not null) from auth.users where email like '%@example.com'), 'demo users are confirmed');
select is((select count(*)::int from auth.identities where provider = 'email' and email in ('admin@example.com', 'candidate@example.com')), 2,
  'demo users have e-mail identities');
select is((select count(*)::int from public.user_roles r join auth.users u on u.id = r.user_id where r.role = 'admin'), 1,
  'only the demo admin is an admin');
select results_eq($$ select email from gateway.demo_accounts order by email $$,
  $$ values ('admin@example.com'), ('candidate@example.com') $$,
  'the demo accounts are registered as demo content (GATEWAY_ENV=production refuses to start while they exist)');

-- The demo candidate's closed saved job, as it was in public (sql/migrations/0332).
select set_config('role', 'authenticated', true),
       set_config('request.jwt.claims', '{"sub": "5eed0000-0000-4000-8000-000000000002", "role": "authenticated"}', true);
select results_eq($$ select title, status from public.my_saved_jobs() order by saved_at desc $$,
  $$ values ('Asset Manager - Logistics'::text, 'active'::text), ('Regional Property Director', 'closed') $$,
  'the demo candidate''s saved jobs: one live, one closed with the details it had in public');
reset role;

-- What the public sees of the demo data.
select set_config('role', 'anon', true);
select is((select count(*)::int from public.featured_jobs), 5, 'anon: sees the five active featured jobs');

select * from finish();
rollback;
