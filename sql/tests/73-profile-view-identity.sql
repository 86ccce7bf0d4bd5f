-- U5 (sql/migrations/0333): a unique viewer is one address (an IPv6 address by its /64) per profile per day,
-- whatever User-Agent or Accept-Language it sends, and only http(s) referrers are kept, as their origin.
begin;
\ir lib/setup.sql
select plan(21);

-- A page load through the API: the headers the gateway passes, as the given role.
create function tests.view(profile_name text, ip text, ua text, lang text, referrer text default null, viewer text default null)
returns void language plpgsql as $$
begin
  if viewer is null then perform tests.as_anon(); else perform tests.as_user(viewer); end if;
  perform set_config('request.headers', json_build_object('x-forwarded-for', ip, 'user-agent', ua, 'accept-language', lang)::text, true);
  insert into public.profile_views (profile_id, user_id, user_agent, referrer)
  values (tests.row(profile_name), case when viewer is null then null else tests.uid(viewer) end, 'page', referrer);
  perform set_config('request.headers', '', true);
  perform tests.as_owner();
end
$$;
create function tests.unique_viewers(profile_name text) returns int language sql as $$
  select coalesce((select unique_viewers::int from private.profile_view_totals where profile_id = tests.row(profile_name)), 0)
$$;
create function tests.views(profile_name text) returns int language sql as $$
  select coalesce((select views::int from private.profile_view_totals where profile_id = tests.row(profile_name)), 0)
$$;

-- One address, five user agents and languages (the review's attack): one viewer.
select tests.view('profile-active2', '203.0.113.9', 'Mozilla/5.0 (Windows NT 10.0) Chrome/130.0', 'en-GB');
select tests.view('profile-active2', '203.0.113.9', 'Mozilla/5.0 (Macintosh) Safari/605.1', 'fr-FR');
select tests.view('profile-active2', '203.0.113.9', 'Mozilla/5.0 (X11; Linux) Firefox/131.0', 'de');
select tests.view('profile-active2', '203.0.113.9', 'Mozilla/5.0 (iPhone) Mobile Safari', 'es');
select tests.view('profile-active2', '203.0.113.9', 'Mozilla/5.0 (Android 14) Chrome/130.0', 'it');
select is(tests.unique_viewers('profile-active2'), 1, 'anon: five user agents from one address are one unique viewer');
select is(tests.views('profile-active2'), 5, 'anon: and five views');
select is((select count(distinct visitor_hash)::int from public.profile_views where profile_id = tests.row('profile-active2') and user_id is null), 1,
  'one visitor hash for the address');

-- IPv6: addresses of one /64 are one viewer; another /64 is another.
select tests.view('profile-active2', '2001:db8:1:2::1', 'Mozilla/5.0 (Windows NT 10.0) Chrome/130.0', 'en-GB');
select tests.view('profile-active2', '2001:db8:1:2::2', 'Mozilla/5.0 (Windows NT 10.0) Edge/130.0', 'en-GB');
select tests.view('profile-active2', '2001:db8:1:2:ffff:ffff:ffff:ffff', 'Mozilla/5.0 (X11) Firefox/131.0', 'en-US');
select is(tests.unique_viewers('profile-active2'), 2, 'anon: three addresses of one IPv6 /64 are one more viewer');
select tests.view('profile-active2', '2001:db8:1:3::1', 'Mozilla/5.0 (Windows NT 10.0) Chrome/130.0', 'en-GB');
select is(tests.unique_viewers('profile-active2'), 3, 'anon: another /64 is another viewer');
select tests.view('profile-active2', '::ffff:198.51.100.20', 'Mozilla/5.0 Chrome/130.0', 'en-GB');
select tests.view('profile-active2', '198.51.100.20', 'Mozilla/5.0 Firefox/131.0', 'en-GB');
select is(tests.unique_viewers('profile-active2'), 4, 'an IPv4 address written as IPv6 is that IPv4 address');

-- Signed in or not, the address is the viewer.
select tests.view('profile-active2', '192.0.2.77', 'Mozilla/5.0 Chrome/130.0', 'en-GB', null, 'cand1');
select tests.view('profile-active2', '192.0.2.77', 'Mozilla/5.0 Firefox/131.0', 'en-GB', null, 'cand2');
select is(tests.unique_viewers('profile-active2'), 5, 'candidates: two accounts behind one address are one viewer');

-- An admin's view from an address (the firm's office) does not make a visitor's first view there a repeat.
select tests.view('profile-active', '198.51.100.99', 'Mozilla/5.0 Chrome/130.0', 'en-GB', null, 'admin');
select tests.view('profile-active', '198.51.100.99', 'Mozilla/5.0 Firefox/131.0', 'en-GB');
select tests.view('profile-active', '198.51.100.99', 'Mozilla/5.0 Firefox/131.0', 'en-GB');
select results_eq($$ select by_admin, is_repeat, new_viewer from public.profile_views where profile_id = tests.row('profile-active')
                      and user_agent in ('Mozilla/5.0 Chrome/130.0', 'Mozilla/5.0 Firefox/131.0') order by viewed_at, by_admin desc, is_repeat $$,
  $$ values (true, false, false), (false, false, true), (false, true, false) $$,
  'after an admin''s view from the same address: the visitor''s first view is a new viewer, the reload a repeat');
