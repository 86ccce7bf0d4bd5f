-- The firm's desk, enquiries (0455): admins mark them handled (who and when set by the database), add notes, search,
-- page and export them; visitors still only send them; candidates read none; every change is in the audit log.
begin;
\ir lib/setup.sql
select plan(27);

insert into public.enquiries (id, kind, name, email, company, message, source_page) values
  (tests.row('enquiry-client'), 'client', 'Cara Client', 'cara@northbank.test', 'Northbank Estates', 'Two surveyors needed', '/clients/developer-investor'),
  (tests.row('enquiry-audit'), 'hiring-audit', 'Hugo Audit', 'hugo@audit.test', null, '100% urgent', '/services');

/* ---------------------------------------------------------------------------------------------------------------
 * anon
 * --------------------------------------------------------------------------------------------------------------- */
select tests.as_anon();
select throws_ok($$ insert into public.enquiries (name, email, handled) values ('Hal', 'hal@example.com', true) $$, '42501', null,
  'anon: cannot send an enquiry already handled');
select throws_ok($$ update public.enquiries set handled = true $$, '42501', null, 'anon: cannot mark enquiries handled');
select throws_ok($$ select public.admin_enquiry_page() $$, '42501', null, 'anon: cannot list enquiries');
select lives_ok($$ insert into public.enquiries (name, email, message) values ('Hal', 'hal@example.com', 'Hello') $$,
  'anon: still sends an enquiry');

/* ---------------------------------------------------------------------------------------------------------------
 * candidate
 * --------------------------------------------------------------------------------------------------------------- */
select tests.as_user('cand1');
select lives_ok($$ update public.enquiries set handled = true $$, 'candidate: an update reaches no row (RLS)');
select throws_ok($$ update public.enquiries set handled_by = auth.uid() $$, '42501', null, 'candidate: cannot set who handled it');
select throws_ok($$ insert into public.desk_notes (enquiry_id, body) values ('$$ || tests.row('enquiry') || $$', 'x') $$,
  '42501', 'new row violates row-level security policy for table "desk_notes"', 'candidate: cannot add a note to an enquiry');
select throws_ok($$ select public.admin_enquiry(tests.row('enquiry')) $$, '42501', 'only admins can read enquiries',
  'candidate: cannot open an enquiry');
select throws_ok($$ select * from public.admin_enquiry_export() $$, '42501', 'only admins can export enquiries', 'candidate: cannot export');

/* ---------------------------------------------------------------------------------------------------------------
 * admin
 * --------------------------------------------------------------------------------------------------------------- */
select tests.as_user('admin');
select is((select count(*)::int from public.enquiries where handled), 0, 'admin: the candidate''s update changed nothing');
select is((public.admin_enquiry_page() ->> 'unhandled')::int, 4, 'admin: every enquiry starts unhandled');
select is((public.admin_enquiry_page() -> 'counts' ->> 'client')::int, 1, 'admin: counts per kind');
select is(json_array_length(public.admin_enquiry_page('NORTHBANK') -> 'enquiries'), 1, 'admin: search by company, case-insensitive');
select is(json_array_length(public.admin_enquiry_page('100%') -> 'enquiries'), 1, 'admin: search by message, % is a character');
select is(json_array_length(public.admin_enquiry_page(kind => 'hiring-audit') -> 'enquiries'), 1, 'admin: filter by kind');
select throws_ok($$ select public.admin_enquiry_page(kind => 'spam') $$, '22023',
  'Unknown kind "spam": use one of contact, hiring-audit, client, candidate, callback, other', 'admin: an unknown kind is refused');
select lives_ok($$ update public.enquiries set handled = true where id = '$$ || tests.row('enquiry-client') || $$' $$,
  'admin: marks an enquiry handled');
select results_eq($$ select handled_by, handled_at is not null from public.enquiries where id = tests.row('enquiry-client') $$,
  $$ values (tests.uid('admin'), true) $$, 'admin: who handled it and when are set by the database');
select is(public.admin_enquiry(tests.row('enquiry-client')) ->> 'handled_by', 'admin@pgtap.test', 'admin: the page names who handled it');
select is(json_array_length(public.admin_enquiry_page(handled => false) -> 'enquiries'), 3, 'admin: filter unhandled');
select throws_ok($$ update public.enquiries set message = 'edited' where id = '$$ || tests.row('enquiry-client') || $$' $$, '42501', null,
  'admin: cannot change what the visitor wrote');
select lives_ok($$ insert into public.desk_notes (enquiry_id, body) values ('$$ || tests.row('enquiry-client') || $$', 'Called back, meeting Tuesday') $$,
  'admin: adds a note');
select is((public.admin_enquiry(tests.row('enquiry-client')) -> 'notes' -> 0 ->> 'body'), 'Called back, meeting Tuesday', 'admin: the note is on the page');
select lives_ok($$ update public.enquiries set handled = false where id = '$$ || tests.row('enquiry-client') || $$' $$, 'admin: marks it unhandled again');
select results_eq($$ select handled_by, handled_at from public.enquiries where id = tests.row('enquiry-client') $$,
  $$ values (null::uuid, null::timestamptz) $$, 'admin: unhandled clears who and when');
select is((select count(*)::int from public.admin_enquiry_export(kind => 'client')), 1, 'admin: exports the filtered list');
select is((select count(*)::int from public.audit_log where table_name = 'enquiries' and actor_id = tests.uid('admin')), 2,
  'audit: both changes are logged');

select * from finish();
rollback;
