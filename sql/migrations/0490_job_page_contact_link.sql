-- The job page (issue 27 §4): what public.render_job_page serves made the same as what React renders after hydration,
-- found by web/e2e/job-page-twin.test.mjs, which compares the two for the same jobs (change either side: run it).
--   * "Reach out to": the consultant's address, else the firm's, with the subject "<title> (<job reference>)", as
--     job-actions.tsx writes it; it was a bare "mailto:" when a job named no consultant, and had no subject. The
--     firm's address joins public.site_settings (it mirrors web/src/content/site.ts `email`).
--   * The closed (410) and unknown (404) job pages' head: canonical, Open Graph and Twitter card as <Seo> writes them;
--     they had only title, description and robots. One helper, public.page_head_html, writes every job page's head.
--   * 'Other Opportunities in Property': the server sent the other roles as data only, so a reader without scripts
--     and a crawler never saw them; public.other_opportunities_html renders the section the browser renders.
set local client_min_messages = warning;

alter table public.site_settings add column firm_email text check (firm_email ~ '^[^@\s]+@[^@\s]+$');
comment on column public.site_settings.firm_email is 'The firm''s contact address (web/src/content/site.ts email): job pages with no consultant link to it.';
update public.site_settings set firm_email = 'talent@cornerstone-search.example';

-- Percent-encodes text as JavaScript's encodeURIComponent does: letters, digits and - _ . ! ~ * ' ( ) as they are,
-- every other character as its UTF-8 bytes in %XX.
create or replace function app_private.uri_component(value text) returns text
  language sql immutable strict set search_path = ''
as $$
  select coalesce(string_agg(case
      when c ~ '^[A-Za-z0-9_.!~*''()-]$' then c
      else upper(regexp_replace(encode(convert_to(c, 'UTF8'), 'hex'), '(..)', '%\1', 'g')) end, '' order by n), '')
  from regexp_split_to_table(value, '') with ordinality as t(c, n)
$$;
comment on function app_private.uri_component(text) is 'Percent-encodes text as encodeURIComponent does (%XX for UTF-8 bytes).';
revoke all on function app_private.uri_component(text) from public;
grant execute on function app_private.uri_component(text) to anon, authenticated, service_role;

-- mailto: the consultant (else the firm) about this job, as the browser's JobActions writes it.
create or replace function public.job_contact_href(job public.jobs) returns text
  language sql stable set search_path = ''
as $$
  select 'mailto:' || coalesce(job.consultant_email, (select s.firm_email from public.site_settings s limit 1), '')
    || '?subject=' || app_private.uri_component(job.title || ' (' || coalesce(job.job_id, job.id::text) || ')')
$$;
comment on function public.job_contact_href(public.jobs) is
  'The job page''s "Reach out to" link: mailto the consultant, else the firm (site_settings.firm_email), with the job as subject.';
revoke all on function public.job_contact_href(public.jobs) from public;
grant execute on function public.job_contact_href(public.jobs) to anon, authenticated, service_role;

-- The head every page's <Seo> writes (web/src/lib/seo.tsx headTags), for the pages the database renders: title with
-- the firm's name, description, robots, canonical, Open Graph and the Twitter card, each marked data-head.
create or replace function public.page_head_html(page_title text, description text, path text, robots text) returns text
  language sql stable set search_path = ''
as $$
  select concat(
    '<title>', public.html_escape(page_title || ' | ' || site.site_name), '</title>',
    '<meta data-head name="description" content="', public.html_escape(description), '">',
    '<meta data-head name="robots" content="', public.html_escape(robots), '">',
    '<link data-head rel="canonical" href="', public.html_escape(site.site_url || path), '">',
    '<meta data-head property="og:type" content="website">',
    '<meta data-head property="og:site_name" content="', public.html_escape(site.site_name), '">',
    '<meta data-head property="og:title" content="', public.html_escape(page_title || ' | ' || site.site_name), '">',
    '<meta data-head property="og:description" content="', public.html_escape(description), '">',
    '<meta data-head property="og:url" content="', public.html_escape(site.site_url || path), '">',
    '<meta data-head property="og:image" content="', public.html_escape(site.site_url || '/images/og-default.png'), '">',
    '<meta data-head property="og:locale" content="en_GB">',
    '<meta data-head name="twitter:card" content="summary_large_image">')
  from public.site_identity() site
$$;
comment on function public.page_head_html(text, text, text, text) is
  'A database-rendered page''s head as <Seo> writes it: title (+ " | firm"), description, robots, canonical, Open Graph.';
revoke all on function public.page_head_html(text, text, text, text) from public;
grant execute on function public.page_head_html(text, text, text, text) to anon, authenticated, service_role;

-- 0402's page of a live job, with that link and the whole head on its 404.
create or replace function public.render_job_page_layout(path text) returns jsonb
  language plpgsql stable set search_path = ''
