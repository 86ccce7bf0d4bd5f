-- Job search (0400, 0401, 0404): the derived columns (region from the town, published_at, the stemmed vector), the
-- search for every role (live jobs only, stemming, facets counted with the other filters, bad input refused with
-- 22023/22P02), the GIN index in the plan, and /jobs rendered by the database (statuses, canonical, noindex, links).
begin;
\ir lib/setup.sql
select plan(38);

insert into public.jobs (id, job_id, status, title, company, location, salary, salary_min, salary_max, type, sector,
                         employment_type, work_arrangement, description, requirements, posted_date) values
  (tests.row('s-manager'), 'S-1', 'active', 'Senior Development Manager', 'Northgate', 'Canary Wharf, London', '£90,000',
   90000, 95000, 'Professional', 'Consultancy', 'permanent', 'hybrid', 'Lead schemes.', 'RICS', now() - interval '1 hour'),
  (tests.row('s-contract'), 'S-2', 'active', 'Cost Consultant', 'Halden', 'Leeds', '£500 a day', null, null,
   'Contract', 'Consultancy', 'contract', 'remote', 'Managing budgets for programmes.', null, now() - interval '10 days'),
  (tests.row('s-draft'), 'S-3', 'draft', 'Hidden Manager', 'Secret', 'London', null, null, null, 'Professional',
   'Consultancy', 'permanent', 'on-site', 'Not public.', null, now());

-- Derived columns
select is((select region::text from public.jobs where id = tests.row('s-manager')), 'London', 'region from the location''s town ("Canary Wharf, London")');
select is((select region::text from public.jobs where id = tests.row('s-contract')), 'Yorkshire and the Humber', 'Leeds is in Yorkshire and the Humber');
update public.jobs set location = 'Glasgow' where id = tests.row('s-contract');
select is((select region::text from public.jobs where id = tests.row('s-contract')), 'Scotland', 'a new location brings its region');
update public.jobs set location = 'Leeds', region = 'North West' where id = tests.row('s-contract');
select is((select region::text from public.jobs where id = tests.row('s-contract')), 'North West', 'a region the writer gives is kept');
select ok((select published_at is not null from public.jobs where id = tests.row('s-manager')), 'a live job has published_at');
select ok((select published_at is null from public.jobs where id = tests.row('s-draft')), 'a draft has none');
update public.jobs set status = 'active', published_at = '2000-01-01' where id = tests.row('s-draft');
select ok((select published_at > now() - interval '1 minute' from public.jobs where id = tests.row('s-draft')), 'going live sets published_at to now, whatever the writer sent');
update public.jobs set status = 'draft' where id = tests.row('s-draft');

-- The search, per role: live jobs only
select tests.as_anon();
select is((public.search_jobs() ->> 'total')::int, 4, 'anon: every live job (fixture 2 + 2), no draft or closed');
select is((public.search_jobs(q => 'managers') -> 'jobs' -> 0 ->> 'title'), 'Senior Development Manager', 'anon: "managers" finds "Manager" (stemmed)');
select is((public.search_jobs(q => 'managing') ->> 'total')::int, 2, 'keywords also match the description ("managing" ~ "Manager", "Managing budgets")');
select is((public.search_jobs(q => 'hidden') ->> 'total')::int, 0, 'a draft is never found');
select tests.as_user('cand1');
select is((public.search_jobs() ->> 'total')::int, 4, 'candidate: the same live jobs');
select tests.as_user('admin');
select is((public.search_jobs() ->> 'total')::int, 4, 'admin: the public search shows live jobs only too');
select tests.as_service();
select is((public.search_jobs() ->> 'total')::int, 4, 'service_role: live jobs only');
select tests.as_anon();

-- Filters and facets
select is((public.search_jobs(location => 'london') ->> 'total')::int, 2, 'location matches part of the town');
select is((public.search_jobs(location => 'north west') ->> 'total')::int, 1, 'or a region''s name');
select is((public.search_jobs(employment_type => '{contract}') -> 'jobs' -> 0 ->> 'job_id'), 'S-2', 'job type');
select is((public.search_jobs(work_arrangement => '{remote}') ->> 'total')::int, 1, 'work arrangement');
select is((public.search_jobs(salary_min => 60000) ->> 'total')::int, 1, 'a minimum salary leaves out Competitive and day rates');
select is((public.search_jobs(posted_within => 3) ->> 'total')::int, 3, 'date posted');
select is((select jsonb_agg(f) from jsonb_array_elements(public.search_jobs(employment_type => '{contract}') -> 'facets' -> 'employment_type') f),
          '[{"count": 1, "value": "permanent"}, {"count": 1, "value": "contract"}]'::jsonb,
          'a facet counts its values with the other filters only (contract chosen, permanent still counted)');
