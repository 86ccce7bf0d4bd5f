-- The admin lists paged and searched on the server: admin_candidate_profile_page's search by name and by e-mail
-- (case-insensitive substrings; % _ and \ match themselves, never as LIKE wildcards) with its counts and paging
-- (0235), and admin_profile_analytics's per-profile table one page at a time with every row for the CSV export
-- from admin_profile_figures (0236).
begin;
\ir lib/setup.sql
select plan(22);

insert into public.candidate_profiles (id, candidate_id, name, email, location, status) values
  (tests.row('percent'), 'CAND-P1', 'Percy 100% Sure', 'percy@sure.test', 'Oxford', 'active'),
  (tests.row('under'), 'CAND-P2', 'Una Der', 'Una_Der@Example.TEST', 'Cambridge', 'active'),
  (tests.row('slash'), 'CAND-P3', 'Bea Back\Slash', 'bea@back.test', 'Bath', 'inactive');

-- The matching candidate_ids of a search, in the page's order.
create function tests.found(term text) returns text[] language sql as $$
  select coalesce(array_agg(p ->> 'candidate_id' order by p ->> 'candidate_id'), '{}')
  from json_array_elements(public.admin_candidate_profile_page(term, 200, 0) -> 'profiles') p
$$;

select tests.as_user('admin');
-- By name.
select is(tests.found('ALICE SECRET'), array['CAND-T1'], 'name: case-insensitive');
select is(tests.found('ecre'), array['CAND-T1', 'CAND-T2', 'CAND-T3'], 'name: any substring ("Secret" in three names)');
select is(tests.found('  bob  '), array['CAND-T2'], 'name: the term is trimmed');
-- By e-mail.
select is(tests.found('BOB@PRIVATE.TEST'), array['CAND-T2'], 'e-mail: case-insensitive');
select is(tests.found('una_der@example'), array['CAND-P2'], 'e-mail: stored in mixed case, found in lower case');
select is(tests.found('@private.'), array['CAND-T1', 'CAND-T2', 'CAND-T3'], 'e-mail: the domain finds every profile at it');
-- % and _ are characters, not wildcards.
select is(tests.found('100%'), array['CAND-P1'], '% matches a percent sign');
select is(tests.found('a%e'), '{}'::text[], '% is no wildcard ("a%e" would match "Alice Secret")');
select is(tests.found('%'), array['CAND-P1'], 'a lone % finds only the name holding one');
select is(tests.found('a_d'), array['CAND-P2'], '_ matches an underscore ("Una_Der@")');
select is(tests.found('b_b'), '{}'::text[], '_ is no wildcard ("b_b" would match "bob@")');
select is(tests.found('k\S'), array['CAND-P3'], '\ matches a backslash');
-- Counts and paging of a search.
select is((public.admin_candidate_profile_page('secret', 2, 0) ->> 'matching')::int, 3, 'matching counts the whole search');
select is((public.admin_candidate_profile_page('secret', 2, 0) ->> 'total_profiles')::int, 6, 'total_profiles counts every profile');
select is(json_array_length(public.admin_candidate_profile_page('secret', 2, 2) -> 'profiles'), 1, 'the second page of the search');

-- Analytics: one page of the table by views; every row for the export.
select tests.as_owner();
insert into public.profile_views (profile_id, user_agent)
select tests.row(n), 'Mozilla/5.0 (X11) Firefox/131.0' from unnest(array['under', 'under', 'under', 'percent', 'percent']) n;
select tests.as_user('admin');
select is((select array_agg(p ->> 'candidate_id') from json_array_elements(public.admin_profile_analytics(30, 2, 0) -> 'profiles') p),
  array['CAND-P2', 'CAND-P1'], 'analytics page 1 of 2 rows: the most viewed first, a tie by candidate_id');
select is((select array_agg(p ->> 'candidate_id') from json_array_elements(public.admin_profile_analytics(30, 2, 2) -> 'profiles') p),
  array['CAND-T1', 'CAND-P3'], 'page 2: CAND-T1 (the fixture''s two counted views), then the unviewed by candidate_id');
select is((public.admin_profile_analytics(30, 2, 2) ->> 'total_profiles')::int, 6, 'the pager''s total is every profile');
select is((public.admin_profile_analytics(30, 2, 2) ->> 'total_views')::int, 7, 'the cards count every profile, not the page');
select is((public.admin_profile_analytics(30, 1000, 0) ->> 'page_size')::int, 200, 'a page holds at most 200 rows');
select results_eq($$ select candidate_id, views::int from public.admin_profile_figures() $$,
  $$ values ('CAND-P2', 3), ('CAND-P1', 2), ('CAND-T1', 2), ('CAND-P3', 0), ('CAND-T2', 0), ('CAND-T3', 0) $$,
  'admin_profile_figures: every row, by views then candidate_id');
select tests.as_user('cand1');
select throws_ok($$ select * from public.admin_profile_figures() $$, '42501', 'only admins can read profile analytics',
  'candidate: no figures');

select * from finish();
rollback;
