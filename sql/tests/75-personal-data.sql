-- U6 and U8 (sql/migrations/0335, 0336): "Download my data" holds everything the site keeps about the person, and
-- "Delete my account" erases the same: the account and its sessions (IP address, browser), CV drafts, saved jobs,
-- the profile views it made, the files it uploaded (also CVs never attached), and, once the address is proven,
-- applications and enquiries sent with it while signed out, the firm's profile of the person, mail queued to it and
-- the retention notice. An address taken on trust reaches none of another person's records. Lists are paged, and a
-- feature adds its own part to both through the registry.
begin;
\ir lib/setup.sql
select plan(43);

-- cand1 proved its address (a confirmation mailed, then followed); mallory signed up with Ann's address and was
-- confirmed without a mail (GOTRUE_MAILER_AUTOCONFIRM).
update auth.users set confirmation_sent_at = now() - interval '1 hour', email_confirmed_at = now() where id = tests.uid('cand1');
insert into auth.users (id, aud, role, email, email_confirmed_at, created_at, updated_at)
values (tests.uid('mallory'), 'authenticated', 'authenticated', 'ann@pgtap.test', now(), now(), now());

-- What the site holds about cand1 besides the fixtures (a CV draft, a saved job, a profile view).
insert into auth.sessions (id, user_id, created_at, updated_at, user_agent, ip)
values (gen_random_uuid(), tests.uid('cand1'), now(), now(), 'Mozilla/5.0 Firefox/131.0 (session)', '198.51.100.7');
insert into storage.objects (bucket_id, name, owner, owner_id) values
  ('cvs', 'c1folder/never-attached.pdf', tests.uid('cand1'), tests.uid('cand1')::text),
  ('cvs', 'c1folder/signed-out.pdf', null, null);
insert into public.applications (id, job_id, first_name, last_name, email, phone, cv_object, privacy_consent)
values (tests.row('c1-signed-out'), tests.job('active2'), 'Cand', 'One', 'CAND1@pgtap.test', '07700900001', 'c1folder/signed-out.pdf', true);
insert into public.enquiries (id, kind, name, email, message) values (tests.row('c1-enquiry'), 'candidate', 'Cand One', 'Cand1@pgtap.test', 'Call me');
insert into public.candidate_profiles (id, candidate_id, name, email, job_title, status)
values (tests.row('c1-profile'), 'CAND-C1', 'Cand One', 'cand1@pgtap.test', 'Surveyor', 'inactive');
do $$
begin
  perform gateway.enqueue_mail('cand1@pgtap.test', 'Would you like us to keep your details?',
    'Answer here: https://site.example/privacy/choice#token=c1secrettoken or https://site.example/a?token=c1other');
end
$$;
insert into private.retention_notices (email, notified_at, delete_after, token_hash)
values ('cand1@pgtap.test', now(), now() + interval '1 year', sha256('t'::bytea));

-- A feature added later (job alerts, say) registers its part in its own migration; nothing else changes.
create table public.tests_job_alerts (user_id uuid references auth.users (id) on delete cascade, query text);
insert into public.tests_job_alerts values (tests.uid('cand1'), 'surveyor in Leeds');
create function private.export_tests_job_alerts(subject private.data_subject, max_items integer, skip integer)
returns jsonb language sql stable security definer set search_path = '' as $$
  select coalesce(jsonb_agg(a.query order by a.query), '[]') from (select query from public.tests_job_alerts
    where user_id = subject.user_id order by query limit max_items offset skip) a
$$;
create function private.erase_tests_job_alerts(subject private.data_subject) returns bigint
language plpgsql security definer set search_path = '' as $$
declare n bigint;
begin
  delete from public.tests_job_alerts where user_id = subject.user_id;
  get diagnostics n = row_count;
  return n;
end
$$;
select private.register_personal_data_part('tests_job_alerts', 'Job alerts',
  'private.export_tests_job_alerts(private.data_subject, integer, integer)',
  'private.erase_tests_job_alerts(private.data_subject)', array['public.tests_job_alerts'], 120, 80);

