-- Site pages: /sitemap.xml gains /our-work and /terms (issue 20). Same function as 0152_sitemap_xml.sql with the two
-- pages added to the prerendered list, which mirrors the 'static' routes of web/src/app/route-table.ts (the web e2e
-- suite checks every prerendered page is listed).

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
    select s.origin || '/jobs/' || j.id::text, greatest(j.updated_at, j.posted_date), '0.8', 1, j.posted_date::text, null::bigint
    from public.jobs j, settings s
    where j.status = 'active'
  )
  select '<?xml version="1.0" encoding="UTF-8"?>' || chr(10)
    || '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">' || chr(10)
    || coalesce(string_agg(
         '  <url><loc>' || public.html_escape(loc) || '</loc>'
         || coalesce('<lastmod>' || to_char(lastmod at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') || '</lastmod>', '')
         || '<priority>' || priority || '</priority></url>', chr(10) order by grp, case when grp = 0 then ord end, case when grp = 1 then sort_key end desc),
       '')
    || chr(10) || '</urlset>' || chr(10)
  from urls
$$;
comment on function public.sitemap_xml() is 'The sitemap: prerendered public pages and active jobs (lastmod = last change).';
revoke all on function public.sitemap_xml() from public;
grant execute on function public.sitemap_xml() to anon, authenticated, service_role;
