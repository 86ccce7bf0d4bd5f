-- Profile views as the database classifies them (0233) and the analytics computed from them (0234): repeats within
-- 30 minutes, bots, admin views (also of a deleted admin), a deleted candidate's views, unique viewers from a
-- daily-salted hash; who may read analytics; an inactive profile's slug reveals nothing.
begin;
\ir lib/setup.sql
select plan(45);

-- One page load: the request headers the gateway sets, the viewer's claims, and the view's time (the owner inserts so
-- the fixture can place views in the past; the API path and its policies are tested in 13-profile-views.sql).
create function tests.visit(profile_name text, ua text, ip text, minutes_ago integer, viewer text default null) returns void
language plpgsql as $$
begin
  perform tests.as_owner();
  perform set_config('request.headers', json_build_object('user-agent', ua, 'x-forwarded-for', ip, 'accept-language', 'en-GB')::text, true);
  perform set_config('request.jwt.claims', case when viewer is null then '{"role":"anon"}'
    else json_build_object('sub', tests.uid(viewer), 'role', 'authenticated')::text end, true);
  insert into public.profile_views (profile_id, user_id, user_agent, referrer, viewed_at)
  values (tests.row(profile_name), case when viewer is null then null else tests.uid(viewer) end, 'sent by the page',
          'https://Mail.Example.com/inbox/secret-token?x=1', now() - make_interval(mins => minutes_ago));
  perform set_config('request.headers', '', true);
  perform set_config('request.jwt.claims', '', true);
end;
$$;

select tests.as_owner();
delete from public.profile_views;
insert into auth.users (id, aud, role, email) values (tests.uid('leaver'), 'authenticated', 'authenticated', 'leaver@pgtap.test'),
  (tests.uid('old-admin'), 'authenticated', 'authenticated', 'old-admin@pgtap.test');
insert into public.user_roles (user_id, role) values (tests.uid('old-admin'), 'admin');

-- Oldest first: a repeat looks back 30 minutes from its own time.
select tests.visit('profile-active', 'Mozilla/5.0 (Windows NT 10.0) Chrome/130.0', '203.0.113.7', 60);   -- A: first
select tests.visit('profile-active', 'Mozilla/5.0 (Windows NT 10.0) Chrome/130.0', '203.0.113.7', 50);   -- A: reload after 10 min: repeat
select tests.visit('profile-active', 'Mozilla/5.0 (Windows NT 10.0) Chrome/130.0', '203.0.113.7', 10);   -- A: after 40 min: a view, not a new viewer
select tests.visit('profile-active', 'Mozilla/5.0 (Macintosh) Safari/605.1', '198.51.100.2', 30);        -- B: first
select tests.visit('profile-active', 'Mozilla/5.0 (compatible; Googlebot/2.1)', '66.249.66.1', 20);     -- bot
select tests.visit('profile-active', 'Mozilla/5.0 AppleWebKit (KHTML) Microsoft Outlook SafeLinks', '40.94.1.1', 19); -- mail scanner
select tests.visit('profile-active', 'Mozilla/5.0 (X11; Linux) Firefox/131.0', '192.0.2.1', 15, 'admin'); -- admin
select tests.visit('profile-active2', 'Mozilla/5.0 (Android 14) Chrome/130.0', '192.0.2.50', 40, 'leaver'); -- candidate, deleted below
select tests.visit('profile-active2', 'Mozilla/5.0 (X11) Chrome/129.0', '192.0.2.60', 35, 'old-admin');  -- an admin, deleted below
select tests.visit('profile-active2', 'Mozilla/5.0 (Windows NT 10.0) Chrome/130.0', '203.0.113.7', 5);  -- A on another profile

select tests.as_owner();
delete from auth.users where id in (tests.uid('leaver'), tests.uid('old-admin'));

-- What the database recorded.
select is((select count(*)::int from public.profile_views), 10, 'every view is kept, bots and repeats included');
select results_eq($$ select is_repeat, new_viewer, is_bot, by_admin from public.profile_views
                     where profile_id = tests.row('profile-active') order by viewed_at $$,
  $$ values (false, true, false, false), (true, false, false, false), (false, true, false, false), (false, false, true, false),
            (false, false, true, false), (false, false, false, true), (false, false, false, false) $$,
  'A''s first view, A''s reload within 30 min (repeat), B''s first view, two bots, an admin, A again after 50 min (a view, not a new viewer)');