select is_empty($$ select c.table_schema || '.' || c.table_name from information_schema.columns c
                     join information_schema.tables t on t.table_schema = c.table_schema and t.table_name = c.table_name
                    where c.table_schema = 'public' and t.table_type = 'BASE TABLE' and c.column_name in ('user_id', 'email')
                   except select unnest(p.covers) from private.personal_data_parts p $$,
  'every public table with a user_id or an email column is covered by a registered part');
select throws_ok($$ select private.register_personal_data_part('bad', 'Bad', 'private.erase_mail(private.data_subject)',
  null, '{}', 1, 1) $$, '23514', null, 'a part''s functions must have the registry''s signatures');

-- The export, as cand1.
select tests.as_user('cand1');
create temporary table export_c1 on commit drop as select public.export_my_data() as doc;
select ok((select array_agg(k) from jsonb_object_keys((select doc from export_c1)) k) @>
  array['account', 'sessions', 'roles', 'cv_documents', 'saved_jobs', 'applications', 'enquiries', 'profiles', 'profile_views',
        'files', 'mail', 'retention_notices', 'tests_job_alerts', 'exported_at', 'page_size', 'more'],
  'the export has a key per part');
select is((select doc -> 'account' ->> 'email_proven' from export_c1), 'true', 'account: the address counts as proven');
select results_eq($$ select doc -> 'sessions' -> 0 ->> 'ip', doc -> 'sessions' -> 0 ->> 'user_agent' from export_c1 $$,
  $$ values ('198.51.100.7'::text, 'Mozilla/5.0 Firefox/131.0 (session)'::text) $$, 'sessions: IP address and browser');
select results_eq($$ select a ->> 'id', (a ->> 'signed_in')::boolean, a ->> 'cv_file' from export_c1, jsonb_array_elements(doc -> 'applications') a $$,
  $$ values (tests.row('c1-signed-out')::text, false, 'c1folder/signed-out.pdf'::text) $$,
  'applications: the one sent with the address while signed out (any case)');
select is((select doc -> 'enquiries' -> 0 ->> 'message' from export_c1), 'Call me', 'enquiries: sent with the address');
select is((select doc -> 'profiles' -> 0 ->> 'name' from export_c1), 'Cand One', 'profiles: the firm''s profile of the person');
select results_eq($$ select v ->> 'profile', v ->> 'user_agent' from export_c1, jsonb_array_elements(doc -> 'profile_views') v $$,
  $$ values ('CAND-T1'::text, 'cand1 agent'::text) $$, 'profile_views: what it viewed, with the browser recorded');
select is((select jsonb_path_query_array(doc -> 'files', '$[*].name') from export_c1), '["c1folder/never-attached.pdf"]'::jsonb,
  'files: what it uploaded, never attached included');
select results_eq($$ select m ->> 'subject' from export_c1, jsonb_array_elements(doc -> 'mail') m order by 1 $$,
  $$ values ('Would you like us to keep your details?'::text), ('Your application for Active two – The recruitment team') $$,
  'mail: queued to the address (the retention notice, the application''s acknowledgement)');
select ok((select string_agg(m ->> 'body', ' ') from export_c1, jsonb_array_elements(doc -> 'mail') m) !~ 'c1secrettoken|c1other'
          and (select string_agg(m ->> 'body', ' ') from export_c1, jsonb_array_elements(doc -> 'mail') m) ~ 'https://site.example/privacy/choice',
  'mail: links without their tokens');
select is((select jsonb_array_length(doc -> 'retention_notices') from export_c1), 1, 'retention_notices: the notice sent');
select is((select doc -> 'tests_job_alerts' from export_c1), '["surveyor in Leeds"]'::jsonb, 'a later feature''s part is in the export');
select is((select doc -> 'more' from export_c1), '{}'::jsonb, 'nothing is left out');

