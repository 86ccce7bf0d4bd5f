-- Vacancies 3/n (issue 24 §3, §5): the job page names the agency (reg. 27 of the Conduct of Employment Agencies
-- Regulations 2003: its full name and whether the role is permanent or temporary), shows the work arrangement, and a
-- closed job answers 410 "This role is no longer open" with similar live roles and no JobPosting. JobPosting maps
-- employmentType from jobs.employment_type, baseSalary's unit from salary_period, remote roles to TELECOMMUTE, and
-- names the client as hiring organisation when it is named, else the agency.
--
-- One rendering of a job's text, used by the page, JobPosting and the feeds (0403):
--   public.job_description_html(job)   the description as HTML (today: paragraphs split on blank lines, escaped)
--   public.job_requirements_html(job)  the requirements as <ul class="job-reqs"> (lines, bullets dropped), or ''
-- The job editor's Markdown rendering (branch vac-admin) replaces these two functions' bodies; callers stay as they are.
-- Mirrors web/src/features/jobs (job-view.tsx, job-posting.ts, closed-job.tsx): keep them in step.

/* ---------------------------------------------------------------------------------------------------------------
 * Vocabulary labels and the agency's wording (reg. 27).
 * --------------------------------------------------------------------------------------------------------------- */
create or replace function public.employment_type_label(t public.employment_type) returns text
  language sql immutable set search_path = ''
as $$
  select case t when 'permanent' then 'Permanent' when 'fixed-term' then 'Fixed-term contract'
    when 'contract' then 'Contract' when 'interim' then 'Interim' when 'temporary' then 'Temporary' end
$$;
comment on function public.employment_type_label(public.employment_type) is 'Display label of an employment type.';

create or replace function public.work_arrangement_label(w public.work_arrangement) returns text
  language sql immutable set search_path = ''
as $$
  select case w when 'on-site' then 'On-site' when 'hybrid' then 'Hybrid' when 'remote' then 'Remote' end
$$;
comment on function public.work_arrangement_label(public.work_arrangement) is 'Display label of a work arrangement.';

-- "Advertised by <firm>, acting as an employment agency" (permanent) or "… an employment business" (temporary):
-- reg. 27(1) names the agency and says whether the role is permanent or temporary.
create or replace function public.job_advertiser_text(t public.employment_type, firm text) returns text
  language sql immutable set search_path = ''
as $$
  select 'Advertised by ' || firm || case
    when t = 'permanent' then ', acting as an employment agency (permanent role).'
    when t is not null then ', acting as an employment business (temporary role).'
    else '.' end
$$;
comment on function public.job_advertiser_text(public.employment_type, text) is
  'The agency line every job page and feed entry carries (reg. 27): the firm''s name and, when known, permanent (employment agency) or temporary (employment business).';

-- The firm's name and origin (public.site_settings; defaults when the row is missing).
create or replace function public.site_identity(out site_url text, out site_name text, out logo_path text)
  language sql stable set search_path = ''
as $$
  select coalesce(s.site_url, 'http://localhost'), coalesce(s.site_name, 'Recruitment'), coalesce(s.logo_path, '/images/logo.svg')
  from (select 1) one left join public.site_settings s on true
  limit 1
$$;
comment on function public.site_identity() is 'The site origin, firm name and logo path from public.site_settings.';

/* ---------------------------------------------------------------------------------------------------------------
 * The one rendering of a job's text.
 * --------------------------------------------------------------------------------------------------------------- */
create or replace function public.job_description_html(job public.jobs) returns text
  language sql immutable set search_path = ''
as $$
  select coalesce(string_agg('<p>' || public.html_escape(btrim(p)) || '</p>', '' order by n), '')
  from regexp_split_to_table(coalesce(job.description, ''), '\r?\n\s*\r?\n') with ordinality as t(p, n)
  where btrim(p) <> ''
$$;
comment on function public.job_description_html(public.jobs) is
  'The job description as HTML: the one rendering the job page, JobPosting and the feeds use.';

create or replace function public.job_requirements_html(job public.jobs) returns text
  language sql immutable set search_path = ''
as $$
  select coalesce('<ul class="job-reqs">' || string_agg('<li>' || public.html_escape(r) || '</li>', '' order by n) || '</ul>', '')
  from (select btrim(regexp_replace(line, '^\s*[-*•]\s*', '')) as r, n
        from regexp_split_to_table(coalesce(job.requirements, ''), '\r?\n') with ordinality as t(line, n)) x
  where r <> ''
