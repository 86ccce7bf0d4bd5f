-- Site pages 2/3: the server-rendered job page (site serving contract, `dynamic` /jobs/ → dist/_templates/job.html).
-- The gateway calls public.render_job_page('<rest of the path>') as anon in a read-only transaction and puts "head" and
-- "body" into the template, answering with "status". RLS decides what exists: only active jobs are visible to anon,
-- so closed, draft and unknown jobs render 'Job Not Found' with 404. Every embedded value is HTML-escaped.
-- The markup mirrors web/src/features/jobs/components/job-view.tsx (the browser re-renders it from data-ssr-job) and the
-- structured data mirrors web/src/features/jobs/api/job-posting.ts: keep them in step.

create or replace function public.render_job_page(path text) returns jsonb
  language plpgsql stable set search_path = ''
as $$
declare
  settings public.site_settings;
  job public.jobs;
  canonical text;
  title text;
  description text;
  paragraphs text[];
  requirements text[];
  posted text;
  client_label text;
  confidential boolean;
  description_html text;
  posting jsonb;
  salary_value jsonb;
  head text;
  body text;
  e_name text;
begin
  select * into settings from public.site_settings limit 1;
  if settings is null then
    settings := row(true, 'http://localhost', 'Recruitment', '/images/logo.svg', now())::public.site_settings;
  end if;
  e_name := public.html_escape(settings.site_name);

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
      '<a class="btn btn--accent" href="/vacancies">Back to Vacancies</a></div></section></div>');
    return jsonb_build_object('status', 404, 'head', head, 'body', body);
  end if;

  canonical := settings.site_url || '/jobs/' || job.id::text;
  title := concat_ws(' – ', job.title, nullif(job.location, '')) || ' | ' || settings.site_name;
  description := job.title || coalesce(' at ' || job.company, '') || coalesce(', ' || nullif(job.location, ''), '')
    || coalesce(' (' || nullif(job.salary, '') || ')', '') || '. Apply online with your CV.';

  select coalesce(array_agg(btrim(p) order by n), '{}') into paragraphs
  from regexp_split_to_table(coalesce(job.description, ''), '\r?\n\s*\r?\n') with ordinality as t(p, n)
  where btrim(p) <> '';
  select coalesce(array_agg(btrim(regexp_replace(r, '^\s*[-*•]\s*', '')) order by n), '{}') into requirements
  from regexp_split_to_table(coalesce(job.requirements, ''), '\r?\n') with ordinality as t(r, n)
  where btrim(regexp_replace(r, '^\s*[-*•]\s*', '')) <> '';

  posted := to_char(job.posted_date at time zone 'UTC', 'FMDD FMMonth YYYY');
  client_label := case
    when job.client_type is null then 'Not specified'
    when lower(job.client_type) = 'confidential' then 'Confidential'
    when lower(job.client_type) = 'named' then 'Named client'
    else upper(left(job.client_type, 1)) || substr(job.client_type, 2)
  end;
  confidential := lower(coalesce(job.client_type, '')) = 'confidential' or job.company is null;

  -- JobPosting (Google for Jobs): GBP yearly salary, validThrough from closing_date, the firm as hiring organisation
  -- when the client is confidential.
  description_html := coalesce((select string_agg('<p>' || public.html_escape(p) || '</p>', '') from unnest(paragraphs) p), '');
  if cardinality(requirements) > 0 then
    description_html := description_html || '<p>Requirements:</p><ul>'
      || (select string_agg('<li>' || public.html_escape(r) || '</li>', '') from unnest(requirements) r) || '</ul>';
  end if;
  if description_html = '' then
    description_html := '<p>' || public.html_escape(job.title) || '</p>';
  end if;
  posting := jsonb_build_object(
    '@context', 'https://schema.org',
    '@type', 'JobPosting',
    'title', job.title,
    'description', description_html,
    'datePosted', job.posted_date,
    'hiringOrganization', case when confidential
      then jsonb_build_object('@type', 'Organization', 'name', settings.site_name, 'sameAs', settings.site_url,
                              'logo', settings.site_url || settings.logo_path)
      else jsonb_build_object('@type', 'Organization', 'name', job.company) end,
    'jobLocation', jsonb_build_object('@type', 'Place', 'address',
      jsonb_strip_nulls(jsonb_build_object('@type', 'PostalAddress', 'addressLocality', job.location, 'addressCountry', 'GB'))),
    'employmentType', case
      when lower(coalesce(job.type, '')) like '%contract%' then 'CONTRACTOR'
      when lower(coalesce(job.type, '')) like '%temp%' then 'TEMPORARY'
      when lower(coalesce(job.type, '')) like '%part%' then 'PART_TIME'
      else 'FULL_TIME' end,
    'directApply', true,
    'url', canonical);
  if job.job_id is not null then
    posting := posting || jsonb_build_object('identifier',
      jsonb_build_object('@type', 'PropertyValue', 'name', settings.site_name, 'value', job.job_id));
  end if;
  if job.closing_date is not null then
    posting := posting || jsonb_build_object('validThrough', to_char(job.closing_date, 'YYYY-MM-DD') || 'T23:59:59Z');
  end if;
  if job.salary_min is not null or job.salary_max is not null then
    salary_value := jsonb_strip_nulls(jsonb_build_object('@type', 'QuantitativeValue', 'unitText', 'YEAR',
      'minValue', job.salary_min, 'maxValue', job.salary_max,
      'value', case when job.salary_max is null then job.salary_min end));
    posting := posting || jsonb_build_object('baseSalary',
      jsonb_build_object('@type', 'MonetaryAmount', 'currency', 'GBP', 'value', salary_value));
  end if;

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
    '<meta data-head property="og:image" content="', public.html_escape(settings.site_url || '/images/og-default.png'), '">',
    '<meta data-head property="og:locale" content="en_GB">',
    '<meta data-head name="twitter:card" content="summary_large_image">',
    '<script data-head type="application/ld+json">', public.json_for_script(posting), '</script>');

  body := concat(
    '<div class="job-page" data-testid="job-page" data-ssr-status="200" data-ssr-job-id="', job.id::text,
    '" data-ssr-job="', public.html_escape(to_jsonb(job)::text), '">',
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
    '</div></aside>',
    '<div class="job-main"><section class="job-block" aria-labelledby="job-about-title">',
    '<h2 id="job-about-title">About the Role</h2>',
    (select string_agg('<p>' || public.html_escape(p) || '</p>', '' order by n) from unnest(paragraphs) with ordinality as t(p, n)),
    '</section>',
    case when cardinality(requirements) > 0 then
      '<section class="job-block" aria-labelledby="job-req-title"><h2 id="job-req-title">Requirements</h2><ul class="job-reqs">'
      || (select string_agg('<li>' || public.html_escape(r) || '</li>', '' order by n) from unnest(requirements) with ordinality as t(r, n))
      || '</ul></section>' end,
    '</div></div></div>');

  return jsonb_build_object('status', 200, 'head', head, 'body', body);
end;
$$;
comment on function public.render_job_page(text) is
  'Server-rendered job page for the gateway: {status 200|404, head, body}; only active jobs exist (RLS as the caller).';
revoke all on function public.render_job_page(text) from public;
grant execute on function public.render_job_page(text) to anon, authenticated, service_role;
