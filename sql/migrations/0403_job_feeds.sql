-- Vacancies 4/n (issue 24 §5): jobs out to job boards and search engines, as documents the site serves (`generated`
-- routes of _site.json, read as anon, so RLS keeps them to live jobs):
--   /feeds/indeed.xml  public.indeed_xml(): every live job in Indeed's XML job feed format (source/publisher and per
--                      job title, date, referencenumber, url, company, city, state, country, description, salary,
--                      jobtype, category, expirationdate, remotetype), values in CDATA and no HTML entities in text.
--   /feeds/jobs.rss    public.jobs_rss(): RSS 2.0 of the 50 newest live jobs (by when they went live).
--   /sitemap.xml       public.sitemap_xml(): 0300's list plus /jobs.
-- Every entry carries the agency's name (reg. 27): Indeed's <sourcename> and a line in each description.
-- A job that closes leaves all three at once: they are computed on each request.

-- Text as one CDATA section ("]]>" inside split across two sections).
create or replace function public.xml_cdata(value text) returns text
  language sql immutable set search_path = ''
as $$
  select '<![CDATA[' || replace(coalesce(value, ''), ']]>', ']]]]><![CDATA[>') || ']]>'
$$;
comment on function public.xml_cdata(text) is 'Text wrapped as an XML CDATA section (safe for any text).';

-- A timestamp as RFC 822 / RFC 2822 (RSS pubDate, Indeed date): "Tue, 03 Dec 2026 09:15:00 GMT".
create or replace function public.rfc822(at timestamptz) returns text
  language sql immutable set search_path = ''
as $$
  select to_char(at at time zone 'UTC', 'Dy, DD Mon YYYY HH24:MI:SS "GMT"')
$$;
comment on function public.rfc822(timestamptz) is 'RFC 822 date in GMT, for RSS and Indeed feeds.';

-- Indeed's <jobtype>: fulltime, parttime, contract, internship, temporary.
create or replace function public.indeed_job_type(t public.employment_type) returns text
  language sql immutable set search_path = ''
as $$
  select case t when 'permanent' then 'fulltime' when 'fixed-term' then 'temporary' when 'contract' then 'contract'
    when 'interim' then 'contract' when 'temporary' then 'temporary' end
$$;
comment on function public.indeed_job_type(public.employment_type) is 'Indeed jobtype for an employment type.';

-- HTML for a feed whose text must carry no entities (Indeed): the job's HTML with its entities turned back into
-- characters, except < and > in text, which would otherwise read as tags.
create or replace function public.html_without_entities(html text) returns text
  language sql immutable set search_path = ''
