-- The Broadbean push (0407): credentials only as a bcrypt hash nobody can read through the APIs, rotated by the owner;
-- add upserts on external_id broadbean:<ref> (live at once, the agency's text mapped), delete closes; refusals carry
-- their HTTP status and change nothing (wrong or missing credentials, missing fields, unknown command, an unknown
-- reference, a document that is not a <job>).
begin;
\ir lib/setup.sql
select plan(22);

select set_config('request.headers', '{"x-forwarded-for":"198.51.100.7"}', true);
create temp table cred as select * from private.rotate_feed_credentials('broadbean', 'adcourier');
grant select on cred to anon;

select ok((select password_hash like '$2a$10$%' and password_hash <> (select password from cred) from private.feed_credentials), 'stored as a bcrypt hash');
select tests.as_anon();
select throws_ok($$ select * from private.feed_credentials $$, '42501', null, 'anon: credentials unreadable');
select throws_ok($$ select private.rotate_feed_credentials('broadbean') $$, '42501', null, 'anon: cannot rotate');
select tests.as_user('admin');
select throws_ok($$ select * from private.feed_credentials $$, '42501', null, 'admin: credentials unreadable');
select tests.as_service();
select throws_ok($$ select * from private.feed_credentials $$, '42501', null, 'service_role: credentials unreadable');

create function pg_temp.push(command text, body text, pw text default null) returns jsonb language sql as $f$
  select public.broadbean(('<job><command>' || command || '</command><username>adcourier</username><password>'
    || coalesce(pw, (select password from cred)) || '</password>' || body || '</job>')::xml)
$f$;
grant execute on function pg_temp.push(text, text, text) to anon;
create temp table doc as select
  '<job_reference>R-1</job_reference><job_title>Senior Cost Manager</job_title><job_type>Contract</job_type>'
  || '<job_description><![CDATA[<p>Lead cost plans &amp; reports.</p><ul><li>NEC</li></ul>]]></job_description>'
  || '<job_location>Manchester</job_location><job_industry>Consultancy</job_industry><job_skills>NEC|JCT</job_skills>'
  || '<salary_from>450</salary_from><salary_to>550</salary_to><salary_per>day</salary_per><salary>£450-£550 a day</salary>'
  || '<contact_name>Sam Lee</contact_name><contact_email>sam@firm.example</contact_email><days_to_advertise>21</days_to_advertise>' as body;
grant select on doc to anon;

select tests.as_anon();
select is(pg_temp.push('add', (select body from doc), 'wrong') ->> 'error', 'unauthorised', 'wrong password refused');
select is(current_setting('response.status', true), '401', 'with 401');
select is(pg_temp.push('add', '<job_reference>R-2</job_reference>') -> 'fields',
  '["job_title", "job_type", "job_description", "job_location"]'::jsonb, 'missing fields all named');
select is(current_setting('response.status', true), '400', 'with 400');
select is(pg_temp.push('publish', (select body from doc)) ->> 'error', 'bad_command', 'an unknown command is refused');
select is(public.broadbean('<vacancy/>'::xml) ->> 'error', 'bad_document', 'a document that is not a <job>');
select tests.as_owner();
select is((select count(*)::int from public.jobs where external_id like 'broadbean:%'), 0, 'no refusal wrote a job');

select tests.as_anon();
select is(pg_temp.push('add', (select body from doc)) ->> 'status', 'added', 'add');
select tests.as_owner();
select results_eq($$ select job_id, status, title, company, client_type, location, region::text, salary, salary_min, salary_max,
                     salary_period::text, employment_type::text, sector, description, requirements, consultant_name, closing_date
                   from public.jobs where external_id = 'broadbean:R-1' $$,
  $$ values ('R-1'::text, 'active'::text, 'Senior Cost Manager'::text, 'Confidential'::text, 'confidential'::text, 'Manchester'::text,
            'North West'::text, '£450-£550 a day'::text, 450, 550, 'day'::text, 'contract'::text, 'Consultancy'::text,
            E'Lead cost plans & reports.\n\n- NEC'::text, E'NEC\nJCT'::text, 'Sam Lee'::text, current_date + 21) $$,
  'the job is live with Broadbean''s fields mapped (HTML as text, skills as requirements, day rate, 21 days)');
select tests.as_anon();
select is(pg_temp.push('add', replace((select body from doc), 'Senior Cost Manager', 'Lead Cost Manager')) ->> 'status', 'updated', 'add again updates');
select tests.as_owner();
select is((select title from public.jobs where external_id = 'broadbean:R-1'), 'Lead Cost Manager', 'one job, updated');
select tests.as_anon();
select is(pg_temp.push('delete', '<job_reference>R-1</job_reference>') ->> 'status', 'closed', 'delete');
select tests.as_owner();
select is((select status from public.jobs where external_id = 'broadbean:R-1'), 'closed', 'closes the job');
select tests.as_anon();
select is(pg_temp.push('delete', '<job_reference>R-9</job_reference>') ->> 'error', 'not_found', 'an unknown reference');
select is(current_setting('response.status', true), '404', 'with 404');

-- Rotating: the old password stops working
select tests.as_owner();
select ok((select password from private.rotate_feed_credentials('broadbean')) <> (select password from cred), 'a new password');
select tests.as_anon();
select is(pg_temp.push('delete', '<job_reference>R-1</job_reference>') ->> 'error', 'unauthorised', 'the old one is refused');

select * from finish();
rollback;
