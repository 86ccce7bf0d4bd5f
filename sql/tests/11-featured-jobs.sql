-- featured_jobs: the public reads active featured jobs whose job is active, with the job embedded; admins read all
-- and write; display_order defaults to the current count.
begin;
\ir lib/setup.sql
select plan(26);

-- anon
select tests.as_anon();
select results_eq($$ select id from public.featured_jobs where is_active order by display_order $$,
  $$ values (tests.row('featured-active')) $$, 'anon: only the active featured job of an active job');
select is((select count(*)::int from public.featured_jobs), 1, 'anon: switched-off and closed-job features are invisible unfiltered');
-- What supabase-js sends as featured_jobs?select=*,jobs(id,title,company,location,salary,type): a correlated subquery.
select results_eq($$
  select f.custom_excerpt, (select j.title from public.jobs j where j.id = f.job_id)
  from public.featured_jobs f where f.is_active order by f.display_order $$,
  $$ values ('Featured and live'::text, 'Active one'::text) $$, 'anon: the embedded job comes with the featured job');
select throws_ok($$ insert into public.featured_jobs (job_id, custom_excerpt) values (tests.job('active2'), 'x') $$,
  '42501', 'permission denied for table featured_jobs', 'anon: cannot insert');
select throws_ok($$ update public.featured_jobs set is_active = false $$, '42501', 'permission denied for table featured_jobs', 'anon: cannot update');
select throws_ok($$ delete from public.featured_jobs $$, '42501', 'permission denied for table featured_jobs', 'anon: cannot delete');

-- candidate: reads like the public; writes hit RLS (insert refused, update/delete affect nothing)
select tests.as_user('cand1');
select is((select count(*)::int from public.featured_jobs), 1, 'candidate: sees only the live featured job');
select throws_ok($$ insert into public.featured_jobs (job_id, custom_excerpt) values (tests.job('draft'), 'x') $$,
  '42501', 'new row violates row-level security policy for table "featured_jobs"', 'candidate: insert refused by RLS');
select results_eq($$ with u as (update public.featured_jobs set custom_excerpt = 'hacked' where id = tests.row('featured-active') returning 1)
                     select count(*)::int from u $$, $$ values (0) $$, 'candidate: update changes no row');
select results_eq($$ with d as (delete from public.featured_jobs returning 1) select count(*)::int from d $$,
  $$ values (0) $$, 'candidate: delete removes no row');
select tests.as_owner();
select is((select custom_excerpt from public.featured_jobs where id = tests.row('featured-active')), 'Featured and live', 'the candidate''s update left the row unchanged');
select is((select count(*)::int from public.featured_jobs), 3, 'the candidate''s delete left every row');

-- admin
select tests.as_user('admin');
select is((select count(*)::int from public.featured_jobs where id = tests.row('featured-closed-job')), 1,
  'admin: sees the featured job whose job is closed');
select is((select count(*)::int from public.featured_jobs), 3, 'admin: sees every featured job, active or not');
select lives_ok($$ insert into public.featured_jobs (id, job_id, custom_excerpt, custom_title, tags)
                   values (tests.row('featured-new'), tests.job('draft'), 'New one', null, '{}') $$, 'admin: adds a featured job');
select is((select display_order from public.featured_jobs where id = tests.row('featured-new')), 3, 'admin: display_order defaults to the current count (3)');
select is((select tags from public.featured_jobs where id = tests.row('featured-new')), '{}'::text[], 'admin: tags stored empty');
select results_eq($$ with u as (update public.featured_jobs set display_order = 0, custom_title = 'Override'
                     where id = tests.row('featured-new') returning display_order, custom_title) select * from u $$,
  $$ values (0, 'Override'::text) $$, 'admin: edits the order and overrides');
select throws_ok($$ insert into public.featured_jobs (job_id, custom_excerpt) values (tests.job('active1'), 'dup') $$,
  '23505', null, 'admin: a job is featured at most once');
select throws_ok($$ insert into public.featured_jobs (job_id, custom_excerpt) values (tests.job('closed'), '   ') $$,
  '23514', null, 'admin: custom_excerpt must not be blank');
select throws_ok($$ insert into public.featured_jobs (job_id) values (tests.job('closed')) $$,
  '23502', null, 'admin: custom_excerpt is required');
select results_eq($$ with u as (update public.featured_jobs set is_active = not is_active where id = tests.row('featured-active') returning is_active)
                     select * from u $$, $$ values (false) $$, 'admin: toggles is_active');
select ok((select updated_at > created_at or updated_at = now() from public.featured_jobs where id = tests.row('featured-active')),
  'admin: updated_at is refreshed by the trigger');
select results_eq($$ with d as (delete from public.featured_jobs where id = tests.row('featured-new') returning 1) select count(*)::int from d $$,
  $$ values (1) $$, 'admin: removes a featured job');

-- service_role
select tests.as_service();
select is((select count(*)::int from public.featured_jobs), 3, 'service_role: sees every featured job');
select lives_ok($$ update public.featured_jobs set display_order = 9 where id = tests.row('featured-off') $$, 'service_role: writes');

select * from finish();
rollback;