select is((public.search_jobs(sector => '{Consultancy}') -> 'facets' -> 'sector'), '[{"count": 2, "value": "Consultancy"}]'::jsonb, 'sector facet');
select is((public.search_jobs(sort => 'relevance', q => 'manager') -> 'jobs' -> 0 ->> 'title'), 'Senior Development Manager', 'relevance puts the title match first');

-- Bad input
select throws_ok($$ select public.search_jobs(page => 0) $$, '22023', 'page: between 1 and 500', 'page 0 refused');
select throws_ok($$ select public.search_jobs(q => repeat('x', 201)) $$, '22023', 'q: at most 200 characters', 'long keywords refused');
select throws_ok($$ select public.search_jobs(sort => 'cheapest') $$, '22023', 'sort: newest or relevance', 'unknown sort refused');
select throws_ok($$ select public.search_jobs(region => '{Atlantis}') $$, '22P02', null, 'unknown region refused');
select lives_ok($$ select public.search_jobs(q => 'the and of') $$, 'stop words alone are no filter');

-- The plan: with 3,000 live jobs, keywords go through the GIN index of live jobs, never a scan of every job (the
-- benchmark shows the plan at 10,000 jobs)
select tests.as_owner();
insert into public.jobs (title, company, location, status, description, posted_date)
select 'Surveyor ' || n, 'Firm ' || n, 'Leeds', 'active', 'Survey buildings and report.', now() - make_interval(mins => n)
from generate_series(1, 3000) n;
select gin_clean_pending_list('public.jobs_active_search_vector_idx'::regclass);
analyze public.jobs;
create function pg_temp.plan(q text) returns text language plpgsql as $f$
declare
  r record;
  out text := '';
begin
  for r in execute 'explain ' || q loop
    out := out || r."QUERY PLAN" || E'\n';
  end loop;
  return out;
end
$f$;
select matches(pg_temp.plan($q$select id from public.jobs j where j.status = 'active'
                               and j.search_vector @@ websearch_to_tsquery('english', 'manager')$q$),
  'Bitmap Index Scan on jobs_active_search_vector_idx', 'keywords use the GIN index of live jobs');
-- … and so does the function itself on every call (a generic plan, PL/pgSQL's default from the sixth call, cannot)
select ok((select 'plan_cache_mode=force_custom_plan' = any (proconfig) and prosecdef from pg_proc where oid = 'private.search_jobs'::regproc)
          and not (select prosecdef from pg_proc where oid = 'public.search_jobs'::regproc),
  'the search plans each call for its values and runs as its definer behind the plain public.search_jobs (0409): RLS would keep @@ out of the index as anon (tests/bench/jobs shows its plan)');
delete from public.jobs where title like 'Surveyor %';

-- /jobs rendered by the database
select tests.as_anon();
select is((public.render_jobs_page('', '') ->> 'status')::int, 200, '/jobs renders');
select matches(public.render_jobs_page('', '') ->> 'head', 'rel="canonical" href="[^"]+/jobs"', 'canonical /jobs');
select matches(public.render_jobs_page('', 'sector=Consultancy') ->> 'head', '<title>Consultancy jobs \| ', 'one facet value is an indexable view with its title');
select matches(public.render_jobs_page('', 'q=x&sector=Consultancy') ->> 'head', 'noindex, follow', 'combinations are noindex');
select is((public.render_jobs_page('', 'region=Atlantis') ->> 'status')::int, 400, 'a setting that is not valid is 400');
select is((public.render_jobs_page('', 'page=9') ->> 'status')::int, 404, 'a page past the last is 404');
select is(private.jobs_href(private.jobs_filters('page=2&q=site+manager&type=contract&utm_source=x&sector=A%26B')),
          '/jobs?q=site+manager&sector=A%26B&type=contract&page=2', 'addresses in one canonical order, unknown parameters dropped');
select is(private.url_decode('caf%C3%A9+%26+bar'), 'café & bar', 'query components are form-decoded');

select * from finish();
rollback;
