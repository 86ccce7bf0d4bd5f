-- The job page as the server renders it matches the browser's (0490; the full comparison is
-- web/e2e/job-page-twin.test.mjs): the "Reach out to" link falls back to the firm with the job as subject, and the
-- closed (410) and unknown (404) pages carry the whole head <Seo> writes, and the other live roles are shown.
begin;
\ir lib/setup.sql
select plan(7);

update public.jobs set title = 'Surveyor & Co’s (Lead)', consultant_email = 'ann@example.com' where id = tests.job('active1');

select tests.as_anon();
select matches(public.render_job_page(tests.job('active1')::text) ->> 'body',
  'href="mailto:ann@example.com\?subject=Surveyor%20%26%20Co%E2%80%99s%20\(Lead\)%20\(T-1\)"',
  'the consultant, with the job as subject encoded as encodeURIComponent does');
select is(public.job_contact_href(j), 'mailto:talent@cornerstone-search.example?subject=Active%20two%20(T-2)',
  'no consultant: the firm''s address') from public.jobs j where j.id = tests.job('active2');
select ok(public.render_job_page(tests.job('active1')::text) ->> 'body' !~ 'href="mailto:"', 'never a bare mailto:');
select matches(public.render_job_page(tests.job('closed')::text) ->> 'head',
  '<link data-head rel="canonical" href="https://www.cornerstone-search.example/jobs/' || tests.job('closed') || '">',
  'a closed job''s page has its canonical');
select matches(public.render_job_page(tests.job('closed')::text) ->> 'head',
  '<meta data-head property="og:title" content="This role is no longer open \| Cornerstone Property Search">.*<meta data-head name="twitter:card"',
  'and Open Graph');
select matches(public.render_job_page('not-a-job') ->> 'head',
  '<title>Job Not Found \| Cornerstone Property Search</title>.*name="robots" content="noindex">.*rel="canonical" href="https://www.cornerstone-search.example/jobs/not-a-job"',
  'an unknown job''s page: title, noindex and canonical');
select matches(public.render_job_page(tests.job('active1')::text) ->> 'body',
  '<h2 id="other-opps-title">Other Opportunities in Property</h2>.*href="/jobs/' || tests.job('active2') || '">View Details.*</div><div hidden data-ssr-other-jobs-for=',
  'the other live roles are shown inside the page, and still sent as data');

select * from finish();
rollback;