as $$
  select replace(replace(replace(replace(coalesce(html, ''), '&quot;', '"'), '&#39;', ''''), '&amp;', '&'), '&nbsp;', ' ')
$$;
comment on function public.html_without_entities(text) is 'HTML with &quot; &#39; &amp; &nbsp; written as characters (&lt; &gt; kept).';

create or replace function public.indeed_xml() returns text
  language sql stable set search_path = ''
as $$
  with site as (select * from public.site_identity())
  select concat(
    '<?xml version="1.0" encoding="utf-8"?>', chr(10),
    '<source>', chr(10),
    '<publisher>', public.xml_cdata(site.site_name), '</publisher>', chr(10),
    '<publisherurl>', public.xml_cdata(site.site_url), '</publisherurl>', chr(10),
    '<lastBuildDate>', public.rfc822(now()), '</lastBuildDate>', chr(10),
    (select string_agg(concat(
        '<job>',
        '<title>', public.xml_cdata(j.title), '</title>',
        '<date>', public.xml_cdata(public.rfc822(j.posted_date)), '</date>',
        '<referencenumber>', public.xml_cdata(coalesce(j.job_id, j.id::text)), '</referencenumber>',
        '<requisitionid>', public.xml_cdata(j.id::text), '</requisitionid>',
        '<url>', public.xml_cdata(site.site_url || '/jobs/' || j.id::text), '</url>',
        '<company>', public.xml_cdata(case when lower(coalesce(j.client_type, '')) = 'confidential'
            or j.company in ('Unknown Company', 'Confidential') then site.site_name else j.company end), '</company>',
        '<sourcename>', public.xml_cdata(site.site_name), '</sourcename>',
        '<city>', public.xml_cdata(j.location), '</city>',
        '<state>', public.xml_cdata(j.region::text), '</state>',
        '<country>', public.xml_cdata('GB'), '</country>',
        '<description>', public.xml_cdata(public.html_without_entities(public.job_full_html(j)
          || '<p>' || public.html_escape(public.job_advertiser_text(j.employment_type, site.site_name)) || '</p>')), '</description>',
        case when nullif(btrim(j.salary), '') is not null then '<salary>' || public.xml_cdata(j.salary) || '</salary>' end,
        case when j.employment_type is not null then '<jobtype>' || public.xml_cdata(public.indeed_job_type(j.employment_type)) || '</jobtype>' end,
        case when j.sector is not null then '<category>' || public.xml_cdata(j.sector) || '</category>' end,
        case when j.closing_date is not null then '<expirationdate>' || public.xml_cdata(to_char(j.closing_date, 'YYYY-MM-DD')) || '</expirationdate>' end,
        case j.work_arrangement when 'remote' then '<remotetype>' || public.xml_cdata('Fully remote') || '</remotetype>'
          when 'hybrid' then '<remotetype>' || public.xml_cdata('Hybrid remote') || '</remotetype>' end,
        '</job>'), chr(10) order by j.posted_date desc, j.id)
     from public.jobs j where j.status = 'active'),
    chr(10), '</source>', chr(10))
  from site
$$;
comment on function public.indeed_xml() is 'Indeed XML job feed of every live job (/feeds/indeed.xml).';

create or replace function public.jobs_rss() returns text
  language sql stable set search_path = ''
as $$
  with site as (select * from public.site_identity()),
  newest as (
    select j.* from public.jobs j where j.status = 'active'
    order by coalesce(j.published_at, j.posted_date) desc, j.id limit 50
  )
  select concat(
    '<?xml version="1.0" encoding="utf-8"?>', chr(10),
    '<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom"><channel>', chr(10),
    '<title>', public.html_escape(site.site_name || ' – latest jobs'), '</title>',
    '<link>', public.html_escape(site.site_url || '/jobs'), '</link>',
    '<atom:link href="', public.html_escape(site.site_url || '/feeds/jobs.rss'), '" rel="self" type="application/rss+xml"/>',
    '<description>', public.html_escape('New roles in property and the built environment, advertised by ' || site.site_name || '.'), '</description>',
    '<language>en-gb</language>',
    '<lastBuildDate>', public.rfc822(now()), '</lastBuildDate>', chr(10),
    (select string_agg(concat(
        '<item>',
        '<title>', public.html_escape(concat_ws(' – ', n.title, nullif(n.location, ''))), '</title>',
        '<link>', public.html_escape(site.site_url || '/jobs/' || n.id::text), '</link>',
        '<guid isPermaLink="true">', public.html_escape(site.site_url || '/jobs/' || n.id::text), '</guid>',
        '<pubDate>', public.rfc822(coalesce(n.published_at, n.posted_date)), '</pubDate>',
        case when n.sector is not null then '<category>' || public.html_escape(n.sector) || '</category>' end,
        '<description>', public.html_escape(concat(
            '<p>', public.html_escape(concat_ws(' · ', n.company, n.location, n.salary,
              public.employment_type_label(n.employment_type), public.work_arrangement_label(n.work_arrangement))), '</p>',
            public.job_full_html(n),
            '<p>', public.html_escape(public.job_advertiser_text(n.employment_type, site.site_name)), '</p>')), '</description>',
        '</item>'), chr(10) order by coalesce(n.published_at, n.posted_date) desc, n.id)
     from newest n),
    chr(10), '</channel></rss>', chr(10))
  from site
$$;
comment on function public.jobs_rss() is 'RSS 2.0 feed of the 50 newest live jobs (/feeds/jobs.rss).';

-- 0300's sitemap with /jobs, the search page (indexable; its filtered views are noindex or listed by their jobs).
create or replace function public.sitemap_xml() returns text
  language sql stable set search_path = ''
as $$
  with settings as (
    select coalesce((select site_url from public.site_settings limit 1), 'http://localhost') as origin
  ),
  pages(path, priority, ord) as (
    select v.path, v.priority, row_number() over () as ord from (values ('/', '1.0'), ('/services', '0.9'), ('/contact', '0.8'), ('/clients/developer-investor', '0.8'),
      ('/clients/service-provider', '0.8'), ('/clients/corporate-in-house', '0.8'), ('/candidates', '0.8'),
      ('/career-support', '0.7'), ('/career-hub', '0.7'), ('/insights', '0.7'),
      ('/insights/evolving-asset-manager-2025', '0.6'), ('/insights/hybrid-working-property', '0.6'),
      ('/about', '0.6'), ('/our-work', '0.6'), ('/privacy', '0.3'), ('/terms', '0.3')
    ) as v(path, priority)
  ),
  urls as (
    select s.origin || p.path as loc, null::timestamptz as lastmod, p.priority, 0 as grp, null::text as sort_key, p.ord
    from pages p, settings s
    union all
    select s.origin || '/jobs', (select max(greatest(j.updated_at, j.posted_date)) from public.jobs j where j.status = 'active'),
      '0.9', 1, null, null
    from settings s
    union all
    select s.origin || '/jobs/' || j.id::text, greatest(j.updated_at, j.posted_date), '0.8', 2, j.posted_date::text, null::bigint
    from public.jobs j, settings s
    where j.status = 'active'
  )
  select '<?xml version="1.0" encoding="UTF-8"?>' || chr(10)
    || '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">' || chr(10)
    || coalesce(string_agg(
         '  <url><loc>' || public.html_escape(loc) || '</loc>'
         || coalesce('<lastmod>' || to_char(lastmod at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') || '</lastmod>', '')
         || '<priority>' || priority || '</priority></url>', chr(10) order by grp, case when grp = 0 then ord end, case when grp = 2 then sort_key end desc),
       '')
    || chr(10) || '</urlset>' || chr(10)
  from urls
$$;
comment on function public.sitemap_xml() is 'The sitemap: prerendered public pages, the job search (/jobs) and live jobs (lastmod = last change).';

do $$
declare
  f text;
begin
  foreach f in array array['public.xml_cdata(text)', 'public.rfc822(timestamptz)', 'public.indeed_job_type(public.employment_type)',
    'public.html_without_entities(text)', 'public.indeed_xml()', 'public.jobs_rss()', 'public.sitemap_xml()'] loop
    execute format('revoke all on function %s from public', f);
    execute format('grant execute on function %s to anon, authenticated, service_role', f);
  end loop;
end
$$;
