-- Site pages rendered in SQL, as the gateway calls them (anon): the job page lists other live roles only (never a
-- closed or draft one, never itself) and the sitemap lists /our-work and /terms.
begin;
\ir lib/setup.sql
select plan(8);

select tests.as_anon();
create temp table page_active1 as select public.render_job_page(tests.job('active1')::text) as page;
select is((select (page ->> 'status')::int from page_active1), 200, 'an active job renders with 200');
select matches((select page ->> 'body' from page_active1), 'data-ssr-other-jobs-for="' || tests.job('active1') || '"',
  'the other roles are tagged with the job they belong to');
-- The attribute is html_escape()d JSON: undo the escapes to read it.
create temp table others_active1 as
  select replace(replace(replace(replace(replace((regexp_match(page ->> 'body', 'data-ssr-other-jobs="([^"]*)"'))[1],
    '&#39;', ''''), '&quot;', '"'), '&gt;', '>'), '&lt;', '<'), '&amp;', '&')::jsonb as roles
  from page_active1;
select is((select jsonb_path_query_array(roles, '$[*].id') from others_active1), jsonb_build_array(tests.job('active2')),
  'other roles: the one other active job; not itself, not the closed or draft ones');
select doesnt_match((select page ->> 'body' from page_active1), 'Closed one|Draft one', 'no closed or draft role is named');
select is((public.render_job_page(tests.job('closed')::text) ->> 'status')::int, 410, 'a closed job answers 410 (no longer open; 0402)');
select is((public.render_job_page(tests.job('closed')::text) ->> 'body') ~ 'data-ssr-other-jobs', false, 'a 404 page lists no roles');
select matches(public.sitemap_xml(), '/our-work</loc>', 'the sitemap lists /our-work');
select matches(public.sitemap_xml(), '/terms</loc>', 'the sitemap lists /terms');

select * from finish();
rollback;
