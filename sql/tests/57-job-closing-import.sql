-- A job closes itself after its closing date (0432), and the CSV import (0434): previews write nothing and give
-- each row its errors; applying writes every row in one transaction or none; import runs are not readable.
begin;
\ir lib/setup.sql
select plan(31);

-- Closing dates: the UK day after the closing date, the job is closed; the scheduler's function is the owner's only.
update public.jobs set closing_date = '2026-06-30' where id = tests.job('active1');
update public.jobs set closing_date = '2026-07-01' where id = tests.job('active2');
select is(private.close_expired_jobs('2026-06-30 22:59:59+00'), 0, 'still open until midnight UK time (23:59:59 BST on its closing date)');
select is(private.close_expired_jobs('2026-06-30 23:00:01+00'), 1, 'closed by the first run after midnight UK time');
select results_eq($$ select status from public.jobs where id in (tests.job('active1'), tests.job('active2')) order by job_id $$,
  $$ values ('closed'), ('active') $$, 'only the job whose closing date passed is closed');
select is((select actor_role || ':' || (old_data ->> 'status') || '->' || (new_data ->> 'status') from public.audit_log
           where record_id = tests.job('active1') order by id desc limit 1), 'postgres:active->closed', 'the closing is in the audit log');
select has_index('public', 'jobs', 'jobs_active_closing_date_idx', 'live jobs by closing date are indexed');
select matches(private.schedule_job_closing(), '^(scheduled close-expired-jobs|pg_cron is not loaded for database .*close_expired_jobs\(\))', 'scheduled with pg_cron, or says how to run it');
select tests.as_service();
select throws_ok($$ select private.close_expired_jobs() $$, '42501', null, 'service_role cannot call the scheduler''s function');
select tests.as_user('admin');
select throws_ok($$ select private.close_expired_jobs() $$, '42501', null, 'an admin cannot either');

-- The import, as an admin: a preview gives each row its errors and writes nothing
select tests.as_user('admin');
select public.admin_import_jobs($$[
    {"external_id": "csv-1", "title": "Imported one", "company": "Acme", "status": "active", "employment_type": "permanent",
     "description": "**D**", "description_html": "<p><strong>D</strong></p>", "benefits": ["Pension", "Bonus"]},
    {"external_id": "csv-2", "title": "Imported two", "company": "Acme", "status": "active", "salary_min": 50000},
    {"external_id": "csv-1", "title": "Again"},
    {"title": "No key"},
    {"external_id": "csv-5", "title": "Bad HTML", "company": "Acme", "description": "x", "description_html": "<p onclick=\"x\">x</p>"},
    {"external_id": "csv-6", "title": "Odd", "company": "Acme", "colour": "red"},
    {"external_id": "csv-7", "title": "Bad number", "company": "Acme", "salary_min": "lots"},
    {"external_id": "csv-8", "company": "Acme"}
  ]$$::jsonb) as preview \gset
select is((:'preview'::jsonb ->> 'applied')::boolean, false, 'preview: not applied');
select is((:'preview'::jsonb ->> 'failed')::int, 7, 'preview: seven rows fail');
select is((:'preview'::jsonb -> 'rows' -> 0 ->> 'action'), 'insert', 'preview: a good row would be inserted');
select is((:'preview'::jsonb -> 'rows' -> 1 -> 'errors' ->> 0), 'This job cannot be published until it states whether the role is permanent or temporary (employment type); the nature of the work (description), as pay is stated; the location, as pay is stated; the minimum experience, training or qualifications (requirements), as pay is stated', 'preview: reg. 27 per row');
select is((:'preview'::jsonb -> 'rows' -> 2 -> 'errors' ->> 0), 'external_id csv-1 is also in row 1', 'preview: a key twice in the file');
select is((:'preview'::jsonb -> 'rows' -> 3 -> 'errors' ->> 0), 'external_id is required (the key the import updates by)', 'preview: no key');
select is((:'preview'::jsonb -> 'rows' -> 4 -> 'errors' ->> 0), 'description: the attribute onclick is not allowed', 'preview: unsafe HTML');
select is((:'preview'::jsonb -> 'rows' -> 5 -> 'errors' ->> 0), 'unknown columns: colour', 'preview: unknown column');
select is((:'preview'::jsonb -> 'rows' -> 6 -> 'errors' ->> 0), 'invalid input syntax for type integer: "lots"', 'preview: a wrong type');
select is((:'preview'::jsonb -> 'rows' -> 7 -> 'errors' ->> 0), 'title is required', 'preview: a new job without a title');
select is((select count(*)::int from public.jobs where external_id like 'csv-%'), 0, 'preview: nothing written');

-- applying a file with a bad row writes none of it
select is((public.admin_import_jobs('[{"external_id": "csv-1", "title": "One", "company": "Acme"}, {"external_id": "csv-2"}]'::jsonb, 'bad.csv', true) ->> 'applied')::boolean,
  false, 'apply with a bad row: not applied');
select is((select count(*)::int from public.jobs where external_id like 'csv-%'), 0, 'apply with a bad row: nothing written');
-- the fixed file is written whole, in one transaction; a second import updates only the columns it carries
select is(public.admin_import_jobs($$[{"external_id": "csv-1", "title": "One", "company": "Acme", "location": "York", "status": "active", "employment_type": "contract"},
                                      {"external_id": "csv-2", "title": "Two", "company": "Acme"}]$$::jsonb, 'good.csv', true) - 'rows',
  '{"applied": true, "inserted": 2, "updated": 0, "failed": 0}'::jsonb, 'apply: both rows written');
select is(public.admin_import_jobs('[{"external_id": "csv-1", "title": "One, renamed"}]'::jsonb, 'update.csv', true) - 'rows',
  '{"applied": true, "inserted": 0, "updated": 1, "failed": 0}'::jsonb, 'apply: a known external_id updates');
select results_eq($$ select external_id, title, status, location, employment_type::text from public.jobs where external_id like 'csv-%' order by external_id $$,
  $$ values ('csv-1', 'One, renamed', 'active', 'York', 'contract'), ('csv-2', 'Two', 'draft', null::text, null::text) $$,
  'apply: new jobs are drafts unless the file says; columns not in the file are kept');
select is((select count(*)::int from public.audit_log where table_name = 'jobs' and actor_email = 'admin@pgtap.test' and subject like 'One%'), 2, 'imported changes are audited as the admin''s');
select throws_ok($$ select public.admin_import_jobs('{"external_id": "x"}'::jsonb) $$, '22023', 'rows must be a JSON array of objects', 'not an array: a clear error');
select throws_ok($$ select public.admin_import_jobs((select jsonb_agg(jsonb_build_object('external_id', 'k' || i, 'title', 't', 'company', 'c')) from generate_series(1, 501) i)) $$,
  '22023', 'a file may hold at most 500 jobs (this one has 501); split it', 'more than 500 rows: refused');

-- import runs: recorded, and not readable through the APIs
select throws_ok($$ select * from private.job_import_runs $$, '42501', null, 'admin: import runs are not readable');
select tests.as_owner();
select results_eq($$ select file_name, row_count, inserted, updated, actor_id from private.job_import_runs order by id $$,
  $$ values ('good.csv', 2, 2, 0, tests.uid('admin')), ('update.csv', 1, 0, 1, tests.uid('admin')) $$, 'each applied import is recorded, a refused one is not');
select tests.as_service();
select throws_ok($$ select * from private.job_import_runs $$, '42501', null, 'service_role: import runs are not readable');
select tests.as_anon();
select throws_ok($$ select * from private.job_import_runs $$, '42501', null, 'anon: import runs are not readable');

select * from finish();
rollback;