$$;
comment on function public.job_requirements_html(public.jobs) is
  'The job requirements as HTML (a list), or empty: the one rendering the job page, JobPosting and the feeds use.';

-- Description and requirements together (JobPosting, feeds), never empty.
create or replace function public.job_full_html(job public.jobs) returns text
  language sql immutable set search_path = ''
as $$
  select coalesce(nullif(public.job_description_html(job)
    || case when public.job_requirements_html(job) <> '' then '<p>Requirements:</p>' || public.job_requirements_html(job) else '' end,
    ''), '<p>' || public.html_escape(job.title) || '</p>')
$$;
comment on function public.job_full_html(public.jobs) is 'Description and requirements as one HTML fragment (never empty).';

-- The columns the public page carries as data (data-ssr-job): the row without its search vector.
create or replace function public.job_public_json(job public.jobs) returns jsonb
  language sql immutable set search_path = ''
as $$
  select to_jsonb(job) - 'search_vector'
$$;
comment on function public.job_public_json(public.jobs) is 'A job row as JSON for the page, without search_vector.';

/* ---------------------------------------------------------------------------------------------------------------
 * JobPosting (Google for Jobs).
 * --------------------------------------------------------------------------------------------------------------- */
create or replace function public.job_posting_json(job public.jobs) returns jsonb
  language plpgsql stable set search_path = ''
as $$
declare
  site record := public.site_identity();
  canonical text := site.site_url || '/jobs/' || job.id::text;
  -- the client is named unless the role is confidential or the company is a placeholder
  named_client boolean := lower(coalesce(job.client_type, '')) <> 'confidential'
    and job.company is not null and job.company not in ('Unknown Company', 'Confidential');
  posting jsonb;
begin
  posting := jsonb_build_object(
    '@context', 'https://schema.org',
    '@type', 'JobPosting',
    'title', job.title,
    'description', public.job_full_html(job)
      || '<p>' || public.html_escape(public.job_advertiser_text(job.employment_type, site.site_name)) || '</p>',
    'datePosted', job.posted_date,
    'hiringOrganization', case when named_client
      then jsonb_build_object('@type', 'Organization', 'name', job.company)
      else jsonb_build_object('@type', 'Organization', 'name', site.site_name, 'sameAs', site.site_url,
                              'logo', site.site_url || site.logo_path) end,
    'jobLocation', jsonb_build_object('@type', 'Place', 'address',
      jsonb_strip_nulls(jsonb_build_object('@type', 'PostalAddress', 'addressLocality', job.location,
        'addressRegion', job.region, 'addressCountry', 'GB'))),
    'employmentType', case job.employment_type
      when 'permanent' then 'FULL_TIME'
      when 'fixed-term' then 'TEMPORARY'
      when 'contract' then 'CONTRACTOR'
      when 'interim' then 'CONTRACTOR'
      when 'temporary' then 'TEMPORARY'
      else case
        when lower(coalesce(job.type, '')) like '%contract%' then 'CONTRACTOR'
        when lower(coalesce(job.type, '')) like '%temp%' then 'TEMPORARY'
        when lower(coalesce(job.type, '')) like '%part%' then 'PART_TIME'
        else 'FULL_TIME' end end,
    'directApply', true,
    'url', canonical);
  if job.work_arrangement = 'remote' then
    posting := posting || jsonb_build_object('jobLocationType', 'TELECOMMUTE',
      'applicantLocationRequirements', jsonb_build_object('@type', 'Country', 'name', 'United Kingdom'));
  end if;
  if job.job_id is not null then
    posting := posting || jsonb_build_object('identifier',
      jsonb_build_object('@type', 'PropertyValue', 'name', site.site_name, 'value', job.job_id));
  end if;
  if job.closing_date is not null then
    posting := posting || jsonb_build_object('validThrough', to_char(job.closing_date, 'YYYY-MM-DD') || 'T23:59:59Z');
  end if;
  if job.salary_min is not null or job.salary_max is not null then
    posting := posting || jsonb_build_object('baseSalary', jsonb_build_object('@type', 'MonetaryAmount', 'currency', 'GBP',
      'value', jsonb_strip_nulls(jsonb_build_object('@type', 'QuantitativeValue', 'unitText', upper(job.salary_period::text),
        'minValue', job.salary_min, 'maxValue', job.salary_max,
        'value', case when job.salary_max is null then job.salary_min end))));
  end if;
  return posting;