select tests.as_owner();
delete from public.profile_views where profile_id = tests.row('profile-active') and user_agent in ('Mozilla/5.0 Chrome/130.0', 'Mozilla/5.0 Firefox/131.0');
select is((select count(*)::int from public.audit_log where table_name = 'profile_views'), 1, 'the owner''s delete is recorded too');

-- Referrers: http(s) origins only.
select is(private.referrer_origin('javascript://x.example/%0aalert(1)'), null, 'referrer: javascript:// is dropped');
select is(private.referrer_origin('data:text/html,<b>x</b>'), null, 'referrer: data: is dropped');
select is(private.referrer_origin('ftp://files.example.com/cv.pdf'), null, 'referrer: ftp:// is dropped');
select is(private.referrer_origin('https://user:secret@Mail.Example.com:8443/inbox?token=1#x'), 'https://mail.example.com:8443',
  'referrer: https keeps scheme, host and port, never the user name, path or query');
select is(private.referrer_origin('http://[2001:db8::1]/x'), 'http://[2001:db8::1]', 'referrer: an IPv6 host');
select is(private.referrer_origin('https://exa mple.com/'), null, 'referrer: a host with a space is dropped');
select is(private.referrer_origin('https://evil.example<script>/'), null, 'referrer: markup in the host is dropped');
select tests.view('profile-active', '203.0.113.50', 'Mozilla/5.0 Chrome/130.0', 'en-GB', 'javascript://evil.example/%0aalert(1)');
select tests.view('profile-active', '203.0.113.51', 'Mozilla/5.0 Chrome/130.0', 'en-GB', 'https://www.linkedin.com/feed/?x=1');
select results_eq($$ select referrer from public.profile_views where profile_id = tests.row('profile-active') and user_agent = 'Mozilla/5.0 Chrome/130.0' order by referrer nulls first $$,
  $$ values (null::text), ('https://www.linkedin.com') $$, 'anon: a stored referrer is an http(s) origin or nothing');
select tests.as_user('admin');
select is_empty($$ select 1 from json_array_elements(public.admin_profile_analytics() -> 'trend' -> 'referrers') r
                    where r ->> 'referrer' !~ '^https?://' $$, 'admin: the top referrers are all http(s) origins');
select tests.as_owner();

-- The pure helper.
select is(private.viewer_address('2001:DB8:1:2:aaaa::9'), '2001:db8:1:2::/64', 'viewer_address: an IPv6 /64');
select is(private.viewer_address(' 203.0.113.9 '), '203.0.113.9', 'viewer_address: an IPv4 address');
select is(private.viewer_address(null), null, 'viewer_address: no address');

select * from finish();
rollback;
