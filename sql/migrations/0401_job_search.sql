-- Vacancies 2/n (issue 24 §1): the public job search behind /jobs. One call returns a page of 20 live jobs, newest
-- first (or by relevance), the total, and counts per facet (each facet counted with every other filter applied, so
-- ticking a value never hides its siblings). Runs as the caller: RLS shows anon and candidates active jobs only, and
-- every query also says status = 'active' so the partial indexes of 0400 apply (keywords: the GIN index).
-- supabase-js: rpc('search_jobs', { q, sector, region, location, employment_type, work_arrangement, salary_min,
-- posted_within, page, sort }) → { total, page, pages, page_size, jobs: [...], facets: {...} }.
-- Bad input (too long, out of range, unknown enum value) is refused with 22023/22P02 → HTTP 400 and its message.

/* ---------------------------------------------------------------------------------------------------------------
 * The vocabulary: page size, salary thresholds and posted-within choices the page offers.
 * --------------------------------------------------------------------------------------------------------------- */
create or replace function public.job_search_options() returns jsonb
  language sql immutable set search_path = ''
as $$
  select jsonb_build_object(
    'page_size', 20,
    'max_page', 500,
    'salary_thresholds', jsonb_build_array(20000, 30000, 40000, 50000, 60000, 80000, 100000, 150000),
    'posted_within', jsonb_build_array(1, 3, 7, 14, 30),
    'sorts', jsonb_build_array('newest', 'relevance'))
$$;
comment on function public.job_search_options() is
  'The job search''s fixed vocabulary: page_size 20, max_page, salary_thresholds (GBP a year), posted_within (days), sorts.';
revoke all on function public.job_search_options() from public;
grant execute on function public.job_search_options() to anon, authenticated, service_role;

-- Plain-text excerpt of a (Markdown) description: markup characters dropped, whitespace folded, ≤ 200 characters.
create or replace function public.job_excerpt(description text) returns text
  language sql immutable set search_path = ''
as $$
  select nullif(case when char_length(t) > 200 then rtrim(left(t, 197)) || '…' else t end, '')
  from (select btrim(regexp_replace(regexp_replace(coalesce(description, ''),
          '<[^>]*>|[#*_>`~]|\[([^]]*)\]\([^)]*\)', '\1', 'g'), '\s+', ' ', 'g')) as t) s
$$;
comment on function public.job_excerpt(text) is 'A description as ≤ 200 characters of plain text (Markdown marks and tags dropped).';
revoke all on function public.job_excerpt(text) from public;
grant execute on function public.job_excerpt(text) to anon, authenticated, service_role;

/* ---------------------------------------------------------------------------------------------------------------
 * The search.
 * --------------------------------------------------------------------------------------------------------------- */
create or replace function public.search_jobs(
  q text default null,
  sector text[] default null,
  region public.uk_region[] default null,
  location text default null,
  employment_type public.employment_type[] default null,
  work_arrangement public.work_arrangement[] default null,
  salary_min integer default null,
  posted_within integer default null,
  page integer default 1,
  sort text default 'newest'
) returns jsonb
  language plpgsql stable set search_path = ''
as $$
#variable_conflict use_variable
declare
  options jsonb := public.job_search_options();
  page_size int := (options ->> 'page_size')::int;
  query tsquery;
  loc text := nullif(btrim(location), '');
  loc_pattern text;
  result jsonb;
