-- candidate_profiles: the public reads only the public columns of active profiles (by slug, or as related
-- profiles); private columns are refused in select, filter, order and whole-row use, for admins too (column
-- grants are per role); admins write through the table and read private fields through admin_candidate_profiles().
begin;
\ir lib/setup.sql
select plan(45);

-- anon: the public profile page and the related-profiles sidebar
select tests.as_anon();
select results_eq($$ select candidate_id, job_title, candidate_reference, details from public.candidate_profiles
                     where slug = 'slug-active-0123456789abcdef' and status = 'active' $$,
  $$ values ('CAND-T1'::text, 'Asset Manager'::text, 'Ref A'::text, 'Public details'::text) $$, 'anon: reads an active profile by slug');
select is_empty($$ select id from public.candidate_profiles where slug = 'slug-inactive-0123456789abcdef' and status = 'active' $$,
  'anon: an inactive profile''s link is not found');
select is_empty($$ select id from public.candidate_profiles where slug = 'slug-inactive-0123456789abcdef' $$,
  'anon: an inactive profile is invisible even without the status filter');
select results_eq($$ select candidate_id, slug from public.candidate_profiles
                     where status = 'active' and id <> tests.row('profile-active2') and job_title is not null limit 5 $$,
  $$ values ('CAND-T1'::text, 'slug-active-0123456789abcdef'::text) $$, 'anon: related profiles (id, candidate_id, job_title, slug)');
select is((select count(*)::int from public.candidate_profiles), 2, 'anon: count covers active profiles only');
select throws_ok($$ select * from public.candidate_profiles $$, '42501', 'permission denied for table candidate_profiles', 'anon: select * is refused (private columns)');
select throws_ok($$ select name from public.candidate_profiles $$, '42501', null, 'anon: cannot select name');
select throws_ok($$ select email from public.candidate_profiles $$, '42501', null, 'anon: cannot select email');
select throws_ok($$ select location from public.candidate_profiles $$, '42501', null, 'anon: cannot select location');
select throws_ok($$ select source from public.candidate_profiles $$, '42501', null, 'anon: cannot select source');
select throws_ok($$ select id from public.candidate_profiles where name like 'A%' $$, '42501', null, 'anon: cannot filter on name (no oracle)');
select throws_ok($$ select id from public.candidate_profiles where email = 'alice@private.test' $$, '42501', null, 'anon: cannot filter on email');
select throws_ok($$ select id from public.candidate_profiles order by location $$, '42501', null, 'anon: cannot order by location');
select throws_ok($$ select row_to_json(p) from public.candidate_profiles p $$, '42501', null, 'anon: cannot read the whole row');
select throws_ok($$ select public.admin_candidate_profiles() $$, '42501', 'permission denied for function admin_candidate_profiles', 'anon: cannot call the admin read');
select throws_ok($$ insert into public.candidate_profiles (candidate_id, name) values ('CAND-X', 'X') $$, '42501', 'permission denied for table candidate_profiles', 'anon: cannot insert');
select throws_ok($$ update public.candidate_profiles set status = 'active' $$, '42501', 'permission denied for table candidate_profiles', 'anon: cannot update');
select throws_ok($$ delete from public.candidate_profiles $$, '42501', 'permission denied for table candidate_profiles', 'anon: cannot delete');

-- candidate (signed in, not admin)
select tests.as_user('cand1');
select is((select count(*)::int from public.candidate_profiles), 2, 'candidate: sees active profiles only');
select throws_ok($$ select name from public.candidate_profiles $$, '42501', null, 'candidate: cannot select name');
select throws_ok($$ select id from public.candidate_profiles where location = 'Secretville' $$, '42501', null, 'candidate: cannot filter on location');
select throws_ok($$ select * from public.admin_candidate_profiles() $$, '42501', 'only admins can read candidate profiles with private fields', 'candidate: the admin read refuses non-admins');
select throws_ok($$ insert into public.candidate_profiles (candidate_id, name) values ('CAND-X', 'X') $$,
  '42501', 'new row violates row-level security policy for table "candidate_profiles"', 'candidate: insert refused by RLS');
select throws_ok($$ insert into public.candidate_profiles (candidate_id, name) values ('CAND-T1', 'X') $$,
  '42501', 'new row violates row-level security policy for table "candidate_profiles"', 'candidate: an existing candidate_id is not revealed by a unique error');