select is((select count(*)::int from public.profile_views where user_id is null and profile_id = tests.row('profile-active2')), 3,
  'deleted users'' views are kept with user_id null');
select is((select by_admin from public.profile_views where user_agent like '%Chrome/129%'), true, 'a deleted admin''s view stays an admin view');
select is((select count(distinct visitor_hash)::int from public.profile_views where profile_id = tests.row('profile-active') and not is_bot and not by_admin), 2,
  'two visitors to profile-active by their hashes');
select is((select count(distinct visitor_hash)::int from public.profile_views where user_agent like '%Chrome/130.0' and user_agent like '%Windows%'), 1,
  'the same visitor has the same hash on two profiles today');
select is((select user_agent from public.profile_views where user_agent like '%Googlebot%'), 'Mozilla/5.0 (compatible; Googlebot/2.1)',
  'the user agent comes from the request header, not the page''s body');
select is((select count(*)::int from public.profile_views where referrer = 'https://mail.example.com'), 10, 'only the referrer''s origin is kept');
select is_empty($$ select 1 from information_schema.columns where table_schema = 'public' and table_name = 'profile_views'
                   and column_name ~ '(^ip|address|cookie)' $$, 'no address or cookie column');
select is((select count(*)::int from private.profile_view_salts), 1, 'one salt for today');
insert into private.profile_view_salts (day) values ((now() at time zone 'utc')::date - 5);
select isnt(private.profile_view_salt((now() at time zone 'utc')::date + 1), private.profile_view_salt((now() at time zone 'utc')::date),
  'the next day gets a new salt');
select results_eq($$ select day - (now() at time zone 'utc')::date from private.profile_view_salts order by day $$, $$ values (0), (1) $$,
  'when a day''s salt is made, salts older than the day before are dropped');
delete from private.profile_view_salts where day > (now() at time zone 'utc')::date;

-- The analytics (as an admin).
select tests.as_user('admin');
select is((public.admin_profile_analytics() ->> 'total_profiles')::int, 3, 'total profiles (inactive included)');
select is((public.admin_profile_analytics() ->> 'total_views')::int, 6, 'total views: 4 on profile-active (repeat included), 2 on profile-active2');
select is((public.admin_profile_analytics() ->> 'unique_viewers')::int, 4, 'unique viewers: A and B on profile-active, the deleted candidate and A on profile-active2');
select is((public.admin_profile_analytics() ->> 'profiles_viewed')::int, 2, 'profiles viewed');
select is((public.admin_profile_analytics() ->> 'engagement_rate')::int, 67, 'engagement rate: 2 of 3, rounded');
select is((public.admin_profile_analytics() ->> 'excluded_admin_views')::int, 2, 'admin views excluded (one by a deleted admin)');
select is((public.admin_profile_analytics() ->> 'excluded_bot_views')::int, 2, 'bot views excluded');
select results_eq(
  $$ select p ->> 'candidate_id', (p ->> 'views')::int, (p ->> 'unique_viewers')::int, p ->> 'name'
     from json_array_elements(public.admin_profile_analytics() -> 'profiles') p $$,
  $$ values ('CAND-T1', 4, 2, 'Alice Secret'), ('CAND-T2', 2, 2, 'Bob Secret'), ('CAND-T3', 0, 0, 'Carol Secret') $$,
  'per profile: views and unique viewers, sorted by views, unviewed profiles listed with 0');
select ok((select (p ->> 'first_viewed')::timestamptz between now() - interval '61 minutes' and now() - interval '59 minutes'
             and (p ->> 'last_viewed')::timestamptz between now() - interval '11 minutes' and now() - interval '9 minutes'
           from json_array_elements(public.admin_profile_analytics() -> 'profiles') p where p ->> 'candidate_id' = 'CAND-T1'),
  'first and last viewed ignore bots and admins');
select ok((select p ->> 'first_viewed' is null from json_array_elements(public.admin_profile_analytics() -> 'profiles') p
           where p ->> 'candidate_id' = 'CAND-T3'), 'an unviewed profile has no first view');
select is((select sum((d ->> 'views')::int)::int from json_array_elements(public.admin_profile_analytics() -> 'trend' -> 'daily') d), 6,
  'the daily trend adds up to the counted views');
