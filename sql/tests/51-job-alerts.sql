-- Job alerts (0405, 0408): who may reach the table (anon nothing; a candidate their own rows and only the search and
-- frequency columns; admins no one else's; service_role all), signing up (double opt-in with the consent recorded, a
-- verified account address active at once, rate limits, refusals), the confirmation and unsubscribe links (tokens
-- hashed or signed, never stored in clear) and their pages, and export/erasure through the personal-data registry.
begin;
\ir lib/setup.sql
select plan(41);

select set_config('request.headers', '{"x-forwarded-for":"192.0.2.10"}', true);

-- A visitor signs up: pending, consent kept, a confirmation mail with a token only its hash is stored for
select tests.as_anon();
select is(public.create_job_alert(email => 'Visitor@Example.org', consent_text => 'Yes please', q => 'manager',
          regions => '{London}', frequency => 'daily'), '{"status": "pending"}'::jsonb, 'a visitor''s alert waits for confirmation');
select tests.as_owner();
select results_eq($$ select email, status::text, frequency::text, consent_text, user_id from public.job_alerts $$,
  $$ values ('visitor@example.org'::text, 'pending'::text, 'daily'::text, 'Yes please'::text, null::uuid) $$,
  'stored lower-cased, pending, with the consent wording and no account');
select ok((select consent_at > now() - interval '1 minute' and confirmed_at is null from public.job_alerts), 'consent time recorded; not confirmed');
select is((select count(*)::int from gateway.outbox where to_address = 'visitor@example.org' and subject like 'Confirm your job alert%'), 1,
  'one confirmation e-mail');
create temp table tok as select substring(body_text from 'confirm\?token=([0-9a-f]{64})') as t from gateway.outbox where to_address = 'visitor@example.org';
select ok((select confirm_token_hash = sha256(convert_to(t, 'UTF8')) from public.job_alerts, tok), 'only the token''s SHA-256 is stored');
select is((select count(*)::int from public.job_alerts a, tok where a::text like '%' || t || '%'), 0, 'the token itself is nowhere in the row');

-- The confirmation page, then the POST
grant select on tok to anon;
select tests.as_anon();
select matches(public.render_alert_page('confirm', 'token=' || (select t from tok)) ->> 'body', 'Confirm my job alert', 'GET shows the button, changes nothing');
select tests.as_owner();
select is((select status::text from public.job_alerts), 'pending', 'still pending after the GET');
select tests.as_anon();
select matches(public.post_alert_page('confirm', 'token=' || (select t from tok), '') ->> 'body', 'Your job alert is on', 'POST confirms');
select is((public.post_alert_page('confirm', 'token=' || (select t from tok), '') ->> 'status')::int, 404, 'the link works once');
select is((public.render_alert_page('confirm', 'token=' || repeat('0', 64)) ->> 'status')::int, 404, 'an unknown token is 404');
select tests.as_owner();
select ok((select status = 'active' and confirmed_at is not null and confirm_token_hash is null from public.job_alerts), 'active, confirmed, token gone');

-- A candidate signed in with their verified address: active at once, theirs
select tests.as_user('cand1');
select is(public.create_job_alert(email => 'cand1@pgtap.test', consent_text => 'Yes', sectors => '{Consultancy}'),
  '{"status": "active"}'::jsonb, 'a verified account address needs no confirmation');
select is(public.create_job_alert(email => 'other@pgtap.test', consent_text => 'Yes'), '{"status": "pending"}'::jsonb,
  'another address still does');
select results_eq($$ select email, status::text from public.job_alerts order by email $$,
  $$ values ('cand1@pgtap.test'::text, 'active'::text), ('other@pgtap.test'::text, 'pending'::text) $$,
  'candidate: lists their own alerts only (not the visitor''s)');
select lives_ok($$ update public.job_alerts set frequency = 'daily', q = 'surveyor' where email = 'cand1@pgtap.test' $$, 'candidate: changes the search and frequency');
select throws_ok($$ update public.job_alerts set status = 'active' where email = 'other@pgtap.test' $$, '42501', null, 'candidate: cannot confirm by hand');
select throws_ok($$ update public.job_alerts set email = 'x@y.example' $$, '42501', null, 'candidate: cannot change the address');
select throws_ok($$ update public.job_alerts set consent_text = 'no' $$, '42501', null, 'candidate: cannot rewrite the consent');
select throws_ok($$ insert into public.job_alerts (email, consent_text) values ('a@b.example', 'x') $$, '42501', null,
  'candidate: no direct insert (sign-up goes through create_job_alert)');