begin
  q := nullif(btrim(q), '');
  if char_length(q) > 200 then raise exception '%', 'q: at most 200 characters' using errcode = '22023'; end if;
  if char_length(loc) > 100 then raise exception '%', 'location: at most 100 characters' using errcode = '22023'; end if;
  if cardinality(sector) > 20 or exists (select 1 from unnest(sector) s where s is null or char_length(s) > 200) then
    raise exception '%', 'sector: at most 20 values of at most 200 characters' using errcode = '22023';
  end if;
  if cardinality(region) > 20 or cardinality(employment_type) > 20 or cardinality(work_arrangement) > 20 then
    raise exception '%', 'region, employment_type, work_arrangement: at most 20 values each' using errcode = '22023';
  end if;
  if salary_min is not null and salary_min not between 0 and 10000000 then
    raise exception '%', 'salary_min: between 0 and 10000000 (GBP a year)' using errcode = '22023';
  end if;
  if posted_within is not null and posted_within not between 1 and 365 then
    raise exception '%', 'posted_within: between 1 and 365 days' using errcode = '22023';
  end if;
  page := coalesce(page, 1);
  if page not between 1 and (options ->> 'max_page')::int then
    raise exception 'page: between 1 and %', options ->> 'max_page' using errcode = '22023';
  end if;
  sort := coalesce(nullif(btrim(sort), ''), 'newest');
  if not options -> 'sorts' ? sort then raise exception '%', 'sort: newest or relevance' using errcode = '22023'; end if;
  -- the location as a LIKE pattern matching itself (% _ \ escaped)
  loc_pattern := replace(replace(replace(loc, '\', '\\'), '%', '\%'), '_', '\_');
  if q is not null then
    query := websearch_to_tsquery('english', q);
    -- Only stop words ("the", "and"): nothing to match on, so no filter (numtnode = 0).
    if numnode(query) = 0 then query := null; end if;
  end if;

  with base as materialized (
    select j.id, j.job_id, j.title, j.company, j.location, j.region, j.salary, j.salary_min, j.salary_max,
           j.salary_period, j.type, j.sector, j.employment_type, j.work_arrangement, j.posted_date, j.closing_date,
           j.description,
           case when query is not null then ts_rank(j.search_vector, query) else 0 end as rank,
           (sector is null or cardinality(sector) = 0 or j.sector = any (sector)) as m_sector,
           (region is null or cardinality(region) = 0 or j.region = any (region)) as m_region,
           (employment_type is null or cardinality(employment_type) = 0 or j.employment_type = any (employment_type)) as m_type,
           (work_arrangement is null or cardinality(work_arrangement) = 0 or j.work_arrangement = any (work_arrangement)) as m_arrangement,
           (salary_min is null or (j.salary_period = 'year' and coalesce(j.salary_max, j.salary_min) >= salary_min)) as m_salary,
           (posted_within is null or j.posted_date >= now() - make_interval(days => posted_within)) as m_posted
    from public.jobs j
    where j.status = 'active'
      and (query is null or j.search_vector @@ query)
      and (loc is null or j.location ilike '%' || loc_pattern || '%' escape '\'
           or j.region::text ilike loc_pattern escape '\')
  ),
  matched as (
    select * from base where m_sector and m_region and m_type and m_arrangement and m_salary and m_posted
  ),
  shown as (
    select * from matched
    order by case when sort = 'relevance' then rank end desc nulls last, posted_date desc, id
    limit page_size offset (page - 1) * page_size
  )
  select jsonb_build_object(
    'total', (select count(*) from matched),
    'page', page,
    'page_size', page_size,
    'pages', greatest(1, ceil((select count(*) from matched)::numeric / page_size)::int),
    'jobs', coalesce((
      select jsonb_agg(jsonb_build_object(
          'id', s.id, 'job_id', s.job_id, 'title', s.title, 'company', s.company, 'location', s.location,
          'region', s.region, 'salary', s.salary, 'type', s.type, 'sector', s.sector,
          'employment_type', s.employment_type, 'work_arrangement', s.work_arrangement,
          'posted_date', s.posted_date, 'closing_date', s.closing_date, 'excerpt', public.job_excerpt(s.description))
        order by case when sort = 'relevance' then s.rank end desc nulls last, s.posted_date desc, s.id)
      from shown s), '[]'::jsonb),
    'facets', jsonb_build_object(
      'sector', (
        select coalesce(jsonb_agg(jsonb_build_object('value', v, 'count', n) order by v), '[]'::jsonb)
        from (select v, sum(n)::int as n from (
                select b.sector as v, count(*) as n from base b
                where b.sector is not null and b.m_region and b.m_type and b.m_arrangement and b.m_salary and b.m_posted
                group by b.sector
                union all select s, 0 from unnest(sector) s) x group by v) t),
      'region', (
        select coalesce(jsonb_agg(jsonb_build_object('value', r, 'count', n) order by r), '[]'::jsonb)
        from (select r, sum(n)::int as n from (
                select b.region as r, count(*) as n from base b
                where b.region is not null and b.m_sector and b.m_type and b.m_arrangement and b.m_salary and b.m_posted
                group by b.region
                union all select r, 0 from unnest(region) r) x group by r) t),
      'employment_type', (
        select coalesce(jsonb_agg(jsonb_build_object('value', e, 'count', n) order by e), '[]'::jsonb)
        from (select e, sum(n)::int as n from (
                select b.employment_type as e, count(*) as n from base b
                where b.employment_type is not null and b.m_sector and b.m_region and b.m_arrangement and b.m_salary and b.m_posted
                group by b.employment_type
                union all select e, 0 from unnest(employment_type) e) x group by e) t),
      'work_arrangement', (
        select coalesce(jsonb_agg(jsonb_build_object('value', w, 'count', n) order by w), '[]'::jsonb)
        from (select w, sum(n)::int as n from (
                select b.work_arrangement as w, count(*) as n from base b
                where b.work_arrangement is not null and b.m_sector and b.m_region and b.m_type and b.m_salary and b.m_posted
                group by b.work_arrangement
                union all select w, 0 from unnest(work_arrangement) w) x group by w) t),
      'salary_min', (
        select jsonb_agg(jsonb_build_object('value', t.v, 'count', (
                 select count(*) from base b
                 where b.m_sector and b.m_region and b.m_type and b.m_arrangement and b.m_posted
                   and b.salary_period = 'year' and coalesce(b.salary_max, b.salary_min) >= t.v)) order by t.v)
        from jsonb_array_elements_text(options -> 'salary_thresholds') as t0(v0), lateral (select t0.v0::int as v) t),
      'posted_within', (
        select jsonb_agg(jsonb_build_object('value', d.v, 'count', (
                 select count(*) from base b
                 where b.m_sector and b.m_region and b.m_type and b.m_arrangement and b.m_salary
                   and b.posted_date >= now() - make_interval(days => d.v))) order by d.v)
        from jsonb_array_elements_text(options -> 'posted_within') as d0(v0), lateral (select d0.v0::int as v) d)
    )
  ) into result;
  return result;
end;
$$;
comment on function public.search_jobs(text, text[], public.uk_region[], text, public.employment_type[], public.work_arrangement[], integer, integer, integer, text) is
  'Public job search: a page of 20 live jobs (newest first, or relevance), total, pages and per-facet counts. Keywords: English full text (websearch syntax, stemmed) over title, company, requirements, description. location: part of the town, or a region''s name. salary_min: yearly jobs paying at least this (Competitive excluded). posted_within: days.';
revoke all on function public.search_jobs(text, text[], public.uk_region[], text, public.employment_type[], public.work_arrangement[], integer, integer, integer, text) from public;
grant execute on function public.search_jobs(text, text[], public.uk_region[], text, public.employment_type[], public.work_arrangement[], integer, integer, integer, text)
  to anon, authenticated, service_role;
