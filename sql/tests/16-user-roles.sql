-- user_roles and is_admin(): users read their own roles; admins read all; nobody grants a role through the API.
begin;
\ir lib/setup.sql
select plan(16);

select tests.as_anon();
select throws_ok($$ select count(*) from public.user_roles $$, '42501', 'permission denied for table user_roles', 'anon: cannot read roles');
select throws_ok($$ select public.is_admin() $$, '42501', 'permission denied for function is_admin', 'anon: cannot call is_admin()');

select tests.as_user('cand1');
select is_empty($$ select role from public.user_roles where user_id = tests.uid('cand1') and role = 'admin' limit 1 $$,
  'candidate: the site''s admin check finds no row');
select is_empty($$ select user_id from public.user_roles $$, 'candidate: cannot see who the admins are');
select is(public.is_admin(), false, 'candidate: is_admin() is false');
select throws_ok($$ insert into public.user_roles (user_id, role) values (tests.uid('cand1'), 'admin') $$,
  '42501', 'permission denied for table user_roles', 'candidate: cannot grant itself admin');
select throws_ok($$ update public.user_roles set user_id = tests.uid('cand1') $$,
  '42501', 'permission denied for table user_roles', 'candidate: cannot take over an admin row');
select throws_ok($$ delete from public.user_roles $$, '42501', 'permission denied for table user_roles', 'candidate: cannot delete roles');

select tests.as_user('admin');
select results_eq($$ select role from public.user_roles where user_id = tests.uid('admin') and role = 'admin' limit 1 $$,
  $$ values ('admin'::text) $$, 'admin: the site''s admin check finds its row');
select is(public.is_admin(), true, 'admin: is_admin() is true');
select is((select count(*)::int from public.user_roles where role = 'admin'), 2, 'admin: reads every admin (for analytics)');
select throws_ok($$ insert into public.user_roles (user_id, role) values (tests.uid('cand1'), 'admin') $$,
  '42501', 'permission denied for table user_roles', 'admin: roles are granted from the command line, not through the API');

-- a forged claim set without a sub, or with another user's sub, gets exactly that user's rights
select set_config('request.jwt.claims', '{"role":"authenticated"}', true);
select is(public.is_admin(), false, 'no sub: is_admin() is false');
select set_config('request.jwt.claims', '', true);
select is(public.is_admin(), false, 'empty claims (reused connection): is_admin() is false, not an error');

select tests.as_service();
select lives_ok($$ insert into public.user_roles (user_id, role) values (tests.uid('cand2'), 'admin') $$, 'service_role: grants a role');
select tests.as_owner();
select throws_ok($$ insert into public.user_roles (user_id, role) values (tests.uid('cand1'), 'superuser') $$, '23514', null, 'only known roles');

select * from finish();
rollback;
