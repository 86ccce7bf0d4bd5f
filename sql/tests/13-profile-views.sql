-- profile_views: anyone records a view of an active profile as themselves; only admins read views;
-- delete_admin_profile_views() deletes exactly the views made by admins and returns their number.
begin;
\ir lib/setup.sql
select plan(34);

-- anon
select tests.as_anon();
select lives_ok($$ insert into public.profile_views (profile_id, user_id, user_agent, referrer)
                   values (tests.row('profile-active'), null, 'Mozilla/5.0', 'https://mail.example.com/') $$, 'anon: records a view anonymously');
select lives_ok($$ insert into public.profile_views (profile_id, user_agent) values (tests.row('profile-active2'), 'Mozilla/5.0') $$,
  'anon: records a view without user_id or referrer');
select throws_ok($$ insert into public.profile_views (profile_id, user_id) values (tests.row('profile-active'), tests.uid('cand1')) $$,
  '42501', 'new row violates row-level security policy for table "profile_views"', 'anon: cannot record a view as a user');
select throws_ok($$ insert into public.profile_views (profile_id) values (tests.row('profile-inactive')) $$,
  '42501', 'new row violates row-level security policy for table "profile_views"', 'anon: cannot record a view of an inactive profile');
select throws_ok($$ insert into public.profile_views (profile_id) values (tests.row('no-such-profile')) $$,
  '42501', 'new row violates row-level security policy for table "profile_views"', 'anon: cannot record a view of an unknown profile');
select throws_ok($$ insert into public.profile_views (profile_id, viewed_at) values (tests.row('profile-active'), now() - interval '1 year') $$,
  '42501', 'permission denied for table profile_views', 'anon: cannot choose viewed_at');
select throws_ok($$ insert into public.profile_views (profile_id) values (tests.row('profile-active')) returning id $$,
  '42501', 'permission denied for table profile_views', 'anon: cannot read back the view it recorded (RETURNING)');
select throws_ok($$ select count(*) from public.profile_views $$, '42501', 'permission denied for table profile_views', 'anon: cannot read views');
select throws_ok($$ delete from public.profile_views $$, '42501', 'permission denied for table profile_views', 'anon: cannot delete views');
select throws_ok($$ select public.delete_admin_profile_views() $$, '42501', 'permission denied for function delete_admin_profile_views', 'anon: cannot call delete_admin_profile_views()');

-- candidate
select tests.as_user('cand1');
select lives_ok($$ insert into public.profile_views (profile_id, user_id) values (tests.row('profile-active'), tests.uid('cand1')) $$, 'candidate: records a view as itself');
select lives_ok($$ insert into public.profile_views (profile_id, user_id) values (tests.row('profile-active'), null) $$, 'candidate: or anonymously');
select throws_ok($$ insert into public.profile_views (profile_id, user_id) values (tests.row('profile-active'), tests.uid('admin')) $$,
  '42501', 'new row violates row-level security policy for table "profile_views"', 'candidate: cannot record a view as an admin');
select throws_ok($$ insert into public.profile_views (profile_id, user_id) values (tests.row('profile-active'), tests.uid('cand2')) $$,
  '42501', 'new row violates row-level security policy for table "profile_views"', 'candidate: cannot record a view as another user');
select is_empty($$ select id from public.profile_views $$, 'candidate: reads no views');
select results_eq($$ with d as (delete from public.profile_views returning 1) select count(*)::int from d $$, $$ values (0) $$, 'candidate: deletes no views');
select throws_ok($$ select public.delete_admin_profile_views() $$, '42501', 'only admins can clear admin views', 'candidate: delete_admin_profile_views() refuses non-admins');

-- admin
select tests.as_user('admin');
select lives_ok($$ insert into public.profile_views (profile_id, user_id) values (tests.row('profile-active'), tests.uid('admin')) $$, 'admin: records its own view');
select throws_ok($$ select v.id, (select p.name from public.candidate_profiles p where p.id = v.profile_id) from public.profile_views v $$,
  '42501', null, 'admin: embedding a profile''s name into views is refused (profile_views?select=*,candidate_profiles(name))');
select results_eq($$ select (select p.candidate_id from public.candidate_profiles p where p.id = v.profile_id) from public.profile_views v
                     where v.id = tests.row('view-anon') $$, $$ values ('CAND-T1'::text) $$, 'admin: embedding public profile columns into views works');
select is((select count(*)::int from public.profile_views), 10, 'admin: reads every view (5 fixtures + 2 anon + 2 candidate + 1 admin)');
-- The analytics read: views whose user_id is empty or not an admin.
select results_eq($$ select v.profile_id, count(*)::int from public.profile_views v
                     where v.user_id is null or v.user_id not in (select r.user_id from public.user_roles r where r.role = 'admin')
                     group by v.profile_id order by 2 desc $$,
  $$ values (tests.row('profile-active'), 5), (tests.row('profile-active2'), 1) $$, 'admin: analytics excludes admin views');
select is((select count(*)::int from public.user_roles where role = 'admin'), 2, 'admin: reads the admin user ids (user_roles filtered to admin)');
select results_eq($$ with d as (delete from public.profile_views where id = tests.row('view-anon') returning 1) select count(*)::int from d $$,
  $$ values (0) $$, 'admin: cannot delete a visitor''s view directly either');
select is(public.delete_admin_profile_views(), 4, 'admin: delete_admin_profile_views() returns the number of admin views deleted (4)');
select is((select count(*)::int from public.profile_views where user_id in (tests.uid('admin'), tests.uid('admin2'))), 0,
  'admin: no admin view is left, whichever admin made it');
select is((select count(*)::int from public.profile_views), 6, 'admin: every other view is kept');
select is((select count(*)::int from public.profile_views where id = tests.row('view-cand1')), 1, 'admin: the candidate''s fixture view is kept');
select is((select count(*)::int from public.profile_views where user_id is null), 4, 'admin: anonymous views are kept');
select is(public.delete_admin_profile_views(), 0, 'admin: a second call deletes nothing and returns 0');

-- service_role may run it too (e.g. from a maintenance job)
select tests.as_owner();
insert into public.profile_views (profile_id, user_id) values (tests.row('profile-active'), tests.uid('admin2'));
select tests.as_service();
select is(public.delete_admin_profile_views(), 1, 'service_role: delete_admin_profile_views() deletes admin views');
select is((select count(*)::int from public.profile_views), 6, 'service_role: and keeps the others');

-- deleting a profile removes its views; deleting a user keeps the view as anonymous
select tests.as_owner();
delete from public.candidate_profiles where id = tests.row('profile-active2');
select is((select count(*)::int from public.profile_views where profile_id = tests.row('profile-active2')), 0, 'views go with their profile');
delete from auth.users where id = tests.uid('cand1');
select is((select count(*)::int from public.profile_views where id = tests.row('view-cand1') and user_id is null), 1, 'a deleted user''s views stay, anonymous');

select * from finish();
rollback;
