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
