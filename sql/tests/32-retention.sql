-- Retention (sql/migrations/0320): one year from the last contact, one notice e-mail; a "keep" answer restarts the
-- clock, "delete" erases at once, no answer erases on the date the notice stated; the shorter purges; who may see
-- and answer what. The clock is moved by passing `as_of` to private.run_retention and by old timestamps.
begin;
\ir lib/setup.sql
select plan(60);

-- People with old records (as the owner, like the forms' rows a year ago).
insert into storage.buckets (id, name, public) values ('tests-retention', 'tests-retention', false);
insert into storage.objects (bucket_id, name, created_at) values
  ('cvs', 'retention/old.pdf', now() - interval '13 months'),
  ('cvs', 'retention/loose.pdf', now() - interval '2 days'),
  ('cvs', 'retention/fresh-loose.pdf', now() - interval '1 hour');
insert into public.applications (id, job_id, first_name, last_name, email, phone, cv_object, privacy_consent, created_at)
values (tests.row('old-application'), tests.job('active1'), 'Olive', 'Old', 'Old.Applicant@pgtap.test', '07700900010',
        'retention/old.pdf', true, now() - interval '13 months');
insert into public.enquiries (id, name, email, created_at) values
  (tests.row('old-enquiry'), 'Olive Old', 'old.applicant@pgtap.test', now() - interval '14 months'),
  (tests.row('recent-enquiry'), 'Rita Recent', 'recent@pgtap.test', now() - interval '2 months'),
  (tests.row('keeper-enquiry'), 'Kim Keeper', 'keeper@pgtap.test', now() - interval '13 months'),
  (tests.row('quitter-enquiry'), 'Quinn Quitter', 'quitter@pgtap.test', now() - interval '13 months');
insert into auth.users (id, aud, role, email, raw_user_meta_data, created_at, last_sign_in_at, is_anonymous) values
  (tests.uid('sleepy'), 'authenticated', 'authenticated', 'sleepy@pgtap.test', '{"full_name": "Sam Sleepy"}',
   now() - interval '20 months', now() - interval '13 months', false),
  (tests.uid('ghost'), 'authenticated', 'authenticated', null, null, now() - interval '25 months', null, true),
  (tests.uid('ghost-recent'), 'authenticated', 'authenticated', null, null, now() - interval '1 month', null, true),
  (tests.uid('old-admin'), 'authenticated', 'authenticated', 'old.admin@pgtap.test', null,
   now() - interval '3 years', now() - interval '3 years', false);
insert into public.user_roles (user_id, role) values (tests.uid('old-admin'), 'admin');
insert into public.cv_documents (id, user_id, title, created_at, updated_at)
values (tests.row('sleepy-cv'), tests.uid('sleepy'), 'Sleepy CV', now() - interval '14 months', now() - interval '14 months');
insert into storage.objects (bucket_id, name, owner, owner_id) values
  ('tests-retention', 'sleepy/photo.png', tests.uid('sleepy'), tests.uid('sleepy')::text);
insert into public.profile_views (id, profile_id, viewed_at, user_agent) values
  (tests.row('old-view'), tests.row('profile-active'), now() - interval '13 months', 'old agent');
insert into gateway.outbox (to_address, subject, body_text, status, created_at, sent_at) values
  ('someone@pgtap.test', 'Long delivered', 'old', 'sent', now() - interval '40 days', now() - interval '40 days'),
  ('someone@pgtap.test', 'Lately delivered', 'new', 'sent', now() - interval '3 days', now() - interval '3 days');

create function tests.status(person text, as_of timestamptz default now()) returns text language sql as $$
  select r.status from private.retention_people(as_of) r where r.email = person
$$;
create function tests.notices(person text) returns int language sql as $$
  select count(*)::int from gateway.outbox where to_address = person and subject like 'Would you like us to keep your details?%'
$$;
create function tests.token(person text) returns text language sql security definer as $$
  select substring(body_text from '/privacy/choice#token=([0-9a-f]{64})') from gateway.outbox
  where to_address = person and subject like 'Would you like us%' order by id desc limit 1
$$;

-- Who is where, before any pass.
select is(tests.status('old.applicant@pgtap.test'), 'notice due', 'a person last in touch 13 months ago is due a notice (e-mail case ignored)');
select is((select r.applications || '/' || r.enquiries from private.retention_people(now()) r where r.email = 'old.applicant@pgtap.test'),
  '1/1', 'their application and enquiry are one person');
select is(tests.status('recent@pgtap.test'), 'active', 'a person in touch 2 months ago is active');
select is(tests.status('sleepy@pgtap.test'), 'notice due', 'an account last signed in 13 months ago is due a notice');
select is(tests.status('cand1@pgtap.test'), 'active', 'an account created now is active');
select is(tests.status('old.admin@pgtap.test'), null, 'admins'' accounts are not under the rule');
select is(tests.status('cand1@pgtap.test', now() + interval '1 year'), 'notice due', 'the same account is due a year later (moved clock)');

-- Pass 1, now: the notices.
select lives_ok($$ select private.run_retention(now()) $$, 'a pass runs');
select is(tests.notices('Old.Applicant@pgtap.test') + tests.notices('old.applicant@pgtap.test'), 1, 'one notice is queued for the person');
select is(tests.notices('sleepy@pgtap.test'), 1, 'one notice for the sleeping account');
select is(tests.notices('recent@pgtap.test'), 0, 'no notice for an active person');
select is(tests.notices('old.admin@pgtap.test'), 0, 'no notice for an admin');
select ok((select body_text from gateway.outbox where subject like 'Would you like%' and lower(to_address) = 'old.applicant@pgtap.test')
  ~ ('Hello Olive,.*a job application \(with your CV\) and an enquiry.*/privacy/choice#token=[0-9a-f]{64}.*until '
     || to_char((now() + interval '1 year') at time zone 'Europe/London', 'FMDD FMMonth YYYY')),
  'the notice greets them, says what is held, links the answer page and states the deletion date');
select is((select n.delete_after from private.retention_notices n where n.email = 'old.applicant@pgtap.test'),
  now() + interval '1 year', 'the notice and its deletion date are recorded');
select is(tests.status('old.applicant@pgtap.test'), 'awaiting answer', 'the person now awaits an answer');
select is((select array_agg(subject) from gateway.outbox where subject in ('Long delivered', 'Lately delivered')),
  array['Lately delivered'], 'delivered mail older than 30 days is deleted, newer mail kept');
select is((select count(*)::int from storage.objects where name in ('retention/loose.pdf', 'retention/fresh-loose.pdf')), 1,
  'a CV file never attached to an application goes after a day, a fresh upload stays');
select is((select notices from private.retention_log order by id desc limit 1), 4,
  'the pass logged its notices (old applicant, sleepy, keeper, quitter)');

-- Pass 2, the same day: nothing twice.
select lives_ok($$ select private.run_retention(now() + interval '1 hour') $$, 'a second pass runs');
select is(tests.notices('old.applicant@pgtap.test') + tests.notices('Old.Applicant@pgtap.test'), 1, 'the notice is not queued twice');
select is((select notices from private.retention_log order by id desc limit 1), 0, 'the second pass queued nothing');

-- The answer page, as anon.
select tests.as_anon();
select is(public.privacy_choice(tests.token('keeper@pgtap.test')) ->> 'status', 'awaiting', 'anon: the link shows the notice awaiting an answer');
select is(public.privacy_choice(tests.token('keeper@pgtap.test')) ->> 'holds', 'an enquiry', 'anon: the page says what is held');
select is(public.privacy_choice(repeat('0', 64)) ->> 'status', 'unknown', 'anon: a wrong token is unknown');
select is(public.privacy_choice('not a token') ->> 'status', 'unknown', 'anon: a malformed token is unknown');
select is(public.privacy_choice(upper(tests.token('keeper@pgtap.test'))) ->> 'status', 'unknown', 'anon: tokens are exact');
select throws_ok(format('select public.set_privacy_choice(%L, %L)', tests.token('keeper@pgtap.test'), 'maybe'),
  '22023', 'choice must be keep or delete', 'anon: only keep or delete');
select is(public.set_privacy_choice(tests.token('keeper@pgtap.test'), 'keep') ->> 'status', 'kept', 'anon: keep is recorded');
select is(public.set_privacy_choice(tests.token('quitter@pgtap.test'), 'delete') ->> 'status', 'deleted', 'anon: delete erases at once');
select throws_ok($$ select * from private.retention_notices $$, '42501', null, 'anon: cannot read the notices');
select throws_ok($$ select private.run_retention() $$, '42501', null, 'anon: cannot run a pass');
select throws_ok($$ select private.erase_person('old.applicant@pgtap.test') $$, '42501', null, 'anon: cannot erase anyone');
select tests.as_owner();
select is((select count(*)::int from public.enquiries where email = 'quitter@pgtap.test'), 0, 'the erased person''s enquiry is gone');
select is((select count(*)::int from private.retention_notices where email = 'quitter@pgtap.test'), 0, 'and so is their notice');
select is((select kind || ':' || people_erased || ':' || (deleted ->> 'enquiries') from private.retention_log order by id desc limit 1),
  'request:1:1', 'the erasure on request is logged without personal data');
select is(tests.status('keeper@pgtap.test'), 'active', 'keep restarts the clock');
select is((select r.notice_due_at from private.retention_people(now()) r where r.email = 'keeper@pgtap.test'),
  now() + interval '1 year', 'the next notice is due a year after the answer');

-- Admins see what is due; nobody else.
select tests.as_user('admin');
select is((select count(*)::int from public.retention_due() where email = 'old.applicant@pgtap.test'), 0,
  'admin: an erasure a year away is outside the default 30-day window');
select is((select status || ':' || next_step from public.retention_due(interval '13 months') where email = 'old.applicant@pgtap.test'),
  'awaiting answer:erasure', 'admin: a wider window shows the person awaiting an answer and the erasure to come');
select is((select status || ':' || next_step from public.retention_due(interval '13 months') where email = 'cand1@pgtap.test'),
  'active:notice', 'admin: and an active person''s notice to come');
select ok((select count(*) from public.retention_runs()) >= 3, 'admin: sees the passes');
select tests.as_user('cand1');
select throws_ok($$ select * from public.retention_due() $$, '42501', 'only admins can see retention', 'candidate: refused');
select throws_ok($$ select * from public.retention_runs() $$, '42501', 'only admins can see retention', 'candidate: refused the log');
select tests.as_anon();
select throws_ok($$ select * from public.retention_due() $$, '42501', null, 'anon: refused');
select tests.as_service();
select lives_ok($$ select * from public.retention_due() $$, 'service_role: may read it (scripts)');
select tests.as_owner();

-- Pass 3, a year and a day later: no answer means erasure; the kept person gets their next notice.
select lives_ok($$ select private.run_retention(now() + interval '1 year 1 day') $$, 'the pass a year later runs');
select is((select count(*)::int from public.applications where lower(email) = 'old.applicant@pgtap.test')
        + (select count(*)::int from public.enquiries where lower(email) = 'old.applicant@pgtap.test'), 0,
  'no answer: the application and the enquiry are erased');
select is((select count(*)::int from storage.objects where name = 'retention/old.pdf'), 0, 'with the CV file''s object row');
select is((select count(*)::int from auth.users where id = tests.uid('sleepy'))
        + (select count(*)::int from public.cv_documents where id = tests.row('sleepy-cv'))
        + (select count(*)::int from storage.objects where name = 'sleepy/photo.png'), 0,
  'the sleeping account is erased with its drafts and its files');
select is((select count(*)::int from gateway.outbox where lower(to_address) in ('old.applicant@pgtap.test', 'sleepy@pgtap.test')), 0,
  'mail to the erased addresses is gone');
select is((select count(*)::int from public.enquiries where email = 'keeper@pgtap.test'), 1, 'the kept person''s data stays');
select is(tests.notices('keeper@pgtap.test'), 2, 'and they are asked again');
select is((select count(*)::int from auth.users where id in (tests.uid('ghost'), tests.uid('ghost-recent'), tests.uid('old-admin'))), 2,
  'an anonymous account unused for two years is deleted; a recent one and the admin stay');
select is((select count(*)::int from public.profile_views where id = tests.row('old-view')), 0, 'views over a year old are deleted');
select is((select array_agg(name order by name) from storage.objects where bucket_id = 'cvs' and name like 'retention/%'),
  null, 'CV files never attached to an application are deleted after a day');
select is((select count(*)::int from gateway.outbox where subject in ('Long delivered', 'Lately delivered')), 0,
  'delivered mail goes after 30 days');
select is(public.privacy_choice(tests.token('keeper@pgtap.test')) ->> 'status', 'awaiting', 'the new notice has its own link');

-- The greeting carries a name only when it is one: free-text sign-up metadata never rides into the notice.
insert into auth.users (id, aud, role, email, raw_user_meta_data, created_at, is_anonymous) values
  (tests.uid('phish'), 'authenticated', 'authenticated', 'phish@pgtap.test',
   '{"full_name": "Click https://evil.example/claim to confirm"}', now(), false),
  (tests.uid('named'), 'authenticated', 'authenticated', 'named@pgtap.test', '{"full_name": "Siobhán O''Neill"}', now(), false);
select is(private.greeting_name('phish@pgtap.test'), null, 'a sign-up name with a link is not used as a greeting');
select is(private.greeting_name('named@pgtap.test'), 'Siobhán O''Neill', 'a real name still greets');

-- Without pg_cron for this database, scheduling says what to do instead.
select matches(private.schedule_retention(), '^pg_cron is not loaded for database .*run_retention\(\)',
  'without pg_cron the schedule explains the alternative');

select * from finish();
rollback;