select results_eq($$ with u as (update public.candidate_profiles set status = 'active' where id = tests.row('profile-inactive') returning 1) select count(*)::int from u $$,
  $$ values (0) $$, 'candidate: cannot re-activate a profile');
select results_eq($$ with d as (delete from public.candidate_profiles where id = tests.row('profile-active') returning 1) select count(*)::int from d $$,
  $$ values (0) $$, 'candidate: cannot delete a profile');

-- admin
select tests.as_user('admin');
select is((select count(*)::int from public.candidate_profiles), 3, 'admin: sees every profile, inactive too');
select throws_ok($$ select name from public.candidate_profiles $$, '42501', null, 'admin: the table never serves name (column grants are per role)');
select results_eq($$ select name, email, location, source from public.admin_candidate_profiles() order by created_at desc, candidate_id $$,
  $$ values ('Alice Secret'::text, 'alice@private.test'::text, 'Secretville'::text, 'manual'::text),
            ('Bob Secret', 'bob@private.test', 'Hiddenham', 'crm'),
            ('Carol Secret', 'carol@private.test', 'Nowhere', 'manual') $$, 'admin: the admin read returns private fields of every profile');
select results_eq($$ select candidate_id from public.admin_candidate_profiles()
                     where name ilike '%bob%' or email ilike '%bob%' or location ilike '%bob%' $$,
  $$ values ('CAND-T2'::text) $$, 'admin: searches name/email/location through the admin read');
select lives_ok($$ insert into public.candidate_profiles (id, candidate_id, name, email, location, job_title, source, external_id)
                   values (tests.row('profile-new'), 'CAND-NEW', 'New Person', 'new@private.test', 'Leeds', 'Planner', 'manual', 'manual-1732230000000') $$,
  'admin: creates a profile');
select matches((select slug from public.candidate_profiles where id = tests.row('profile-new')), '^[0-9a-f]{32}$',
  'admin: the new profile gets a 128-bit random slug (32 hex)');
select isnt((select slug from public.candidate_profiles where id = tests.row('profile-new')), 'CAND-NEW', 'admin: the slug is not the candidate_id');
select is((select status from public.candidate_profiles where id = tests.row('profile-new')), 'active', 'admin: new profiles are active');
select results_eq($$ with u as (update public.candidate_profiles set job_title = 'Senior Planner' where id = tests.row('profile-new')
                     returning id, candidate_id, job_title, candidate_reference, details, slug, status) select candidate_id, job_title from u $$,
  $$ values ('CAND-NEW'::text, 'Senior Planner'::text) $$, 'admin: updates by id returning the public columns');
select throws_ok($$ update public.candidate_profiles set name = 'Y' where id = tests.row('profile-new') returning name $$, '42501', null,
  'admin: RETURNING a private column is refused (read it through admin_candidate_profiles)');
select results_eq($$ with u as (update public.candidate_profiles set status = 'inactive' where id = tests.row('profile-active') returning status) select * from u $$,
  $$ values ('inactive'::text) $$, 'admin: deactivates a profile');
select results_eq($$ with d as (delete from public.candidate_profiles where id = tests.row('profile-new') returning 1) select count(*)::int from d $$,
  $$ values (1) $$, 'admin: deletes a profile');
select throws_ok($$ insert into public.candidate_profiles (candidate_id, name) values ('CAND-T2', 'Dup') $$, '23505', null, 'candidate_id is unique');
select throws_ok($$ insert into public.candidate_profiles (candidate_id, name) values (' ', 'Blank') $$, '23514', null, 'candidate_id must not be blank');
select throws_ok($$ insert into public.candidate_profiles (candidate_id) values ('CAND-NONAME') $$, '23502', null, 'name is required');
select throws_ok($$ insert into public.candidate_profiles (candidate_id, name, status) values ('CAND-S', 'S', 'archived') $$, '23514', null, 'status is active or inactive');

-- service_role
select tests.as_service();
select is((select count(*)::int from public.candidate_profiles where name is not null), 3, 'service_role: reads private columns');

-- slugs are unique
select tests.as_owner();
select throws_ok($$ insert into public.candidate_profiles (candidate_id, name, slug) values ('CAND-Z', 'Z', 'slug-active-0123456789abcdef') $$,
  '23505', null, 'slug is unique');
select is((select count(distinct slug)::int from (select encode(extensions.gen_random_bytes(16), 'hex') slug from generate_series(1, 1000)) s),
  1000, 'the slug default does not repeat over 1000 draws');

select * from finish();
rollback;
