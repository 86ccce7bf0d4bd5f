-- Vacancies 5/n (issue 24 §1): /jobs rendered by the database, so the first page is complete HTML for people without
-- JavaScript and for crawlers. The gateway calls public.render_jobs_page('', '<query string>') as anon (a `dynamic`
-- route at the exact path /jobs with `query: true` in _site.json) and fills dist/_templates/jobs.html with "head" and
-- "body", answering "status": 200; 404 for a page past the last; 400 for settings that are not valid.
-- URL parameters (shareable; the site's filter form submits the same): q, location, sector*, region*, type*
-- (employment_type), arrangement* (work_arrangement), salary (minimum, GBP a year), posted (days), sort
-- (newest|relevance), page (* = repeatable). Indexable: /jobs and one value of one of sector, region, type or
-- arrangement (any page), with their own title, description and canonical; every other combination is
-- noindex, follow with /jobs as canonical.
-- The markup mirrors web/src/features/jobs-search (the browser re-renders it from data-ssr-search and takes over
-- the filters): keep them in step.

/* ---------------------------------------------------------------------------------------------------------------
 * Query strings.
 * --------------------------------------------------------------------------------------------------------------- */
-- Form-decodes a query-string component ('+' is a space, %XX a byte); invalid UTF-8 raises 22021.
create or replace function app_private.url_decode(value text) returns text
  language plpgsql immutable strict set search_path = ''
as $$
declare
  bytes bytea := '';
  i int := 1;
  n int := length(value);
  c text;
begin
  while i <= n loop
    c := substr(value, i, 1);
    if c = '%' and substr(value, i + 1, 2) ~ '^[0-9A-Fa-f]{2}$' then
      bytes := bytes || decode(substr(value, i + 1, 2), 'hex');
      i := i + 3;
    else
      bytes := bytes || case when c = '+' then '\x20'::bytea else convert_to(c, 'UTF8') end;
      i := i + 1;
    end if;
  end loop;
  return convert_from(bytes, 'UTF8');
end;
$$;
comment on function app_private.url_decode(text) is 'Form-decodes a query-string component (+ and %XX); invalid UTF-8 raises 22021.';

-- Form-encodes text as URLSearchParams does: letters, digits and * - . _ as they are, a space as '+', every other
-- character as its UTF-8 bytes in %XX.
create or replace function app_private.url_encode(value text) returns text
  language sql immutable strict set search_path = ''
as $$
  select coalesce(string_agg(case
      when c ~ '^[A-Za-z0-9*._-]$' then c
      when c = ' ' then '+'
      else upper(regexp_replace(encode(convert_to(c, 'UTF8'), 'hex'), '(..)', '%\1', 'g')) end, '' order by n), '')
  from regexp_split_to_table(value, '') with ordinality as t(c, n)
$$;
comment on function app_private.url_encode(text) is 'Form-encodes text as URLSearchParams does (space as +, %XX for UTF-8 bytes).';

-- The parameters of a query string in order: (key, value, position).
create or replace function app_private.query_params(query text)
returns table (key text, value text, n bigint)
  language sql immutable set search_path = ''
as $$
  select app_private.url_decode(split_part(p, '=', 1)), app_private.url_decode(substr(p, strpos(p || '=', '=') + 1)), n
  from regexp_split_to_table(coalesce(query, ''), '&') with ordinality as t(p, n)
  where p <> ''
$$;
comment on function app_private.query_params(text) is 'A query string''s parameters, decoded, in order.';

/* ---------------------------------------------------------------------------------------------------------------
 * The search settings of a /jobs address, and addresses for settings.
 * --------------------------------------------------------------------------------------------------------------- */
-- {q, location, sector[], region[], type[], arrangement[], salary, posted, sort, page} from a query string; unknown
-- parameters (utm_source, …) are ignored; values that cannot be settings raise 22023 or 22P02.
create or replace function app_private.jobs_filters(query text) returns jsonb
  language plpgsql immutable set search_path = ''
as $$
declare
  params jsonb;
  last_of jsonb;
  result jsonb;
  bad text;
begin
  if char_length(coalesce(query, '')) > 4000 then
    raise exception 'the address is too long' using errcode = '22023';
  end if;
  select coalesce(jsonb_object_agg(k, vs), '{}'::jsonb) into params
  from (select p.key as k, jsonb_agg(btrim(p.value) order by p.n) filter (where btrim(p.value) <> '') as vs
        from app_private.query_params(query) p
        where p.key in ('q', 'location', 'sector', 'region', 'type', 'arrangement', 'salary', 'posted', 'sort', 'page')
        group by p.key) g
  where vs is not null;
  select k into bad from (values ('salary'), ('posted'), ('page')) v(k)
  where params ? k and not (params -> k ->> -1) ~ '^[0-9]{1,8}$' limit 1;
  if bad is not null then
    raise exception '%: a whole number', bad using errcode = '22023';
  end if;
  result := jsonb_strip_nulls(jsonb_build_object(
    'q', params -> 'q' ->> -1,
    'location', params -> 'location' ->> -1,
    'sector', (select jsonb_agg(distinct v) from jsonb_array_elements_text(params -> 'sector') v),
    'region', (select jsonb_agg(distinct v::public.uk_region) from jsonb_array_elements_text(params -> 'region') v),
    'type', (select jsonb_agg(distinct v::public.employment_type) from jsonb_array_elements_text(params -> 'type') v),
    'arrangement', (select jsonb_agg(distinct v::public.work_arrangement) from jsonb_array_elements_text(params -> 'arrangement') v),
    'salary', (params -> 'salary' ->> -1)::int,
    'posted', (params -> 'posted' ->> -1)::int,
    'sort', nullif(params -> 'sort' ->> -1, 'newest'),
    'page', nullif((params -> 'page' ->> -1)::int, 1)));
  return result;
end;
$$;
comment on function app_private.jobs_filters(text) is
  'The job search settings of a /jobs query string as JSON (q, location, sector[], region[], type[], arrangement[], salary, posted, sort, page); invalid values raise 22023/22P02.';

-- The address of a set of settings: /jobs?q=…&location=…&sector=…&region=…&type=…&arrangement=…&salary=…&posted=…
-- &sort=…&page=… (in this order, page 1 and sort newest left out).
create or replace function app_private.jobs_href(f jsonb) returns text
  language sql immutable set search_path = ''
as $$
  select '/jobs' || coalesce('?' || string_agg(k || '=' || app_private.url_encode(v), '&' order by o, i), '')
  from (
    select o, k, i, v from (values (1, 'q'), (2, 'location'), (3, 'sector'), (4, 'region'), (5, 'type'),
                                  (6, 'arrangement'), (7, 'salary'), (8, 'posted'), (9, 'sort'), (10, 'page')) keys(o, k)
    cross join lateral (
      select i, v from jsonb_array_elements_text(case jsonb_typeof(f -> k) when 'array' then f -> k
                                                   when 'null' then '[]'::jsonb
                                                   else coalesce(jsonb_build_array(f -> k), '[]'::jsonb) end)
                       with ordinality as e(v, i)
      where not (k = 'page' and v = '1') and not (k = 'sort' and v = 'newest') and v <> ''
    ) vals
  ) parts
$$;
comment on function app_private.jobs_href(jsonb) is 'The /jobs address of a set of search settings (canonical parameter order).';

-- Settings without one value of one key (or the whole key when value is null), back on page 1.
create or replace function app_private.jobs_without(f jsonb, key text, value text default null) returns jsonb
  language sql immutable set search_path = ''
as $$
  select case
    when value is null or jsonb_typeof(f -> key) <> 'array' then (f - key) - 'page'
    else jsonb_set(f, array[key], coalesce((select jsonb_agg(e.item) from jsonb_array_elements(f -> key) as e(item)
                                            where e.item #>> '{}' <> jobs_without.value), '[]'::jsonb)) - 'page'
  end
$$;
comment on function app_private.jobs_without(jsonb, text, text) is 'Search settings with one filter value removed (and page reset).';

/* ---------------------------------------------------------------------------------------------------------------
 * Words the page shows.
 * --------------------------------------------------------------------------------------------------------------- */
create or replace function app_private.money(amount int) returns text
  language sql immutable set search_path = ''
as $$
  select '£' || to_char(amount, 'FM999,999,999')
$$;

create or replace function app_private.posted_label(days int) returns text
  language sql immutable set search_path = ''
as $$
  select case days when 1 then 'Last 24 hours' else 'Last ' || days || ' days' end
$$;

-- The heading of an indexable single-filter view, else null: "Consultancy jobs", "Jobs in London", "Permanent jobs",
-- "Remote jobs".
create or replace function app_private.jobs_heading(f jsonb) returns text
  language sql immutable set search_path = ''
as $$
  select case
    when (select count(*) from jsonb_object_keys(f - 'page')) = 0 then 'Current Vacancies'
    when (select count(*) from jsonb_object_keys(f - 'page')) = 1 and jsonb_array_length(coalesce(
           f -> 'sector', f -> 'region', f -> 'type', f -> 'arrangement', '[]'::jsonb)) = 1 then
      case
        when f ? 'sector' then (f -> 'sector' ->> 0) || ' jobs'
        when f ? 'region' then 'Jobs in ' || (f -> 'region' ->> 0)
        when f ? 'type' then public.employment_type_label((f -> 'type' ->> 0)::public.employment_type) || ' jobs'
        when f ? 'arrangement' then public.work_arrangement_label((f -> 'arrangement' ->> 0)::public.work_arrangement) || ' jobs'
      end
  end
$$;
comment on function app_private.jobs_heading(jsonb) is
  'The heading of /jobs or of an indexable view (one value of sector, region, type or arrangement); null when the view is not indexable.';

-- "57 jobs", "1 job", "No jobs", with the range shown when there is more than one page.
create or replace function app_private.jobs_count_text(total int, page int, page_size int) returns text
  language sql immutable set search_path = ''
as $$
  select case when total = 0 then 'No jobs found'
    else total || case when total = 1 then ' job' else ' jobs' end || ' found'
      || case when total > page_size then ', showing ' || ((page - 1) * page_size + 1) || '–'
           || least(page * page_size, total) else '' end end
$$;

/* ---------------------------------------------------------------------------------------------------------------
 * Parts of the page.
 * --------------------------------------------------------------------------------------------------------------- */
-- A facet's checkboxes: one per value (the value's count with every other filter applied).
create or replace function app_private.jobs_facet_html(legend text, name text, facet jsonb, chosen jsonb) returns text
  language sql immutable set search_path = ''
as $$
  select case when jsonb_array_length(coalesce(facet, '[]'::jsonb)) = 0 then '' else concat(
    '<fieldset class="jobs-facet"><legend>', public.html_escape(legend), '</legend>',
    (select string_agg(concat(
        '<label class="jobs-facet__option"><input type="checkbox" name="', name, '" value="', public.html_escape(v ->> 'value'), '"',
        case when coalesce(chosen, '[]'::jsonb) ? (v ->> 'value') then ' checked' end, '>',
        '<span class="jobs-facet__label">', public.html_escape(case name
            when 'type' then public.employment_type_label((v ->> 'value')::public.employment_type)
            when 'arrangement' then public.work_arrangement_label((v ->> 'value')::public.work_arrangement)
            else v ->> 'value' end), '</span>',
        '<span class="jobs-facet__count">', v ->> 'count', '</span></label>'), '' order by n)
     from jsonb_array_elements(facet) with ordinality as t(v, n)),
    '</fieldset>') end
$$;

-- The filter form (GET /jobs: works without JavaScript).
create or replace function app_private.jobs_form_html(f jsonb, facets jsonb) returns text
  language sql immutable set search_path = ''
as $$
  select concat(
    '<form class="jobs-filters card" method="get" action="/jobs" role="search" aria-label="Filter jobs">',
    '<h2 class="jobs-filters__title">Filter jobs</h2>',
    '<div class="field"><label for="jobs-q">Keywords</label><input id="jobs-q" name="q" type="search" maxlength="200" placeholder="e.g. asset manager" value="',
    public.html_escape(f ->> 'q'), '"></div>',
    '<div class="field"><label for="jobs-location">Town or region</label><input id="jobs-location" name="location" type="text" maxlength="100" placeholder="e.g. Manchester" value="',
    public.html_escape(f ->> 'location'), '"></div>',
    app_private.jobs_facet_html('Sector', 'sector', facets -> 'sector', f -> 'sector'),
    app_private.jobs_facet_html('Region', 'region', facets -> 'region', f -> 'region'),
    app_private.jobs_facet_html('Job type', 'type', facets -> 'employment_type', f -> 'type'),
    app_private.jobs_facet_html('Work arrangement', 'arrangement', facets -> 'work_arrangement', f -> 'arrangement'),
    '<div class="field"><label for="jobs-salary">Minimum salary</label><select id="jobs-salary" name="salary"><option value="">Any salary</option>',
    (select string_agg(concat('<option value="', s ->> 'value', '"',
        case when (f ->> 'salary') = (s ->> 'value') then ' selected' end, '>',
        app_private.money((s ->> 'value')::int), '+ (', s ->> 'count', ')</option>'), '' order by n)
     from jsonb_array_elements(facets -> 'salary_min') with ordinality as t(s, n)),
    '</select></div>',
    '<div class="field"><label for="jobs-posted">Date posted</label><select id="jobs-posted" name="posted"><option value="">Any time</option>',
    (select string_agg(concat('<option value="', d ->> 'value', '"',
        case when (f ->> 'posted') = (d ->> 'value') then ' selected' end, '>',
        app_private.posted_label((d ->> 'value')::int), ' (', d ->> 'count', ')</option>'), '' order by n)
     from jsonb_array_elements(facets -> 'posted_within') with ordinality as t(d, n)),
    '</select></div>',
    case when f ? 'sort' then '<input type="hidden" name="sort" value="' || public.html_escape(f ->> 'sort') || '">' end,
    '<button type="submit" class="btn btn--accent btn--block">Show jobs</button>',
    '</form>')
$$;

-- The active filters as links that remove them, and "Clear all".
create or replace function app_private.jobs_chips_html(f jsonb) returns text
  language sql immutable set search_path = ''
as $$
  with chips as (
    select o, i, label, app_private.jobs_href(app_private.jobs_without(f, k, v)) as href
    from (
      select 1 as o, 0::bigint as i, 'q' as k, null::text as v, '“' || (f ->> 'q') || '”' as label where f ? 'q'
      union all select 2, 0, 'location', null, 'Near ' || (f ->> 'location') where f ? 'location'
      union all select 3, i, 'sector', v, v from jsonb_array_elements_text(f -> 'sector') with ordinality e(v, i)
      union all select 4, i, 'region', v, v from jsonb_array_elements_text(f -> 'region') with ordinality e(v, i)
      union all select 5, i, 'type', v, public.employment_type_label(v::public.employment_type)
        from jsonb_array_elements_text(f -> 'type') with ordinality e(v, i)
      union all select 6, i, 'arrangement', v, public.work_arrangement_label(v::public.work_arrangement)
        from jsonb_array_elements_text(f -> 'arrangement') with ordinality e(v, i)
      union all select 7, 0, 'salary', null, app_private.money((f ->> 'salary')::int) || '+' where f ? 'salary'
      union all select 8, 0, 'posted', null, app_private.posted_label((f ->> 'posted')::int) where f ? 'posted'
    ) c
  )
  select case when not exists (select 1 from chips) then '' else concat(
    '<ul class="jobs-chips" aria-label="Active filters">',
    (select string_agg(concat('<li><a class="jobs-chip" href="', public.html_escape(href), '">', public.html_escape(label),
        '<span class="visually-hidden"> – remove this filter</span><span aria-hidden="true"> ×</span></a></li>'), '' order by o, i)
     from chips),
    '<li><a class="jobs-chip jobs-chip--clear" href="/jobs">Clear all</a></li></ul>') end
$$;

-- One job in the list.
create or replace function app_private.jobs_card_html(j jsonb) returns text
  language sql immutable set search_path = ''
as $$
  select concat(
    '<li class="jobs-card card"><h2 class="jobs-card__title"><a href="/jobs/', j ->> 'id', '">', public.html_escape(j ->> 'title'), '</a></h2>',
    case when j ->> 'company' is not null then '<p class="jobs-card__company">' || public.html_escape(j ->> 'company') || '</p>' end,
    '<ul class="jobs-card__facts">',
    '<li>', public.html_escape(coalesce(j ->> 'location', 'Location not specified')), '</li>',
    '<li>', public.html_escape(coalesce(nullif(j ->> 'salary', ''), 'Competitive')), '</li>',
    case when j ->> 'employment_type' is not null then
      '<li>' || public.employment_type_label((j ->> 'employment_type')::public.employment_type) || '</li>' end,
    case when j ->> 'work_arrangement' is not null then
      '<li>' || public.work_arrangement_label((j ->> 'work_arrangement')::public.work_arrangement) || '</li>' end,
    '</ul>',
    case when j ->> 'excerpt' is not null then '<p class="jobs-card__excerpt">' || public.html_escape(j ->> 'excerpt') || '</p>' end,
    '<p class="jobs-card__posted">Posted ', to_char((j ->> 'posted_date')::timestamptz at time zone 'UTC', 'FMDD FMMonth YYYY'), '</p>',
    '</li>')
$$;

-- Previous, numbered pages (the first, the last and two either side of the current one) and Next, as real links.
create or replace function app_private.jobs_pager_html(f jsonb, page int, pages int) returns text
  language sql immutable set search_path = ''
as $$
  select case when pages <= 1 then '' else concat(
    '<nav class="pager" aria-label="Pages of results">',
    case when page > 1 then '<a class="pager__step" rel="prev" href="'
      || public.html_escape(app_private.jobs_href(f || jsonb_build_object('page', page - 1))) || '">Previous</a>' end,
    '<ol class="pager__pages">',
    (select string_agg(case
        when x.v = page then '<li><span class="pager__page" aria-current="page">' || x.v || '</span></li>'
        when x.v = -1 then '<li><span class="pager__gap" aria-hidden="true">…</span></li>'
        else '<li><a class="pager__page" href="' || public.html_escape(app_private.jobs_href(f || jsonb_build_object('page', x.v)))
             || '" aria-label="Page ' || x.v || '">' || x.v || '</a></li>' end, '' order by s.p, x.k)
     from (select p, lead(p) over (order by p) as next_p from generate_series(1, pages) p
           where p = 1 or p = pages or abs(p - page) <= 2) s,
          -- each shown page, then a gap when the next shown page does not follow it
          lateral (values (s.p, 0), (case when s.next_p > s.p + 1 then -1 end, 1)) as x(v, k)
     where x.v is not null),
    '</ol>',
    case when page < pages then '<a class="pager__step" rel="next" href="'
      || public.html_escape(app_private.jobs_href(f || jsonb_build_object('page', page + 1))) || '">Next</a>' end,
    '</nav>') end
$$;

/* ---------------------------------------------------------------------------------------------------------------
 * The page.
 * --------------------------------------------------------------------------------------------------------------- */
create or replace function public.render_jobs_page(rest text, query text) returns jsonb
  language plpgsql stable set search_path = ''
as $$
declare
  site record := public.site_identity();
  f jsonb;
  result jsonb;
  heading text;
  indexable boolean;
  page int;
  pages int;
  total int;
  canonical text;
  title text;
  description text;
  status int := 200;
  head text;
  body text;
begin
  if coalesce(rest, '') <> '' then
    return jsonb_build_object('status', 404, 'head', '<title>Not found</title>', 'body', '');
  end if;
  begin
    f := app_private.jobs_filters(query);
    result := public.search_jobs(
      q => f ->> 'q', location => f ->> 'location',
      sector => (select array_agg(v) from jsonb_array_elements_text(f -> 'sector') v),
      region => (select array_agg(v::public.uk_region) from jsonb_array_elements_text(f -> 'region') v),
      employment_type => (select array_agg(v::public.employment_type) from jsonb_array_elements_text(f -> 'type') v),
      work_arrangement => (select array_agg(v::public.work_arrangement) from jsonb_array_elements_text(f -> 'arrangement') v),
      salary_min => (f ->> 'salary')::int, posted_within => (f ->> 'posted')::int,
      page => coalesce((f ->> 'page')::int, 1), sort => coalesce(f ->> 'sort', 'newest'));
  exception when sqlstate '22023' or sqlstate '22P02' or sqlstate '22021' or sqlstate '22003' then
    return jsonb_build_object('status', 400,
      'head', '<title>Search not valid | ' || public.html_escape(site.site_name) || '</title><meta data-head name="robots" content="noindex">',
      'body', concat('<div class="jobs-page" data-testid="jobs-search" data-ssr-status="400">',
        '<section class="page-hero jobs-hero"><div class="container"><h1>Those search settings are not valid</h1>',
        '<p>', public.html_escape(sqlerrm), '</p>',
        '<a class="btn btn--accent" href="/jobs">See every live role</a></div></section></div>'));
  end;

  page := (result ->> 'page')::int;
  pages := (result ->> 'pages')::int;
  total := (result ->> 'total')::int;
  heading := app_private.jobs_heading(f);
  indexable := heading is not null;
  heading := coalesce(heading, 'Current Vacancies');
  if page > pages then
    status := 404;
  end if;
  canonical := site.site_url || case when indexable then app_private.jobs_href(f) else '/jobs' end;
  title := heading || case when page > 1 then ' – page ' || page else '' end || ' | ' || site.site_name;
  description := total || ' live ' || case when heading = 'Current Vacancies' then '' else lower(regexp_replace(heading, ' jobs$', '')) || ' ' end
    || case when total = 1 then 'role' else 'roles' end
    || ' in property and the built environment from ' || site.site_name || '. Search, filter and apply online.';

  head := concat(
    '<title>', public.html_escape(title), '</title>',
    '<meta data-head name="description" content="', public.html_escape(description), '">',
    '<meta data-head name="robots" content="', case when indexable and status = 200 then 'index, follow' else 'noindex, follow' end, '">',
    '<link data-head rel="canonical" href="', public.html_escape(canonical), '">',
    '<meta data-head property="og:type" content="website">',
    '<meta data-head property="og:site_name" content="', public.html_escape(site.site_name), '">',
    '<meta data-head property="og:title" content="', public.html_escape(title), '">',
    '<meta data-head property="og:description" content="', public.html_escape(description), '">',
    '<meta data-head property="og:url" content="', public.html_escape(canonical), '">',
    '<meta data-head property="og:image" content="', public.html_escape(site.site_url || '/images/og-default.png'), '">',
    '<meta data-head property="og:locale" content="en_GB">',
    '<link data-head rel="alternate" type="application/rss+xml" title="', public.html_escape(site.site_name || ' – latest jobs'), '" href="/feeds/jobs.rss">');

  body := concat(
    '<div class="jobs-page" data-testid="jobs-search" data-ssr-status="', status, '" data-ssr-search="',
    public.html_escape(jsonb_build_object('filters', f, 'result', result, 'heading', heading)::text), '">',
    '<section class="page-hero jobs-hero"><div class="container">',
    '<p class="eyebrow">Current Vacancies</p>',
    '<h1>', public.html_escape(heading), '</h1>',
    '<p class="lead">Live roles in property and the built environment, updated as they open and close.</p>',
    '<p class="jobs-hero__agency">', public.html_escape('Every role here is advertised by ' || site.site_name
      || ', acting as an employment agency for permanent roles and an employment business for temporary ones.'), '</p>',
    '</div></section>',
    '<div class="container section jobs-layout">',
    app_private.jobs_form_html(f, result -> 'facets'),
    '<div class="jobs-results">',
    '<div class="jobs-results__bar"><p class="jobs-results__count" role="status" aria-live="polite" data-testid="jobs-count">',
    app_private.jobs_count_text(total, page, (result ->> 'page_size')::int), '</p>',
    case when f ? 'q' then concat('<p class="jobs-sort">Sort: ',
      case when f ? 'sort' then '<a href="' || public.html_escape(app_private.jobs_href((f - 'sort') - 'page')) || '">Newest</a>'
        else '<span aria-current="true">Newest</span>' end, ' · ',
      case when f ? 'sort' then '<span aria-current="true">Most relevant</span>'
        else '<a href="' || public.html_escape(app_private.jobs_href((f || '{"sort":"relevance"}') - 'page')) || '">Most relevant</a>' end,
      '</p>') end,
    '</div>',
    app_private.jobs_chips_html(f),
    case
      when total = 0 then concat(
        '<div class="jobs-empty card" data-testid="jobs-empty"><h2>No jobs match your search</h2>',
        '<p>Try removing a filter', case when f <> '{}'::jsonb then ' above, or <a href="/jobs">see every live role</a>' end, '.</p>',
        '<p>Or let us e-mail you when a role like this is published: create a job alert below.</p></div>')
      when status = 404 then concat(
        '<div class="jobs-empty card" data-testid="jobs-empty"><h2>There is no page ', page, '</h2>',
        '<p><a href="', public.html_escape(app_private.jobs_href(f - 'page')), '">Back to the first page</a></p></div>')
      else concat('<ol class="jobs-list">',
        (select string_agg(app_private.jobs_card_html(j), '' order by n) from jsonb_array_elements(result -> 'jobs') with ordinality as t(j, n)),
        '</ol>')
    end,
    app_private.jobs_pager_html(f, page, pages),
    '<section class="jobs-alert card" id="job-alert" aria-labelledby="jobs-alert-title">',
    '<h2 id="jobs-alert-title">E-mail me jobs like these</h2>',
    '<p>Get new roles that match this search by e-mail, daily or weekly. You can stop at any time.</p>',
    '<button type="button" class="btn btn--outline">Create a job alert</button>',
    '</section>',
    '</div></div></div>');
  return jsonb_build_object('status', status, 'head', head, 'body', body);
end;
$$;
comment on function public.render_jobs_page(text, text) is
  'Server-rendered /jobs for the gateway (`dynamic` route at /jobs with the query string): {status 200|400|404, head, body}; the search, filters with counts, pages of 20 with real links.';

do $$
declare
  f text;
begin
  foreach f in array array['app_private.url_decode(text)', 'app_private.url_encode(text)', 'app_private.query_params(text)',
    'app_private.jobs_filters(text)', 'app_private.jobs_href(jsonb)', 'app_private.jobs_without(jsonb, text, text)',
    'app_private.money(int)', 'app_private.posted_label(int)', 'app_private.jobs_heading(jsonb)',
    'app_private.jobs_count_text(int, int, int)', 'app_private.jobs_facet_html(text, text, jsonb, jsonb)',
    'app_private.jobs_form_html(jsonb, jsonb)', 'app_private.jobs_chips_html(jsonb)', 'app_private.jobs_card_html(jsonb)',
    'app_private.jobs_pager_html(jsonb, int, int)', 'public.render_jobs_page(text, text)'] loop
    execute format('revoke all on function %s from public', f);
    execute format('grant execute on function %s to anon, authenticated, service_role', f);
  end loop;
end
$$;
