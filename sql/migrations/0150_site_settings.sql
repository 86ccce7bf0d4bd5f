-- Site pages 1/3: the few facts about the firm that database-rendered pages need (job pages, sitemap). They mirror
-- web/src/content/site.ts; a firm adopting the site edits both (web/README.md "Adopting the site").

create table public.site_settings (
  id boolean primary key default true check (id),
  site_url text not null check (site_url ~ '^https?://[^/]+$'),
  site_name text not null check (btrim(site_name) <> ''),
  logo_path text not null default '/images/logo.svg',
  updated_at timestamptz not null default now()
);
comment on table public.site_settings is
  'One row: the published site origin (no trailing slash) and firm name used by render_job_page and sitemap_xml.';

insert into public.site_settings (site_url, site_name)
values ('https://www.cornerstone-search.example', 'Cornerstone Property Search');

alter table public.site_settings enable row level security;
grant select on public.site_settings to anon, authenticated;
grant select, update on public.site_settings to service_role;
create policy "Anyone can read the site settings" on public.site_settings for select to anon, authenticated using (true);

-- HTML-escapes text for element content and double-quoted attribute values.
create or replace function public.html_escape(value text) returns text
  language sql immutable parallel safe set search_path = ''
as $$
  select replace(replace(replace(replace(replace(coalesce(value, ''), '&', '&amp;'), '<', '&lt;'), '>', '&gt;'),
    '"', '&quot;'), '''', '&#39;')
$$;
comment on function public.html_escape(text) is 'Escapes & < > " '' for HTML text and attribute values.';
revoke all on function public.html_escape(text) from public;
grant execute on function public.html_escape(text) to anon, authenticated, service_role;

-- JSON text safe inside a <script type="application/ld+json"> element (cannot close it or open a comment).
create or replace function public.json_for_script(value jsonb) returns text
  language sql immutable parallel safe set search_path = ''
as $$
  select replace(replace(replace(value::text, '<', '\u003c'), '>', '\u003e'), '&', '\u0026')
$$;
comment on function public.json_for_script(jsonb) is 'jsonb as text with < > & escaped, for inline ld+json blocks.';
revoke all on function public.json_for_script(jsonb) from public;
grant execute on function public.json_for_script(jsonb) to anon, authenticated, service_role;
