-- One percent-encoder for the two forms the site's addresses use: encodeURIComponent's (a mailto subject, 0490) and
-- URLSearchParams' (a /jobs query string, 0404). private.uri_component and private.url_encode keep their names and
-- their exact outputs; both are now private.percent_encode with the form as a parameter.

/* ---------------------------------------------------------------------------------------------------------------
 * The encoder
 * --------------------------------------------------------------------------------------------------------------- */
-- form = true: URLSearchParams (application/x-www-form-urlencoded): A-Z a-z 0-9 * - . _ as they are, a space as '+'.
-- form = false: encodeURIComponent: A-Z a-z 0-9 - _ . ! ~ * ' ( ) as they are, a space as %20.
-- Every other character is its UTF-8 bytes as %XX (upper-case hex).
create or replace function private.percent_encode(value text, form boolean) returns text
  language sql immutable strict set search_path = ''
as $$
  select coalesce(string_agg(case
      when c ~ case when form then '^[A-Za-z0-9*._-]$' else '^[A-Za-z0-9_.!~*''()-]$' end then c
      when form and c = ' ' then '+'
      else upper(regexp_replace(encode(convert_to(c, 'UTF8'), 'hex'), '(..)', '%\1', 'g')) end, '' order by n), '')
  from regexp_split_to_table(value, '') with ordinality as t(c, n)
$$;
comment on function private.percent_encode(text, boolean) is
  'Percent-encodes text as URLSearchParams does (form: space as +, safe A-Za-z0-9*._-) or as encodeURIComponent does (safe A-Za-z0-9-_.!~*''()); %XX for UTF-8 bytes.';

create or replace function private.url_encode(value text) returns text
  language sql immutable strict set search_path = ''
as $$
  select private.percent_encode(value, true)
$$;

create or replace function private.uri_component(value text) returns text
  language sql immutable strict set search_path = ''
as $$
  select private.percent_encode(value, false)
$$;

revoke all on function private.percent_encode(text, boolean) from public;
grant execute on function private.percent_encode(text, boolean) to anon, authenticated, service_role;

/* ---------------------------------------------------------------------------------------------------------------
 * The decoder, in one pass
 * --------------------------------------------------------------------------------------------------------------- */
-- Form-decodes a query-string component ('+' is a space, %XX a byte, a '%' without two hex digits stays); invalid
-- UTF-8 raises 22021. As 0404's, but the bytes are gathered once instead of appended one by one (which took seconds
-- of CPU for a 16 kB posted form).
create or replace function private.url_decode(value text) returns text
  language sql immutable strict set search_path = ''
as $$
  select convert_from(coalesce(string_agg(case
      when t.m[1] ~ '^%[0-9A-Fa-f]{2}$' then decode(substr(t.m[1], 2), 'hex')
      else convert_to(replace(t.m[1], '+', ' '), 'UTF8') end, '' order by t.n), ''), 'UTF8')
  from regexp_matches(value, '%[0-9A-Fa-f]{2}|%|[^%]+', 'g') with ordinality as t(m, n)
$$;
comment on function private.url_decode(text) is 'Form-decodes a query-string component (+ and %XX); invalid UTF-8 raises 22021.';
