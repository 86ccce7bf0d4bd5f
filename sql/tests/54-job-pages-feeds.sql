-- Job pages and feeds (0402, 0403): the agency on every page and entry (reg. 27), a closed job's 410 with similar live
-- roles and no JobPosting, a draft never named, JobPosting's mapping, and the Indeed and RSS feeds and the sitemap
-- holding live jobs only, as well-formed XML with CDATA.
begin;
\ir lib/setup.sql
select plan(18);

update public.jobs set employment_type = 'permanent', work_arrangement = 'remote', salary_min = 50000, salary_max = 60000,
  closing_date = '2030-01-31', client_type = 'named', description = 'Run the team.', requirements = 'MRICS'
where id = tests.job('active1');
update public.jobs set title = 'Closed ]]> role <b>', sector = 'Consultancy' where id = tests.job('closed');

select tests.as_anon();
create temp table page as select public.render_job_page(tests.job('active1')::text) as p;
create temp table posting as
  select (regexp_match(p ->> 'head', '<script data-head type="application/ld\+json">(.*)</script>'))[1]::jsonb as j from page;
select matches((select p ->> 'body' from page), 'Advertised by Cornerstone Property Search, acting as an employment agency \(permanent role\)\.', 'the job page names the agency and the basis');
select matches((select p ->> 'body' from page), '<dt>Work arrangement</dt><dd>Remote</dd>', 'and the work arrangement');
select is((select j ->> 'employmentType' from posting), 'FULL_TIME', 'JobPosting employmentType from employment_type');
select is((select j ->> 'jobLocationType' from posting), 'TELECOMMUTE', 'remote roles are TELECOMMUTE');
select is((select j -> 'hiringOrganization' ->> 'name' from posting), 'Acme', 'a named client hires');
select is((select j ->> 'validThrough' from posting), '2030-01-31T23:59:59Z', 'validThrough from the closing date');
select is((select j -> 'baseSalary' -> 'value' ->> 'unitText' from posting), 'YEAR', 'baseSalary with its unit');
select is((select j ->> 'directApply' from posting), 'true', 'directApply');
select ok((select p ->> 'body' !~ 'search_vector' from page), 'the page''s data leaves out the search vector');

select is((public.render_job_page(tests.job('closed')::text) ->> 'status')::int, 410, 'a closed job is 410');
select ok((select b ~ 'This role is no longer open' and b ~ ('/jobs/' || tests.job('active1')) and b !~ 'JobPosting'
           from (select public.render_job_page(tests.job('closed')::text) ->> 'body' as b) x), 'with similar live roles, no JobPosting');
select is((public.render_job_page(tests.job('draft')::text) ->> 'status')::int, 404, 'a draft is not found (never public)');

select ok(xml_is_well_formed_document(public.indeed_xml()) and xml_is_well_formed_document(public.jobs_rss())
          and xml_is_well_formed_document(public.sitemap_xml()), 'the feeds and the sitemap are well-formed XML');
select is((select count(*)::int from regexp_matches(public.indeed_xml(), '<job>', 'g')), 2, 'Indeed: every live job, no closed or draft one');
select ok(public.indeed_xml() ~ '<sourcename><!\[CDATA\[Cornerstone Property Search\]\]></sourcename>'
          and public.indeed_xml() ~ '<jobtype><!\[CDATA\[fulltime\]\]></jobtype>'
          and public.indeed_xml() ~ '<remotetype><!\[CDATA\[Fully remote\]\]></remotetype>', 'Indeed: the agency, job type and remote type');
select ok(public.indeed_xml() !~ '&amp;|&quot;|&#39;', 'Indeed: no HTML entities in the text');
select ok(public.jobs_rss() ~ 'Advertised by Cornerstone Property Search' and public.jobs_rss() !~ 'Closed', 'RSS: the agency; no closed job');
select ok(public.sitemap_xml() ~ '/jobs</loc>' and public.sitemap_xml() !~ tests.job('closed')::text, 'the sitemap lists /jobs and live jobs only');

select * from finish();
rollback;