-- Long lists are paged: one response is bounded.
select tests.as_owner();
insert into public.profile_views (profile_id, user_id, user_agent, viewed_at)
select tests.row('profile-active'), tests.uid('cand1'), 'Mozilla/5.0 paging', now() - make_interval(secs => i) from generate_series(1, 205) i;
select tests.as_user('cand1');
select is(jsonb_array_length(public.export_my_data() -> 'profile_views'), 200, 'a list holds at most page_size items');
select is(public.export_my_data() -> 'more', '{"profile_views": true}'::jsonb, 'and says there is more');
select is(jsonb_array_length(public.export_my_data_part('profile_views', 200)), 6, 'export_my_data_part reads the rest');
select throws_ok($$ select public.export_my_data_part('nope') $$, '22023', 'Unknown part nope', 'an unknown part is refused');
select throws_ok($$ select private.export_mail(row(tests.uid('cand2'), 'cand2@pgtap.test')::private.data_subject, 10, 0) $$,
  '42501', null, 'candidate: the part functions are not callable directly');
select throws_ok($$ select * from private.personal_data_parts $$, '42501', null, 'candidate: nor the registry readable');

-- An address taken on trust reaches nobody else's records.
select tests.as_user('mallory');
select is((public.export_my_data() -> 'account' ->> 'email_proven'), 'false', 'unproven: the address does not count');
select is((public.export_my_data() -> 'applications'), '[]'::jsonb, 'unproven: Ann''s application is not exported');
select is((public.export_my_data() -> 'mail'), '[]'::jsonb, 'unproven: nor mail to Ann');
select lives_ok($$ select public.delete_my_account('DELETE') $$, 'unproven: deletes its own account');
select tests.as_owner();
select is((select count(*)::int from public.applications where id = tests.row('application')), 1, 'and Ann''s application stays');
select ok((select count(*) from gateway.outbox where to_address = 'ann@pgtap.test') > 0, 'and so does mail to Ann');

-- Other roles.
select tests.as_user('admin');
select is(public.export_my_data() -> 'roles', '["admin"]'::jsonb, 'admin: its own export names its role');
select tests.as_user('cand2');
select ok(public.export_my_data()::text !~ 'cand1|Cand One|c1folder|198\.51\.100\.7', 'candidate B: nothing of A');
select tests.as_anon();
select throws_ok($$ select public.export_my_data() $$, '42501', null, 'anon: export_my_data is not executable');
select throws_ok($$ select public.export_my_data_part('mail') $$, '42501', null, 'anon: export_my_data_part neither');
select tests.as_service();
select throws_ok($$ select public.export_my_data() $$, '42501', null, 'service_role: no caller, no export');

-- Deleting the account erases the same.
select tests.as_user('cand1');
select ok(public.delete_my_account('DELETE') @> '{"account": 1, "sessions": 1, "cv_documents": 1, "saved_jobs": 1, "applications": 1,
  "enquiries": 1, "profiles": 1, "profile_views": 206, "files": 1, "mail": 2, "retention_notices": 1, "tests_job_alerts": 1}',
  'candidate: deletion reports every part');
select tests.as_owner();
select is((select count(*)::int from storage.objects where name like 'c1folder/%'), 0, 'the never-attached upload and the signed-out application''s CV are gone');
select is((select count(*)::int from gateway.storage_sweep where name like 'c1folder/%'), 2, 'their files are queued for the storage sweep');
select is((select count(*)::int from public.applications where lower(email) = 'cand1@pgtap.test'), 0, 'applications sent with the address are gone');
select is((select count(*)::int from public.enquiries where lower(email) = 'cand1@pgtap.test')
        + (select count(*)::int from public.candidate_profiles where lower(email) = 'cand1@pgtap.test'), 0, 'enquiries and the profile are gone');
select is((select count(*)::int from gateway.outbox where lower(to_address) = 'cand1@pgtap.test'), 0, 'mail to the address is gone');
select is((select count(*)::int from private.retention_notices where email = 'cand1@pgtap.test'), 0, 'the retention notice is gone');
select is((select count(*)::int from auth.sessions where user_id = tests.uid('cand1')), 0, 'the sessions are gone');
select results_eq($$ select user_id, user_agent, referrer from public.profile_views where id = tests.row('view-cand1') $$,
  $$ values (null::uuid, null::text, null::text) $$, 'its profile views stay counted, with no user, browser or referrer');
select is((select count(*)::int from public.tests_job_alerts), 0, 'a later feature''s part is erased too');
select is((select count(*)::int from public.applications where id = tests.row('application')), 1, 'other people''s records stay');

select * from finish();
rollback;