end;
$$;
comment on function public.job_posting_json(public.jobs) is
  'schema.org JobPosting of a live job: validThrough, employmentType, baseSalary, TELECOMMUTE for remote roles, the named client or the agency as hiring organisation, directApply.';

/* ---------------------------------------------------------------------------------------------------------------
 * The page of a live job.
 * --------------------------------------------------------------------------------------------------------------- */
create or replace function public.render_job_page_layout(path text) returns jsonb
  language plpgsql stable set search_path = ''
as $$
declare
  site record := public.site_identity();
  e_name text := public.html_escape(site.site_name);
  job public.jobs;
  canonical text;
  title text;
  description text;
  posted text;
  client_label text;
  head text;
  body text;
begin
  if path ~* '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$' then
    select * into job from public.jobs j where j.id = path::uuid and j.status = 'active';
  end if;

  if job.id is null then
    head := concat(
      '<title>Job Not Found | ', e_name, '</title>',
      '<meta data-head name="description" content="The job you&#39;re looking for doesn&#39;t exist.">',
      '<meta data-head name="robots" content="noindex">');
    body := concat(
      '<div data-ssr-job-id="', public.html_escape(path), '" data-ssr-status="404">',
      '<section class="page-hero job-hero" data-testid="job-not-found"><div class="container">',
      '<h1>Job Not Found</h1><p>The job you&#39;re looking for doesn&#39;t exist.</p>',
      '<a class="btn btn--accent" href="/jobs">Back to Vacancies</a></div></section></div>');
    return jsonb_build_object('status', 404, 'head', head, 'body', body);
  end if;

  canonical := site.site_url || '/jobs/' || job.id::text;
  title := concat_ws(' – ', job.title, nullif(job.location, '')) || ' | ' || site.site_name;
  description := job.title || coalesce(' at ' || job.company, '') || coalesce(', ' || nullif(job.location, ''), '')
    || coalesce(' (' || nullif(job.salary, '') || ')', '') || '. Apply online with your CV.';
  posted := to_char(job.posted_date at time zone 'UTC', 'FMDD FMMonth YYYY');
  client_label := case
    when job.client_type is null then 'Not specified'
    when lower(job.client_type) = 'confidential' then 'Confidential'
    when lower(job.client_type) = 'named' then 'Named client'
    else upper(left(job.client_type, 1)) || substr(job.client_type, 2)
  end;

  head := concat(
    '<title>', public.html_escape(title), '</title>',
    '<meta data-head name="description" content="', public.html_escape(description), '">',
    '<meta data-head name="robots" content="index, follow">',
    '<link data-head rel="canonical" href="', public.html_escape(canonical), '">',
    '<meta data-head property="og:type" content="website">',
    '<meta data-head property="og:site_name" content="', e_name, '">',
    '<meta data-head property="og:title" content="', public.html_escape(title), '">',
    '<meta data-head property="og:description" content="', public.html_escape(description), '">',
    '<meta data-head property="og:url" content="', public.html_escape(canonical), '">',
    '<meta data-head property="og:image" content="', public.html_escape(site.site_url || '/images/og-default.png'), '">',
    '<meta data-head property="og:locale" content="en_GB">',
    '<meta data-head name="twitter:card" content="summary_large_image">',
    '<script data-head type="application/ld+json">', public.json_for_script(public.job_posting_json(job)), '</script>');

  body := concat(
    '<div class="job-page" data-testid="job-page" data-ssr-status="200" data-ssr-job-id="', job.id::text,
    '" data-ssr-job="', public.html_escape(public.job_public_json(job)::text), '">',
    '<section class="page-hero job-hero"><div class="container"><div class="job-hero__meta">',
    case when job.type is not null then '<span class="badge badge--accent">' || public.html_escape(job.type) || '</span>' end,
    case when posted is not null then '<span class="job-hero__posted">Posted ' || posted || '</span>' end,
    '</div><h1 class="job-hero__title">', public.html_escape(job.title), '</h1>',
    case when job.company is not null then '<p class="job-hero__company">' || public.html_escape(job.company) || '</p>' end,
    '</div></section>',
    '<div class="container section job-layout">',
    '<aside class="job-sidebar card" aria-labelledby="job-details-title">',
    '<h2 id="job-details-title" class="job-sidebar__title">Role Details</h2><dl class="job-facts">',
    '<div><dt>Location</dt><dd>', public.html_escape(coalesce(job.location, 'Not specified')), '</dd></div>',
    case when job.work_arrangement is not null then
      '<div><dt>Work arrangement</dt><dd>' || public.work_arrangement_label(job.work_arrangement) || '</dd></div>' end,
    case when job.employment_type is not null then
      '<div><dt>Job type</dt><dd>' || public.employment_type_label(job.employment_type) || '</dd></div>' end,
    '<div><dt>Salary</dt><dd>', public.html_escape(coalesce(job.salary, 'Competitive')), '</dd></div>',
    '<div><dt>Benefits</dt><dd>',
    case when cardinality(job.benefits) > 0
      then '<ul class="job-benefits">'
        || (select string_agg('<li>' || public.html_escape(b) || '</li>', '' order by n) from unnest(job.benefits) with ordinality as t(b, n))
        || '</ul>'
      else 'Discussed at interview' end,
    '</dd></div>',
    '<div><dt>Type of Client</dt><dd>', public.html_escape(client_label), '</dd></div>',
    '<div><dt>Job ID</dt><dd>', public.html_escape(coalesce(job.job_id, job.id::text)), '</dd></div>',
    '</dl><div class="job-actions">',
    '<button type="button" class="btn btn--accent btn--block btn--lg">Apply Now</button>',
    '<button type="button" class="btn btn--outline btn--block">Save Job</button>',
    '<a class="btn btn--ghost btn--block" href="mailto:', public.html_escape(coalesce(job.consultant_email, '')),
    '">Reach out to ', public.html_escape(coalesce(job.consultant_name, 'our team')), '</a>',
    '</div>',
    '<p class="job-advertiser" data-testid="job-advertiser">',
    public.html_escape(public.job_advertiser_text(job.employment_type, site.site_name)), '</p>',
    '</aside>',
    '<div class="job-main"><section class="job-block" aria-labelledby="job-about-title">',
    '<h2 id="job-about-title">About the Role</h2>',
    public.job_description_html(job),
    '</section>',
    case when public.job_requirements_html(job) <> '' then
      '<section class="job-block" aria-labelledby="job-req-title"><h2 id="job-req-title">Requirements</h2>'
      || public.job_requirements_html(job) || '</section>' end,
    '</div></div></div>');

  return jsonb_build_object('status', 200, 'head', head, 'body', body);
