-- U3 (sql/migrations/0334): CV drafts are capped per account (count and bytes) and overall, edits are limited per
-- hour like inserts, so what one account holds, and what one `cv_documents?select=*` returns, is bounded. The
-- limits are lowered here through private.settings (the defaults: 25 drafts, 2 MiB, 2 GiB overall, 1,200 saves
-- and 64 MiB an hour).
begin;
\ir lib/setup.sql
select plan(24);

-- A valid draft of about n × 5 kB.
create function tests.draft(n integer) returns jsonb language sql as $$
  select jsonb_build_object('experience', coalesce((select jsonb_agg(jsonb_build_object('id', 'e' || i, 'description', repeat('x', 5000)))
                                                     from generate_series(1, n) i), '[]'))
$$;
insert into private.settings (key, value) values
  ('limit:cv_documents_per_user', '3'), ('limit:cv_document_bytes_per_user', '200000'), ('limit:saved_jobs_per_user', '1');

-- Count per account.
select tests.as_user('cand1');
select lives_ok($$ insert into public.cv_documents (id, title) values (tests.row('a'), 'A'), (tests.row('b'), 'B') $$,
  'candidate: a second and third draft');
select throws_ok($$ insert into public.cv_documents (title) values ('D') $$, '23514',
  'You can keep up to 3 CVs: delete one to create another', 'candidate: a fourth is refused with what to do');
select is((select count(*)::int from public.cv_documents), 3, 'candidate: select * returns at most the cap');

-- Bytes per account, on edits as well as inserts.
select lives_ok($$ update public.cv_documents set data = tests.draft(30) where id = tests.row('a') $$, 'candidate: one draft grows to ~150 kB');
select throws_ok($$ update public.cv_documents set data = tests.draft(10) where id = tests.row('b') $$, '23514',
  'Your CVs would use more than the 0.2 MB your account may hold: shorten this CV or delete another',
  'candidate: an edit that takes the account past 200 kB is refused');
select lives_ok($$ update public.cv_documents set data = tests.draft(20) where id = tests.row('a') $$, 'candidate: shrinking is allowed');
select lives_ok($$ update public.cv_documents set data = tests.draft(10) where id = tests.row('b') $$, 'candidate: and then the other may grow');
select is((select sum(size_bytes)::int <= 200000 from public.cv_documents), true, 'candidate: the account holds at most its cap');
select tests.as_owner();
update private.settings set value = '100000' where key = 'limit:cv_document_bytes_per_user';
select tests.as_user('cand1');
select lives_ok($$ update public.cv_documents set title = 'Renamed' where id = tests.row('a') $$,
  'candidate: over a lowered cap, a rename still saves (nothing grows)');
select lives_ok($$ update public.cv_documents set data = tests.draft(15) where id = tests.row('a') $$, 'candidate: and so does shrinking');
select throws_ok($$ update public.cv_documents set size_bytes = 1 where id = tests.row('a') $$, '428C9', null,
  'candidate: size_bytes is the database''s');
select is((select size_bytes from public.cv_documents where id = tests.row('a')), octet_length(tests.draft(15)::text),
  'size_bytes is the JSON size of the draft');

-- Overall, for every account together.
select tests.as_owner();
select is((select bytes from private.cv_document_totals), (select sum(size_bytes) from public.cv_documents),
  'the overall total follows inserts, edits and deletes');
insert into private.settings (key, value)
select 'limit:cv_document_bytes_total', (bytes + 20000)::text from private.cv_document_totals;
select tests.as_user('cand2');
select throws_ok($$ update public.cv_documents set data = tests.draft(5) where id = tests.row('cv-cand2') $$, '53100', null,
  'candidate: past the overall cap, growth is refused for now (HTTP 503)');
select lives_ok($$ update public.cv_documents set data = '{"summary": "short"}' where id = tests.row('cv-cand2') $$,
  'candidate: a draft that does not grow still saves');
select tests.as_user('cand1');
delete from public.cv_documents where id = tests.row('b');
select tests.as_owner();
select is((select bytes from private.cv_document_totals), (select sum(size_bytes) from public.cv_documents),
  'a delete frees its bytes');

-- Edits per hour.
delete from private.settings where key = 'limit:cv_document_bytes_total';
insert into private.settings (key, value) values ('limit:cv_document_saves_per_user_per_hour', '3');
select tests.as_user('cand2');
select lives_ok($$ update public.cv_documents set title = 'One' where id = tests.row('cv-cand2') $$, 'candidate: an edit (the second save this hour)');
select lives_ok($$ update public.cv_documents set title = 'Two' where id = tests.row('cv-cand2') $$, 'candidate: another (the third)');
select throws_ok($$ update public.cv_documents set title = 'Three' where id = tests.row('cv-cand2') $$, 'PGRST', null,
  'candidate: past the saves an hour, an edit is refused with 429');

-- Other roles.
select tests.as_owner();
delete from private.settings where key = 'limit:cv_document_saves_per_user_per_hour';
select tests.as_user('admin');
select lives_ok($$ insert into public.cv_documents (title) values ('1'), ('2'), ('3') $$, 'admin: an admin''s own drafts have the same caps');
select throws_ok($$ insert into public.cv_documents (title) values ('4') $$, '23514', null, 'admin: the fourth is refused');
select tests.as_anon();
select throws_ok($$ insert into public.cv_documents (title) values ('x') $$, '42501', null, 'anon: no drafts at all');
select tests.as_service();
select lives_ok($$ insert into public.cv_documents (user_id, title) values (tests.uid('cand1'), 'S1'), (tests.uid('cand1'), 'S2') $$,
  'service_role: the firm''s scripts are not limited');

-- Saved jobs per account.
select tests.as_user('cand1');
select throws_ok($$ insert into public.saved_jobs (job_id) values (tests.job('active2')) $$, '23514',
  'You can save up to 1 jobs: remove one to save another', 'candidate: past the saved-jobs cap, saving is refused');
select tests.as_owner();

select * from finish();
rollback;
