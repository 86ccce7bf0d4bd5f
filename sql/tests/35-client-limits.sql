-- S3/S4/S5 in SQL (sql/migrations/0260_client_limits.sql, gateway/migrations/0031_outbox_caps.sql): the client
-- address is only the X-Forwarded-For the gateway writes; limits never fail open (no address is one shared bucket)
-- and refuse with 429 + Retry-After; names must be names; one CV backs one application; mail to an unproven address
-- is capped per recipient (+tags folded), per domain and overall, and carries no words from the form. Profile views
-- (0261) are limited per client and overall, CV builder drafts (0262) per account.
begin;
\ir lib/setup.sql
select plan(28);

-- The client address.
select tests.as_anon();
select set_config('request.headers', '{"x-forwarded-for": "203.0.113.7", "x-real-ip": "198.51.100.1"}', true);
select is(private.client_ip(), '203.0.113.7', 'client_ip() is the X-Forwarded-For the gateway wrote');
select set_config('request.headers', '{"x-real-ip": "198.51.100.1"}', true);
select is(private.client_ip(), null, 'X-Real-IP is never read');
select set_config('request.headers', '', true);
select is(private.client_ip(), null, 'no request: no address');

-- Fail closed: without an address, all requests share one bucket.
select tests.as_owner();
insert into private.settings (key, value) values ('limit:enquiry_per_client_per_hour', '2');
delete from private.submission_log;
select tests.as_anon();
select lives_ok($$ insert into public.enquiries (name, email) values ('Hal Jordan', 'h1@example.org') $$, 'anon: first enquiry without an address');
select lives_ok($$ insert into public.enquiries (name, email) values ('Hal Jordan', 'h2@example.org') $$, 'anon: second enquiry without an address');
select throws_ok($$ insert into public.enquiries (name, email) values ('Hal Jordan', 'h3@example.org') $$, 'PGRST', null,
  'anon: the third is refused, never let through for want of a key');
select set_config('request.headers', '{"x-forwarded-for": "203.0.113.8"}', true);
select lives_ok($$ insert into public.enquiries (name, email) values ('Hal Jordan', 'h4@example.org') $$, 'anon: another client has its own bucket');
select tests.as_owner();
create function pg_temp.refusal() returns json language plpgsql as $$
declare detail text;
begin
  perform set_config('request.headers', '', true);
  perform private.take('probe', null, 0, 1);
  return null;
exception when sqlstate 'PGRST' then
  get stacked diagnostics detail = pg_exception_detail;
  return detail::json;
end $$;
select is((pg_temp.refusal()->>'status')::int, 429, 'a refusal is HTTP 429');
select ok((pg_temp.refusal()->'headers'->>'Retry-After')::int between 1 and 3600, 'with Retry-After in seconds');

-- Profile views (0261): per client, then overall.
select tests.as_owner();
insert into private.settings (key, value) values ('limit:profile_view_per_client_per_hour', '2'),
  ('limit:profile_view_per_hour', '3');
select tests.as_anon();
select set_config('request.headers', '{"x-forwarded-for": "203.0.113.20"}', true);
select lives_ok($$ insert into public.profile_views (profile_id) values (tests.row('profile-active')), (tests.row('profile-active2')) $$,
  'anon: two views from one client');
select throws_ok($$ insert into public.profile_views (profile_id) values (tests.row('profile-active')) $$, 'PGRST', null,
  'anon: a third view from that client is refused');
select set_config('request.headers', '{"x-forwarded-for": "203.0.113.21"}', true);
select lives_ok($$ insert into public.profile_views (profile_id) values (tests.row('profile-active')) $$,
  'anon: another client records a view');
select set_config('request.headers', '{"x-forwarded-for": "203.0.113.22"}', true);
select throws_ok($$ insert into public.profile_views (profile_id) values (tests.row('profile-active')) $$, 'PGRST', null,
  'anon: past the overall cap every client is refused');

-- CV builder drafts (0262): per account.
select tests.as_owner();
insert into private.settings (key, value) values ('limit:cv_document_per_user_per_hour', '2');
select tests.as_user('cand2');
select lives_ok($$ insert into public.cv_documents (title) values ('One'), ('Two') $$, 'candidate: two new CVs in an hour');
select throws_ok($$ insert into public.cv_documents (title) values ('Three') $$, 'PGRST', null,
  'candidate: a third is refused (429)');
select tests.as_user('cand1');
select lives_ok($$ insert into public.cv_documents (title) values ('Mine') $$, 'another account has its own count');

-- Names.
select ok(private.is_person_name('Mary-Jane O''Neil'), 'a hyphenated name with an apostrophe');
select ok(private.is_person_name('Zoë Łukasiewicz'), 'letters of any script');
select ok(not private.is_person_name('Click https://evil.example/claim'), 'a link is not a name');
select ok(not private.is_person_name('evil.example'), 'a domain is not a name');
select ok(not private.is_person_name('Ada 2'), 'digits are not a name');
select tests.as_anon();
select set_config('request.headers', '{"x-forwarded-for": "203.0.113.9"}', true);
select throws_ok($$ insert into public.applications (job_id, first_name, last_name, email, phone, cv_object, privacy_consent)
                    values (tests.job('active1'), 'Visit evil.example', 'Now', 'v@example.org', '07700900001', 'applications/vic.pdf', true) $$,
  '23514', null, 'anon: an application''s name must be a name');

-- One CV, one application (applications/ann.pdf backs the fixture's application).
select throws_ok($$ insert into public.applications (job_id, first_name, last_name, email, phone, cv_object, privacy_consent)
                    values (tests.job('active1'), 'Ann', 'Other', 'ann2@example.org', '07700900001', 'applications/ann.pdf', true) $$,
  '23505', null, 'anon: a CV already sent backs no second application');

-- The acknowledgement carries no words from the form.
select lives_ok($$ insert into public.applications (job_id, first_name, last_name, email, phone, cover_letter, cv_object, privacy_consent)
                   values (tests.job('active1'), 'Adalinda', 'Lovelace', 'ada@example.org', '07700900001',
                           'see https://evil.example', 'applications/vic.pdf', true) $$, 'anon: applies');
select tests.as_owner();
select is((select count(*)::int from gateway.outbox where to_address = 'ada@example.org'
            and (body_text ~ 'Adalinda|Lovelace|evil|http' or subject ~ 'Adalinda|Lovelace')), 0,
  'the applicant''s copy holds neither the name nor the cover letter');

-- Outbox caps.
select gateway.enqueue_mail('victim+' || i || '@example.net', 'Hello', 'Hello') from generate_series(1, 7) i;
select is((select count(*)::int from gateway.outbox where recipient_key = 'victim@example.net' and status = 'queued'), 5,
  'five per recipient per hour, +tags folded');
select is((select count(*)::int from gateway.outbox where recipient_key = 'victim@example.net' and status = 'suppressed'), 2,
  'the rest kept as suppressed, never sent');
select gateway.enqueue_mail('admin@pgtap.test', 'Hello', 'Hello') from generate_series(1, 7) i;
select is((select count(*)::int from gateway.outbox where to_address = 'admin@pgtap.test' and status = 'queued'), 7,
  'a confirmed account''s address is proven: not capped');

select * from finish();
rollback;