end;
$$;
comment on function public.render_job_page_layout(text) is
  'The page of a live job without other roles: {status 200|404, head, body}; render_job_page wraps it.';

/* ---------------------------------------------------------------------------------------------------------------
 * Closed jobs: 410 with similar live roles.
 * --------------------------------------------------------------------------------------------------------------- */
-- What the page of a closed job may say about it (its title and where it was), read past RLS: anon sees active jobs
-- only. Drafts were never public and stay unknown (404).
create or replace function app_private.closed_job(closed_id uuid)
returns table (title text, sector text, region public.uk_region, location text)
  language sql stable security definer set search_path = ''
as $$
  select j.title, j.sector, j.region, j.location from public.jobs j where j.id = closed_id and j.status = 'closed'
$$;
revoke all on function app_private.closed_job(uuid) from public;
grant execute on function app_private.closed_job(uuid) to anon, authenticated, service_role;

create or replace function public.render_closed_job_page(closed_id uuid) returns jsonb
  language plpgsql stable set search_path = ''
as $$
declare
  site record := public.site_identity();
  closed record;
  similar_roles jsonb;
  head text;
  body text;
begin
  select * into closed from app_private.closed_job(closed_id);
  if closed.title is null then
    return null;
  end if;
  -- Up to three live roles in the same sector or region, newest first (any live roles when none match).
  select coalesce(jsonb_agg(jsonb_build_object('id', j.id, 'title', j.title, 'company', j.company,
      'location', j.location, 'salary', j.salary, 'type', j.type) order by j.closeness desc, j.posted_date desc, j.id), '[]'::jsonb)
    into similar_roles
  from (select o.id, o.title, o.company, o.location, o.salary, o.type, o.posted_date,
               (o.sector is not distinct from closed.sector)::int + (o.region is not distinct from closed.region)::int as closeness
        from public.jobs o where o.status = 'active'
        order by closeness desc, o.posted_date desc, o.id limit 3) j;
  head := concat(
    '<title>This role is no longer open | ', public.html_escape(site.site_name), '</title>',
    '<meta data-head name="description" content="', public.html_escape(closed.title), ' is no longer open for applications.">',
    '<meta data-head name="robots" content="noindex">');
  body := concat(
    '<div data-ssr-job-id="', closed_id::text, '" data-ssr-status="410" data-ssr-closed="',
    public.html_escape(jsonb_build_object('title', closed.title, 'similar', similar_roles)::text), '">',
    '<section class="page-hero job-hero" data-testid="job-closed"><div class="container">',
    '<h1>This role is no longer open</h1>',
    '<p>', public.html_escape(closed.title), ' has closed and is no longer taking applications.</p>',
    '<a class="btn btn--accent" href="/jobs">Search live roles</a></div></section>',
    case when jsonb_array_length(similar_roles) > 0 then concat(
      '<section class="container section" aria-labelledby="similar-roles-title">',
      '<h2 id="similar-roles-title">Similar live roles</h2><ul class="similar-roles">',
      (select string_agg(concat('<li><a href="/jobs/', s ->> 'id', '">', public.html_escape(s ->> 'title'), '</a>',
          '<span class="similar-roles__meta">', public.html_escape(concat_ws(' · ', s ->> 'company', s ->> 'location', s ->> 'salary')),
          '</span></li>'), '' order by n)
       from jsonb_array_elements(similar_roles) with ordinality as t(s, n)),
      '</ul></section>') end,
    '</div>');
  return jsonb_build_object('status', 410, 'head', head, 'body', body);