select throws_ok($$ select confirm_token_hash from public.job_alerts $$, '42501', null, 'candidate: the token hash is not readable');
select tests.as_user('cand2');
select is_empty($$ select id from public.job_alerts $$, 'another candidate sees none of them');
select is_empty($$ update public.job_alerts set frequency = 'weekly' returning id $$, 'nor changes them');
select is_empty($$ delete from public.job_alerts returning id $$, 'nor deletes them');
select tests.as_user('admin');
select is_empty($$ select id from public.job_alerts $$, 'an admin sees no one else''s alerts either');
select tests.as_anon();
select throws_ok($$ select id from public.job_alerts $$, '42501', null, 'anon: no access to the table');
select tests.as_service();
select is((select count(*)::int from public.job_alerts), 3, 'service_role: every alert');
select throws_ok($$ select * from private.job_alert_sends $$, '42501', null, 'service_role: what was sent is not readable through the API');

-- Refusals
select tests.as_anon();
select throws_ok($$ select public.create_job_alert(email => 'not an address', consent_text => 'Yes') $$, '22023', 'Enter a valid e-mail address', 'a bad address');
select throws_ok($$ select public.create_job_alert(email => 'a@b.example', consent_text => ' ') $$, '22023', 'Tick the box to agree to receive job alerts', 'no consent, no alert');
select throws_ok($$ select public.create_job_alert(email => 'a@b.example', consent_text => 'Yes', regions => '{Atlantis}') $$, '22P02', null, 'an unknown region');
-- the form's limit per client (10 an hour; 3 used above by this address's client... cand1 counts separately)
select tests.as_owner();
insert into private.settings (key, value) values ('limit:job_alert_per_client_per_hour', '4') on conflict (key) do update set value = '4';
select tests.as_anon();
select lives_ok($$ select public.create_job_alert(email => 'fourth@b.example', consent_text => 'Yes') $$, 'the fourth sign-up from one client passes');
select throws_ok($$ select public.create_job_alert(email => 'fifth@b.example', consent_text => 'Yes') $$, 'PGRST', null, 'the fifth is refused (429)');

-- Unsubscribe links: signed, work without signing in, and delete the alert
select tests.as_owner();
create temp table utok as select private.job_alert_unsubscribe_token(id) as t, id from public.job_alerts where email = 'visitor@example.org';
grant select on utok to anon;
select ok((select t ~ ('^' || id::text || '\.[0-9a-f]{64}$') from utok), 'the link is the id and its HMAC');
select tests.as_anon();
select is((public.render_alert_page('unsubscribe', 'token=' || (select id::text || '.' || repeat('0', 64) from utok)) ->> 'status')::int, 404,
  'a forged signature is refused');
select matches(public.post_alert_page('unsubscribe', 'token=' || (select t from utok), 'List-Unsubscribe=One-Click') ->> 'body',
  'You are unsubscribed', 'a one-click POST unsubscribes');
select matches(public.render_alert_page('unsubscribe', 'token=' || (select t from utok)) ->> 'body', 'already been deleted', 'the link then says so');
select tests.as_owner();
select is((select count(*)::int from public.job_alerts where email = 'visitor@example.org'), 0, 'the alert is deleted');

-- Export and erasure (the personal-data registry)
select tests.as_user('cand1');
select is((select jsonb_array_length(public.export_my_data() -> 'job_alerts')), 2, 'Download my data lists the account''s alerts');
select is((public.export_my_data() -> 'job_alerts' -> 0 ->> 'consent_text'), 'Yes', 'with the consent given');
select tests.as_owner();
select is(private.erase_job_alerts(row(tests.uid('cand1'), 'cand1@pgtap.test')::private.data_subject), 2::bigint,
  'erasure deletes them');

select * from finish();
rollback;