select is(json_array_length(public.admin_profile_analytics() -> 'trend' -> 'daily'), 30, 'the trend has the last 30 days, zero days included');
select is((public.admin_profile_analytics() -> 'trend' -> 'referrers' -> 0 ->> 'referrer'), 'https://mail.example.com', 'top referrer by origin');
select is((select sum((d ->> 'views')::int)::int from json_array_elements(public.admin_profile_view_trend(tests.row('profile-active2')) -> 'daily') d), 2,
  'one profile''s trend');

-- Clear Admin Views deletes the admin views (the deleted admin's too); the figures stay the same.
select is(public.delete_admin_profile_views(), 2, 'Clear Admin Views returns the number deleted, including a deleted admin''s');
select is((public.admin_profile_analytics() ->> 'total_views')::int, 6, 'counted views are unchanged by clearing admin views');
select is((public.admin_profile_analytics() ->> 'excluded_admin_views')::int, 0, 'no admin views left');

-- Granting the admin role makes a user's earlier views admin views.
select tests.as_service();
insert into public.user_roles (user_id, role) values (tests.uid('cand1'), 'admin');
select tests.as_owner();
select tests.visit('profile-active2', 'Mozilla/5.0 (iPad) Safari/605.1', '192.0.2.70', 1, 'cand2');
select tests.as_user('admin');
select is((public.admin_profile_analytics() ->> 'total_views')::int, 7, 'a candidate''s view counts');
select tests.as_service();
insert into public.user_roles (user_id, role) values (tests.uid('cand2'), 'admin');
select tests.as_user('admin');
select is((public.admin_profile_analytics() ->> 'total_views')::int, 6, 'once the candidate holds the admin role, their view is excluded');
-- Deleting a profile removes its totals with it.
delete from public.candidate_profiles where id = tests.row('profile-active2');
select is((public.admin_profile_analytics() ->> 'total_views')::int, 4, 'a deleted profile''s views leave the totals');

-- Who may read analytics.
select tests.as_owner();
insert into auth.users (id, aud, role, email) values (tests.uid('reader'), 'authenticated', 'authenticated', 'reader@pgtap.test');
select tests.as_user('reader');
select throws_ok($$ select public.admin_profile_analytics() $$, '42501', 'only admins can read profile analytics', 'candidate: no analytics');
select throws_ok($$ select public.admin_profile_view_trend(null) $$, '42501', 'only admins can read profile analytics', 'candidate: no trend');
select is_empty($$ select id from public.profile_views $$, 'candidate: reads no views');
select tests.as_anon();
select throws_ok($$ select public.admin_profile_analytics() $$, '42501', 'permission denied for function admin_profile_analytics', 'anon: no analytics');
select throws_ok($$ select public.admin_profile_view_trend(null) $$, '42501', 'permission denied for function admin_profile_view_trend', 'anon: no trend');
select throws_ok($$ select public.admin_candidate_profile_page() $$, '42501', 'permission denied for function admin_candidate_profile_page', 'anon: no candidate page');
select throws_ok($$ select * from private.profile_view_totals $$, '42501', 'permission denied for table profile_view_totals', 'anon: no totals');
select throws_ok($$ select * from private.profile_view_salts $$, '42501', 'permission denied for table profile_view_salts', 'anon: no salts');

-- An inactive profile's slug reveals nothing: no row, no column, and recording a view fails exactly as for a slug
-- that never existed.
select is_empty($$ select id, candidate_id, job_title, details from public.candidate_profiles where slug = 'slug-inactive-0123456789abcdef' $$,
  'anon: an inactive profile''s slug finds nothing');
select is_empty($$ select id from public.candidate_profiles where id = tests.row('profile-inactive') $$, 'anon: nor does its id');
select throws_ok($$ insert into public.profile_views (profile_id) values (tests.row('profile-inactive')) $$,
  '42501', 'new row violates row-level security policy for table "profile_views"', 'anon: a view of an inactive profile is refused');
select throws_ok($$ insert into public.profile_views (profile_id) values (tests.row('never-existed')) $$,
  '42501', 'new row violates row-level security policy for table "profile_views"', 'anon: with the same error as an unknown profile');
select tests.as_user('reader');
select is_empty($$ select id from public.candidate_profiles where slug = 'slug-inactive-0123456789abcdef' $$,
  'candidate: an inactive profile''s slug finds nothing');

select * from finish();
rollback;
