-- Vacancies 11/n (issue 24 §1, speed; tests/bench/jobs): the job search reads its matching jobs once. 0401's statement
-- materialised every matching job with its description, then read that set again for the total (twice), the page,
-- each of the four list facets and once per salary threshold (8) and posted-within choice (5): 19 passes, and
-- ts_rank for every match even when sorting by date. Now:
--   * base: the jobs the keywords and location reach (GIN index of live jobs), narrow (ids, facet columns, the
--     yearly pay and a flag per filter); rank only when sorting by relevance.
--   * counts: ONE hashed grouping-sets pass over base gives every facet count at once — per sector, region,
--     employment type, work arrangement, salary bucket (width_bucket over the thresholds) and posted-within bucket
--     (width_bucket over the cut-off times), plus the total (the empty set) — each facet counted with every other
--     filter applied (count(*) filter), as before. "At least £X" is the sum of the buckets from X's upwards.
--   * the page: 20 ids from base, joined back to public.jobs for what the list shows (description → excerpt).
-- Same signature, settings (definer, search_path '', force_custom_plan of 0409), grants and result as 0401/0409.
create or replace function app_private.search_jobs(
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
  language plpgsql stable security definer set search_path = '' set plan_cache_mode = force_custom_plan
as $$
#variable_conflict use_variable
declare
  options jsonb := public.job_search_options();
  page_size int := (options ->> 'page_size')::int;
  query tsquery;
  loc text := nullif(btrim(location), '');
  loc_pattern text;
  by_relevance boolean;
  salary_cuts int[];
  posted_days int[];
  posted_cuts timestamptz[];
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
  by_relevance := sort = 'relevance' and query is not null;
  -- bucket bounds, ascending: salary thresholds (GBP a year); posted-within cut-offs, oldest (most days) first
  salary_cuts := array(select v::int from jsonb_array_elements_text(options -> 'salary_thresholds') v order by 1);
  posted_days := array(select v::int from jsonb_array_elements_text(options -> 'posted_within') v order by 1 desc);
  posted_cuts := array(select now() - make_interval(days => d) from unnest(posted_days) with ordinality u(d, i) order by i);

  with base as materialized (
    select j.id, j.sector, j.region, j.employment_type, j.work_arrangement, j.posted_date,
           case when by_relevance then ts_rank(j.search_vector, query) else 0 end as rank,
           width_bucket(case when j.salary_period = 'year' then coalesce(j.salary_max, j.salary_min) end, salary_cuts)
             as salary_bucket,
           width_bucket(j.posted_date, posted_cuts) as posted_bucket,
           coalesce(sector is null or cardinality(sector) = 0 or j.sector = any (sector), false) as m_sector,
           coalesce(region is null or cardinality(region) = 0 or j.region = any (region), false) as m_region,
           coalesce(employment_type is null or cardinality(employment_type) = 0
                    or j.employment_type = any (employment_type), false) as m_type,
           coalesce(work_arrangement is null or cardinality(work_arrangement) = 0
                    or j.work_arrangement = any (work_arrangement), false) as m_arrangement,
           coalesce(salary_min is null
                    or (j.salary_period = 'year' and coalesce(j.salary_max, j.salary_min) >= salary_min), false) as m_salary,
           coalesce(posted_within is null or j.posted_date >= now() - make_interval(days => posted_within), false)
             as m_posted
    from public.jobs j
    where j.status = 'active'
      and (query is null or j.search_vector @@ query)
      and (loc is null or j.location ilike '%' || loc_pattern || '%' escape '\'
           or j.region::text ilike loc_pattern escape '\')
  ),
  -- one pass: a row per value of each facet (and one for the empty set: the total); n_* counts it under the other filters
  counts as (
    select grouping(b.sector) = 0 as is_sector, grouping(b.region) = 0 as is_region,
           grouping(b.employment_type) = 0 as is_type, grouping(b.work_arrangement) = 0 as is_arrangement,
           grouping(b.salary_bucket) = 0 as is_salary, grouping(b.posted_bucket) = 0 as is_posted,
           b.sector, b.region, b.employment_type, b.work_arrangement, b.salary_bucket, b.posted_bucket,
           count(*) filter (where b.m_region and b.m_type and b.m_arrangement and b.m_salary and b.m_posted) as n_sector,
           count(*) filter (where b.m_sector and b.m_type and b.m_arrangement and b.m_salary and b.m_posted) as n_region,
           count(*) filter (where b.m_sector and b.m_region and b.m_arrangement and b.m_salary and b.m_posted) as n_type,
           count(*) filter (where b.m_sector and b.m_region and b.m_type and b.m_salary and b.m_posted) as n_arrangement,
           count(*) filter (where b.m_sector and b.m_region and b.m_type and b.m_arrangement and b.m_posted) as n_salary,
           count(*) filter (where b.m_sector and b.m_region and b.m_type and b.m_arrangement and b.m_salary) as n_posted,
           count(*) filter (where b.m_sector and b.m_region and b.m_type and b.m_arrangement and b.m_salary
                              and b.m_posted) as n_all
    from base b
    group by grouping sets ((b.sector), (b.region), (b.employment_type), (b.work_arrangement), (b.salary_bucket),
                            (b.posted_bucket), ())
  ),
  total as (
    select c.n_all::int as n from counts c
    where not (c.is_sector or c.is_region or c.is_type or c.is_arrangement or c.is_salary or c.is_posted)
  ),
  -- each list facet's values (one row per facet and value): jsonb value, its type's order (enum position; the
  -- sector's text), and the count; the values chosen are added with 0 so a chosen value with no match still shows
  listed as (
    select x.facet, x.value, x.ord, x.label, sum(x.n)::int as n
    from (
      select v.facet, v.value, v.ord, v.label, v.n
      from counts c cross join lateral (values
        ('sector', c.is_sector, to_jsonb(c.sector), null::int, c.sector, c.n_sector),
        ('region', c.is_region, to_jsonb(c.region), array_position(enum_range(null::public.uk_region), c.region),
         null, c.n_region),
        ('employment_type', c.is_type, to_jsonb(c.employment_type),
         array_position(enum_range(null::public.employment_type), c.employment_type), null, c.n_type),
        ('work_arrangement', c.is_arrangement, to_jsonb(c.work_arrangement),
         array_position(enum_range(null::public.work_arrangement), c.work_arrangement), null, c.n_arrangement)
      ) v(facet, is_set, value, ord, label, n)
      where v.is_set and v.value is not null and v.n > 0
      union all select 'sector', to_jsonb(s), null, s, 0 from unnest(sector) s
      union all select 'region', to_jsonb(r), array_position(enum_range(null::public.uk_region), r), null, 0
                from unnest(region) r
      union all select 'employment_type', to_jsonb(e), array_position(enum_range(null::public.employment_type), e),
                       null, 0 from unnest(employment_type) e
      union all select 'work_arrangement', to_jsonb(w),
                       array_position(enum_range(null::public.work_arrangement), w), null, 0 from unnest(work_arrangement) w
    ) x
    group by x.facet, x.value, x.ord, x.label
  ),
  shown as (
    select b.id, b.rank, b.posted_date from base b
    where b.m_sector and b.m_region and b.m_type and b.m_arrangement and b.m_salary and b.m_posted
    order by case when by_relevance then b.rank end desc nulls last, b.posted_date desc, b.id
    limit page_size offset (page - 1) * page_size
  )
  select jsonb_build_object(
    'total', (select t.n from total t),
    'page', page,
    'page_size', page_size,
    'pages', greatest(1, ceil((select t.n from total t)::numeric / page_size)::int),
    'jobs', coalesce((
      select jsonb_agg(jsonb_build_object(
          'id', j.id, 'job_id', j.job_id, 'title', j.title, 'company', j.company, 'location', j.location,
          'region', j.region, 'salary', j.salary, 'type', j.type, 'sector', j.sector,
          'employment_type', j.employment_type, 'work_arrangement', j.work_arrangement,
          'posted_date', j.posted_date, 'closing_date', j.closing_date, 'excerpt', public.job_excerpt(j.description))
        order by case when by_relevance then s.rank end desc nulls last, s.posted_date desc, s.id)
      from shown s join public.jobs j on j.id = s.id), '[]'::jsonb),
    'facets', (
      -- the list facets: every value with a match, and every chosen value (0 when nothing matches it)
      select jsonb_object_agg(f.facet, coalesce(
               (select jsonb_agg(jsonb_build_object('value', l.value, 'count', l.n) order by l.ord, l.label)
                from listed l where l.facet = f.facet), '[]'::jsonb))
      from unnest(array['sector', 'region', 'employment_type', 'work_arrangement']) f(facet)
    ) || jsonb_build_object(
      -- at least threshold i: the jobs in bucket i and above
      'salary_min', (
        select jsonb_agg(jsonb_build_object('value', t.v, 'count', coalesce((
                 select sum(c.n_salary) from counts c where c.is_salary and c.salary_bucket >= t.i), 0)) order by t.v)
        from unnest(salary_cuts) with ordinality t(v, i)),
      -- posted within d days: the jobs in d's cut-off bucket and newer ones
      'posted_within', (
        select jsonb_agg(jsonb_build_object('value', d.v, 'count', coalesce((
                 select sum(c.n_posted) from counts c where c.is_posted and c.posted_bucket >= d.i), 0)) order by d.v)
        from unnest(posted_days) with ordinality d(v, i))
    )
  ) into result;
  return result;
end;
$$;
comment on function app_private.search_jobs(text, text[], public.uk_region[], text, public.employment_type[],
  public.work_arrangement[], integer, integer, integer, text) is
  'The job search behind public.search_jobs, as its definer (live jobs only) so keywords can use the GIN index under RLS; one pass over the matches for every facet count (0410).';
revoke all on function app_private.search_jobs(text, text[], public.uk_region[], text, public.employment_type[],
  public.work_arrangement[], integer, integer, integer, text) from public;
grant execute on function app_private.search_jobs(text, text[], public.uk_region[], text, public.employment_type[],
  public.work_arrangement[], integer, integer, integer, text) to anon, authenticated, service_role;