end;
$$;
comment on function public.render_closed_job_page(uuid) is
  'The page of a closed job: 410 "This role is no longer open" with up to three similar live roles, no JobPosting, noindex; null when the job is not closed.';
revoke all on function public.render_closed_job_page(uuid) from public;
grant execute on function public.render_closed_job_page(uuid) to anon, authenticated, service_role;

-- 0301's wrapper, with closed jobs answered 410.
create or replace function public.render_job_page(path text) returns jsonb
  language plpgsql stable set search_path = ''
as $$
declare
  page jsonb := public.render_job_page_layout(path);
  current_id uuid;
  others jsonb;
begin
  if (page ->> 'status')::int <> 200 then
    if path ~* '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$' then
      return coalesce(public.render_closed_job_page(path::uuid), page);
    end if;
    return page;
  end if;
  current_id := path::uuid;
  select coalesce(jsonb_agg(jsonb_build_object('id', j.id, 'title', j.title, 'company', j.company, 'location', j.location,
      'salary', j.salary, 'type', j.type) order by j.posted_date desc nulls last, j.id), '[]'::jsonb)
    into others
  from (
    select * from public.jobs o
    where o.status = 'active' and o.id <> current_id
    order by o.posted_date desc nulls last, o.id
    limit 3
  ) j;
  return jsonb_set(page, '{body}', to_jsonb(concat(page ->> 'body',
    '<div hidden data-ssr-other-jobs-for="', current_id::text, '" data-ssr-other-jobs="', public.html_escape(others::text), '"></div>')));
end;
$$;
comment on function public.render_job_page(text) is
  'Server-rendered job page for the gateway: {status 200|404|410, head, body}; live jobs with up to three other live roles as data, closed ones 410.';

do $$
declare
  f text;
begin
  foreach f in array array['public.employment_type_label(public.employment_type)', 'public.work_arrangement_label(public.work_arrangement)',
    'public.job_advertiser_text(public.employment_type, text)', 'public.site_identity()', 'public.job_description_html(public.jobs)',
    'public.job_requirements_html(public.jobs)', 'public.job_full_html(public.jobs)', 'public.job_public_json(public.jobs)',
    'public.job_posting_json(public.jobs)', 'public.render_job_page_layout(text)', 'public.render_job_page(text)'] loop
    execute format('revoke all on function %s from public', f);
    execute format('grant execute on function %s to anon, authenticated, service_role', f);
  end loop;
end
$$;
