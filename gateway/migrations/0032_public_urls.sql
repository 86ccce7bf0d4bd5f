-- Platform: the URLs this deployment is configured with (API_EXTERNAL_URL, GOTRUE_SITE_URL), recorded by the gateway
-- when it starts, so SQL that writes links (notification mail) uses the configured site instead of a hard-coded one.
-- Read with gateway.public_url('site') / gateway.public_url('api'). Idempotent: re-run on every migrate.
create table if not exists gateway.public_urls (
  name text primary key check (name in ('api', 'site')),
  url text not null check (url ~ '^https?://[^/\s]+$'),
  updated_at timestamptz not null default now()
);
comment on table gateway.public_urls is 'The configured public URLs (api, site), written by the gateway at start (gateway.record_public_urls).';

create or replace function gateway.record_public_urls(api text, site text) returns void
language sql security definer set search_path = '' as $$
  insert into gateway.public_urls (name, url)
  select n, rtrim(u, '/') from (values ('api', api), ('site', site)) v (n, u) where rtrim(u, '/') ~ '^https?://[^/\s]+$'
  on conflict (name) do update set url = excluded.url, updated_at = now() where gateway.public_urls.url <> excluded.url
$$;
revoke all on function gateway.record_public_urls(text, text) from public;
grant execute on function gateway.record_public_urls(text, text) to authenticator;

create or replace function gateway.public_url(name text) returns text
language sql stable security definer set search_path = '' as $$
  select url from gateway.public_urls where public_urls.name = public_url.name
$$;
revoke all on function gateway.public_url(text) from public;
comment on function gateway.public_url(text) is 'The configured public URL: api (API_EXTERNAL_URL) or site (GOTRUE_SITE_URL), without a trailing slash.';