as $$
declare
  site record := public.site_identity();
  job public.jobs;
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
    head := public.page_head_html('Job Not Found', 'The job you''re looking for doesn''t exist.', '/jobs/' || path, 'noindex');
    body := concat(
      '<div data-ssr-job-id="', public.html_escape(path), '" data-ssr-status="404">',
      '<section class="page-hero job-hero" data-testid="job-not-found"><div class="container">',
      '<h1>Job Not Found</h1><p>The job you&#39;re looking for doesn&#39;t exist.</p>',
      '<a class="btn btn--accent" href="/jobs">Back to Vacancies</a></div></section></div>');
    return jsonb_build_object('status', 404, 'head', head, 'body', body);
  end if;

  title := concat_ws(' – ', job.title, nullif(job.location, ''));
  description := job.title || coalesce(' at ' || job.company, '') || coalesce(', ' || nullif(job.location, ''), '')
    || coalesce(' (' || nullif(job.salary, '') || ')', '') || '. Apply online with your CV.';
  posted := to_char(job.posted_date at time zone 'UTC', 'FMDD FMMonth YYYY');
  client_label := case
    when job.client_type is null then 'Not specified'
    when lower(job.client_type) = 'confidential' then 'Confidential'
    when lower(job.client_type) = 'named' then 'Named client'
    else upper(left(job.client_type, 1)) || substr(job.client_type, 2)
  end;

  head := concat(public.page_head_html(title, description, '/jobs/' || job.id::text, 'index, follow'),
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
    '<a class="btn btn--ghost btn--block" href="', public.html_escape(public.job_contact_href(job)),
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

-- 0402's page of a closed job, with the whole head.
create or replace function public.render_closed_job_page(closed_id uuid) returns jsonb
  language plpgsql stable set search_path = ''
as $$
declare
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
  head := public.page_head_html('This role is no longer open', closed.title || ' is no longer open for applications.',
    '/jobs/' || closed_id::text, 'noindex');
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

-- 'Other Opportunities in Property' as web/src/features/jobs/components/other-opportunities.tsx renders it (cards with
-- the type, title, company, location and salary, and a View Details link), so a reader without scripts and a crawler
-- see the other live roles too; the browser renders the same section from the data beside it. Empty with no roles.
create or replace function public.other_opportunities_html(roles jsonb) returns text
  language sql immutable set search_path = ''
as $$
  select '<section class="section section--white" aria-labelledby="other-opps-title" aria-busy="false" data-testid="other-opportunities">'
    || '<div class="container"><h2 id="other-opps-title">Other Opportunities in Property</h2><div class="grid grid--3">'
    || string_agg(concat(
         '<article class="card card--interactive">',
         '<span class="badge">' || public.html_escape(r ->> 'type') || '</span>',
         '<h3 class="card__title" style="margin-top:var(--sp-3)">', public.html_escape(r ->> 'title'), '</h3>',
         '<p class="card__meta">',
         '<span>' || public.html_escape(r ->> 'company') || '</span>',
         '<span><svg width="14" height="14" viewBox="0 0 24 24" fill="none" stroke="currentColor" stroke-width="2"'
           || ' stroke-linecap="round" stroke-linejoin="round" aria-hidden="true" focusable="false"'
           || ' style="display:inline;vertical-align:-2px"><path d="M20 10c0 6-8 12-8 12s-8-6-8-12a8 8 0 0 1 16 0Z"></path>'
           || '<circle cx="12" cy="10" r="3"></circle></svg> ' || public.html_escape(r ->> 'location') || '</span>',
         '<span>' || public.html_escape(r ->> 'salary') || '</span>',
         '</p><div class="card__footer"><a class="btn btn--outline btn--sm card__stretched" href="/jobs/', public.html_escape(r ->> 'id'),
         '">View Details<span class="visually-hidden">: ', public.html_escape(r ->> 'title'), '</span></a></div></article>'), '' order by n)
    || '</div></div></section>'
  from jsonb_array_elements(roles) with ordinality as t(r, n)
$$;
comment on function public.other_opportunities_html(jsonb) is
  'The job page''s Other Opportunities section (other-opportunities.tsx) for up to three live roles; null when there are none.';
revoke all on function public.other_opportunities_html(jsonb) from public;
grant execute on function public.other_opportunities_html(jsonb) to anon, authenticated, service_role;

-- 0402's wrapper, with the other roles shown as well as sent as data.
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
  -- The section goes inside the page's .job-page element (before its closing tag), where the browser renders it.
  return jsonb_set(page, '{body}', to_jsonb(concat(left(page ->> 'body', -length('</div>')), public.other_opportunities_html(others), '</div>',
    '<div hidden data-ssr-other-jobs-for="', current_id::text, '" data-ssr-other-jobs="', public.html_escape(others::text), '"></div>')));
end;
$$;
comment on function public.render_job_page(text) is
  'Server-rendered job page for the gateway: {status 200|404|410, head, body}; live jobs with up to three other live roles shown and as data, closed ones 410.';
