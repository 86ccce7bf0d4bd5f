-- The firm's desk, profiles shared with each client by consent (0456, 0457): consent first; a link per client with
-- an unguessable token and an expiry; revoke, extend; withdrawing consent revokes; anon reaches a profile through a
-- link only while it is in force and learns nothing else; views through a link are attributed to it and classified
-- as every view; an expired or revoked link records nothing. Every role; bad input changes nothing.
begin;
\ir lib/setup.sql
select plan(61);

-- A client's browser (the classification trigger reads the request's headers, as the gateway sets them).
create function tests.as_client(address text) returns void language sql as $$
  select tests.as_anon(),
         set_config('request.headers', json_build_object('x-forwarded-for', address,
           'user-agent', 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) Chrome/130.0')::text, true);
$$;
create table tests.links (name text primary key, id uuid, token text);
grant all on tests.links to public;

/* ---------------------------------------------------------------------------------------------------------------
 * anon and candidates: no way in
 * --------------------------------------------------------------------------------------------------------------- */
select tests.as_anon();
select throws_ok($$ select * from public.profile_consents $$, '42501', null, 'anon: cannot read consents');
select throws_ok($$ select * from public.profile_client_links $$, '42501', null, 'anon: cannot read client links');
select throws_ok($$ select public.admin_create_client_link(tests.row('profile-active'), 'Jo', 'Acme') $$, '42501', null,
  'anon: cannot make a link');
select throws_ok($$ insert into public.profile_views (profile_id, client_link_id) values (tests.row('profile-active'), gen_random_uuid()) $$,
  '42501', null, 'anon: cannot attribute a view to a link by itself');
select is(public.client_profile('not-a-token') ->> 'status', 'unknown', 'anon: a malformed token is unknown');
select is(public.client_profile(repeat('A', 43)) ->> 'status', 'unknown', 'anon: a well-formed unknown token is unknown');
select is(public.record_client_link_view(repeat('A', 43)), false, 'anon: an unknown token records nothing');

select tests.as_user('cand1');
select is_empty($$ select id from public.profile_consents $$, 'candidate: reads no consent');
select is_empty($$ select id from public.profile_client_links $$, 'candidate: reads no client link');
select throws_ok($$ insert into public.profile_consents (profile_id, given_on, method) values ('$$ || tests.row('profile-active') || $$', current_date, 'email') $$,
  '42501', 'new row violates row-level security policy for table "profile_consents"', 'candidate: cannot record a consent');
select throws_ok($$ select public.admin_create_client_link(tests.row('profile-active'), 'Jo', 'Acme') $$, '42501',
  'only admins can share profiles with clients', 'candidate: cannot make a link');
select throws_ok($$ select public.admin_profile_sharing(tests.row('profile-active')) $$, '42501', null, 'candidate: cannot see sharing');
select throws_ok($$ select public.admin_client_link_views() $$, '42501', null, 'candidate: cannot see views per client');
select throws_ok($$ select * from public.admin_profile_clients(array[tests.row('profile-active')]) $$, '42501', null,
  'candidate: cannot see a profile''s clients');

/* ---------------------------------------------------------------------------------------------------------------
 * admin: consent first
 * --------------------------------------------------------------------------------------------------------------- */
select tests.as_user('admin');
select throws_ok($$ select public.admin_create_client_link(tests.row('profile-active'), 'Jo Bloggs', 'Acme Homes') $$, '22023',
  'Record the candidate''s consent before sharing the profile with a client', 'admin: no link without consent');
select throws_ok($$ insert into public.profile_consents (profile_id, given_on, method) values ('$$ || tests.row('profile-active') || $$', current_date + 2, 'email') $$,
  '22023', 'The date consent was given cannot be in the future', 'admin: a consent dated in the future is refused');
select throws_ok($$ insert into public.profile_consents (profile_id, given_on, method) values ('$$ || tests.row('profile-active') || $$', current_date, 'carrier pigeon') $$,
  '22P02', null, 'admin: an unknown way of giving consent is refused');
select lives_ok($$ insert into public.profile_consents (profile_id, given_on, method, scope)
                   values ('$$ || tests.row('profile-active') || $$', current_date - 1, 'phone', 'Asset management roles in London') $$,
  'admin: records the candidate''s consent');
select is((select recorded_by from public.profile_consents where profile_id = tests.row('profile-active')), tests.uid('admin'),
  'admin: who recorded it is the admin');
select throws_ok($$ insert into public.profile_consents (profile_id, given_on, method) values ('$$ || tests.row('profile-active') || $$', current_date, 'email') $$,
  '23505', 'This profile already has a consent in force; withdraw it before recording another', 'admin: one consent in force at a time');

-- Links for two clients.
insert into tests.links select 'acme', (l ->> 'id')::uuid, l ->> 'token'
  from public.admin_create_client_link(tests.row('profile-active'), 'Jo Bloggs', 'Acme Homes') l;
insert into tests.links select 'beta', (l ->> 'id')::uuid, l ->> 'token'
  from public.admin_create_client_link(tests.row('profile-active'), 'Sam Smith', 'Beta Capital', now() + interval '7 days') l;
select ok((select bool_and(token ~ '^[A-Za-z0-9_-]{43}$') from tests.links), 'admin: each link has a 256-bit base64url token');
select isnt((select token from tests.links where name = 'acme'), (select token from tests.links where name = 'beta'), 'admin: tokens differ');
select ok((select p.slug not in (select token from tests.links) from public.candidate_profiles p where p.id = tests.row('profile-active')),
  'admin: the token is not the slug');
select tests.as_owner();
select is((select count(*)::int from public.profile_client_links l join tests.links t on t.id = l.id
           where l.token_hash = sha256(convert_to(t.token, 'UTF8'))), 2, 'only the token''s SHA-256 is stored');
select tests.as_user('admin');
select throws_ok($$ select token_hash from public.profile_client_links $$, '42501', null, 'admin: cannot read the token hashes');
select ok((select expires_at between now() + interval '29 days 23 hours' and now() + interval '30 days 1 hour'
           from public.profile_client_links where id = (select id from tests.links where name = 'acme')), 'admin: the expiry defaults to 30 days');
select throws_ok($$ select public.admin_create_client_link(tests.row('profile-active'), 'Jo', 'Acme', now() - interval '1 day') $$, '22023',
  'The expiry must be in the future', 'admin: an expiry in the past is refused');
select throws_ok($$ select public.admin_create_client_link(tests.row('profile-active'), 'Jo', 'Acme', now() + interval '2 years') $$, '22023',
  'The expiry must be within a year', 'admin: an expiry beyond a year is refused');
select throws_ok($$ select public.admin_create_client_link(tests.row('profile-active'), ' ', 'Acme') $$, '23514', null,
  'admin: a link names its client');
select is((select count(*)::int from public.profile_client_links), 2, 'admin: refused links made nothing');

/* ---------------------------------------------------------------------------------------------------------------
 * anon through a link
 * --------------------------------------------------------------------------------------------------------------- */
select tests.as_client('198.51.100.7');
select is(public.client_profile((select token from tests.links where name = 'acme')) #>> '{profile,candidate_id}', 'CAND-T1',
  'anon: an active link opens the profile');
select is((select array_agg(k order by k) from jsonb_object_keys(public.client_profile((select token from tests.links where name = 'acme')) -> 'profile') k),
  array['candidate_id', 'candidate_reference', 'details', 'job_title'], 'anon: only the public fields');
select ok(position('Jo Bloggs' in public.client_profile((select token from tests.links where name = 'acme'))::text) = 0
          and position('Acme' in public.client_profile((select token from tests.links where name = 'acme'))::text) = 0
          and position('Alice Secret' in public.client_profile((select token from tests.links where name = 'acme'))::text) = 0,
  'anon: not the client''s name or company, not the candidate''s name');
select is(public.record_client_link_view((select token from tests.links where name = 'acme'), 'ua', 'https://mail.example.com/inbox/123'), true,
  'anon: a view through an active link is recorded');
select is(public.record_client_link_view((select token from tests.links where name = 'acme')), true, 'anon: and a reload');
select tests.as_client('203.0.113.9');
select is(public.record_client_link_view((select token from tests.links where name = 'beta')), true, 'anon: the other client''s view');
select tests.as_owner();
select results_eq($$ select count(*)::int, count(*) filter (where is_repeat)::int, count(*) filter (where new_viewer)::int,
                           min(referrer) from public.profile_views where client_link_id = (select id from tests.links where name = 'acme') $$,
  $$ values (2, 1, 1, 'https://mail.example.com') $$, 'the link''s views are classified as every view (a repeat, one new viewer, the referrer''s origin)');
-- One transaction: every view has the same time. Acme's were an hour earlier, so Beta was looked at last.
update public.profile_views set viewed_at = viewed_at - interval '1 hour'
 where client_link_id = (select id from tests.links where name = 'acme');

/* ---------------------------------------------------------------------------------------------------------------
 * admin: per-client figures, revoke, extend, withdraw
 * --------------------------------------------------------------------------------------------------------------- */
select tests.as_user('admin');
select results_eq($$ select client_company, views::int from public.admin_profile_clients(array[tests.row('profile-active')]) order by 1 $$,
  $$ values ('Acme Homes', 2), ('Beta Capital', 1) $$, 'admin: the profile''s clients with their views');
select is((public.admin_client_link_views() ->> 'viewed_links')::int, 2, 'admin: views per client: two clients looked');
select is((public.admin_client_link_views() -> 'links' -> 0 ->> 'client_company'), 'Beta Capital', 'admin: most recently viewed first');
select is(json_array_length(public.admin_profile_sharing(tests.row('profile-active')) -> 'links'), 2, 'admin: the sharing panel lists both links');
select is((public.admin_profile_sharing(tests.row('profile-active')) #>> '{consent,method}'), 'phone', 'admin: with the consent in force');

select lives_ok($$ update public.profile_client_links set revoked = true where id = (select id from tests.links where name = 'beta') $$,
  'admin: revokes one client''s link');
select is((select revoked_by from public.profile_client_links where id = (select id from tests.links where name = 'beta')), tests.uid('admin'),
  'admin: who revoked it is recorded');
select throws_ok($$ update public.profile_client_links set revoked = false where id = (select id from tests.links where name = 'beta') $$,
  '22023', 'A revoked link cannot be restored; make a new link', 'admin: a revoked link stays revoked');
select throws_ok($$ update public.profile_client_links set expires_at = now() + interval '60 days' where id = (select id from tests.links where name = 'beta') $$,
  '22023', 'A revoked link cannot be extended; make a new link', 'admin: a revoked link cannot be extended');
select throws_ok($$ update public.profile_client_links set expires_at = now() - interval '1 minute' where id = (select id from tests.links where name = 'acme') $$,
  '22023', 'The expiry must be in the future', 'admin: an extension into the past is refused');
select lives_ok($$ update public.profile_client_links set expires_at = now() + interval '60 days' where id = (select id from tests.links where name = 'acme') $$,
  'admin: extends the other');
select throws_ok($$ update public.profile_client_links set client_name = 'Someone else' $$, '42501', null, 'admin: cannot change a link''s client');

select tests.as_client('203.0.113.9');
select is(public.client_profile((select token from tests.links where name = 'beta'))::jsonb, '{"status": "revoked"}'::jsonb,
  'anon: a revoked link shows it is revoked, without the profile');
select is(public.record_client_link_view((select token from tests.links where name = 'beta')), false, 'anon: and records nothing');

-- Expired: moved into the past as the owner (no admin may set a past expiry).
select tests.as_owner();
alter table public.profile_client_links disable trigger profile_client_links_check;
update public.profile_client_links set expires_at = now() - interval '1 second' where id = (select id from tests.links where name = 'acme');
alter table public.profile_client_links enable trigger profile_client_links_check;
select tests.as_client('198.51.100.7');
select is(public.client_profile((select token from tests.links where name = 'acme'))::jsonb, '{"status": "expired"}'::jsonb,
  'anon: an expired link shows it has expired, without the profile');
select is(public.record_client_link_view((select token from tests.links where name = 'acme')), false, 'anon: and records nothing');
select tests.as_owner();
select is((select count(*)::int from public.profile_views where client_link_id is not null), 3, 'no view was recorded through a dead link');
update public.profile_client_links set expires_at = now() + interval '1 day' where id = (select id from tests.links where name = 'acme');

-- Withdrawing consent revokes the links at once.
select tests.as_user('admin');
select lives_ok($$ update public.profile_consents set withdrawn = true where profile_id = '$$ || tests.row('profile-active') || $$' $$,
  'admin: records that the candidate withdrew consent');
select is((select count(*)::int from public.profile_client_links where not revoked), 0, 'admin: every link of the profile is revoked at once');
select throws_ok($$ select public.admin_create_client_link(tests.row('profile-active'), 'Jo Bloggs', 'Acme Homes') $$, '22023', null,
  'admin: no new link while consent is withdrawn');
select throws_ok($$ update public.profile_consents set withdrawn = false $$, '22023', 'A withdrawn consent cannot be restored; record a new consent',
  'admin: a withdrawn consent stays withdrawn');

/* ---------------------------------------------------------------------------------------------------------------
 * audit and service_role
 * --------------------------------------------------------------------------------------------------------------- */
select ok((select count(*) >= 6 from public.audit_log where table_name in ('profile_consents', 'profile_client_links')
           and actor_id = tests.uid('admin')), 'audit: consents, links, revocations and extensions are logged');
select ok((select bool_and(coalesce(new_data, '{}') - array['id', 'profile_id', 'client_company', 'expires_at', 'revoked',
                                                           'given_on', 'method', 'withdrawn'] = '{}')
           from public.audit_log where table_name in ('profile_consents', 'profile_client_links')),
  'audit: no token hash, client name or scope in the log');
select tests.as_service();
select is((select count(*)::int from public.profile_client_links), 2, 'service_role: reads every link');

select * from finish();
rollback;
