-- What the site holds about a person, as parts a feature registers (U6, U8). "Download my data" (export_my_data),
-- "Delete my account" (delete_my_account) and the retention erasure (app_private.erase_person) each knew their own
-- list of tables, and the lists had drifted apart: the export left out profile views, sessions, files, mail and
-- forms sent while signed out; deleting an account left unattached CV uploads, queued mail and the user agents of
-- profile views. Now all three walk one registry, app_private.personal_data_parts: each row names a part of the
-- document (its key), a function exporting it and a function erasing it. A feature that stores personal data adds
-- its row in its own migration (sql/README.md, "Personal data: export and erasure"); nothing else changes.
--
-- The person is an app_private.data_subject: their account (user_id, or null) and the e-mail address whose
-- records are theirs (lower-cased, or null). For an account holder that address counts only once they have proven
-- they receive mail there (app_private.proven_email): otherwise anyone could sign up with someone else's address
-- (where accounts are confirmed automatically) and download, or delete, that person's applications.
set local client_min_messages = warning;

create type app_private.data_subject as (user_id uuid, email text);
comment on type app_private.data_subject is
  'A person whose data is exported or erased: their account (or null) and the lower-cased e-mail address whose records are theirs (or null).';

/** The registry **************************************************************************************************/
-- Export functions: (subject app_private.data_subject, max_items integer, skip integer) returns jsonb: a JSON array
-- of at most max_items items after the first `skip` (in a stable order), or a JSON object for a single record.
-- Erase functions: (subject app_private.data_subject) returns bigint, the number of records erased.
create or replace function app_private.is_part_function(fn regprocedure, kind text) returns boolean
language sql stable set search_path = '' as $$
  select exists (
    select 1 from pg_catalog.pg_proc p
     where p.oid = fn and p.prorettype = case kind when 'export' then 'jsonb'::regtype else 'bigint'::regtype end
       and p.proargtypes[0] = 'app_private.data_subject'::regtype
       and case kind when 'export' then p.pronargs = 3 and p.proargtypes[1] = 'integer'::regtype
                                        and p.proargtypes[2] = 'integer'::regtype
                     else p.pronargs = 1 end)
$$;
revoke all on function app_private.is_part_function(regprocedure, text) from public;

create table app_private.personal_data_parts (
  name text primary key check (name ~ '^[a-z][a-z0-9_]{0,62}$' and name not in ('exported_at', 'page_size', 'more')),
  description text not null check (btrim(description) <> ''),
  export_function regprocedure check (export_function is null or app_private.is_part_function(export_function, 'export')),
  erase_function regprocedure check (erase_function is null or app_private.is_part_function(erase_function, 'erase')),
  covers text[] not null default '{}',
  export_position integer not null,
  erase_order integer not null
);
comment on table app_private.personal_data_parts is
  'Every part of what the site holds about a person: the key in export_my_data(), the function exporting it, the function erasing it (in erase_order; the account last) and the tables it covers. A feature registers its part with app_private.register_personal_data_part().';
comment on column app_private.personal_data_parts.covers is
  'The tables (schema.table) whose rows about a person this part exports and erases; sql/tests/75-personal-data.sql checks that every public table with a user_id or email column is covered.';

-- Adds or replaces a part.
create or replace function app_private.register_personal_data_part(
  name text, description text, export_function regprocedure, erase_function regprocedure, covers text[],
  export_position integer, erase_order integer)
returns void
language sql set search_path = '' as $$
  insert into app_private.personal_data_parts as p
    (name, description, export_function, erase_function, covers, export_position, erase_order)
  values (name, description, export_function, erase_function, coalesce(covers, '{}'), export_position, erase_order)
  on conflict on constraint personal_data_parts_pkey do update
    set description = excluded.description, export_function = excluded.export_function,
        erase_function = excluded.erase_function, covers = excluded.covers,
        export_position = excluded.export_position, erase_order = excluded.erase_order
$$;
revoke all on function app_private.register_personal_data_part(text, text, regprocedure, regprocedure, text[], integer,
  integer) from public;

/** Who the person is *********************************************************************************************/
-- An account's e-mail address (lower-cased) once its holder has proven they receive mail there: the address was
-- confirmed by a link or code sent to it (sign-up confirmation or password recovery mailed before the confirmation,
-- or a completed e-mail change). Null for an address taken on trust: confirmed automatically at sign-up
-- (GOTRUE_MAILER_AUTOCONFIRM) or set by the firm, or not confirmed at all.
create or replace function app_private.proven_email(account uuid) returns text
language sql stable security definer set search_path = '' as $$
  select lower(u.email) from auth.users u
   where u.id = account and nullif(btrim(u.email), '') is not null and u.email_confirmed_at is not null
     and (u.confirmation_sent_at <= u.email_confirmed_at
          or u.recovery_sent_at <= u.email_confirmed_at
          or (u.email_change_sent_at is not null and coalesce(u.email_change, '') = ''))
$$;
revoke all on function app_private.proven_email(uuid) from public;
comment on function app_private.proven_email(uuid) is
  'The account''s lower-cased e-mail when its holder proved they receive mail there (a mailed link or code), else null.';

-- The signed-in caller as a data subject (42501 without a user).
create or replace function app_private.my_data_subject() returns app_private.data_subject
language sql stable security definer set search_path = '' as $$
  select row(uid, app_private.proven_email(uid))::app_private.data_subject from (select private.require_uid() as uid) s
$$;
revoke all on function app_private.my_data_subject() from public;

/** Export ********************************************************************************************************/
-- Items per list part in one response: the export is bounded whatever an account holds. Longer lists carry
-- `"more": {"<part>": true}` and are read on with export_my_data_part(part, skip).
create or replace function app_private.export_page_size() returns integer
language sql immutable set search_path = '' as $$ select 200 $$;
revoke all on function app_private.export_page_size() from public;

-- One part's page (`max_items` + 1 asked, to know whether there is more).
create or replace function app_private.export_part(part app_private.personal_data_parts, subject app_private.data_subject,
                                                   max_items integer, skip integer)
returns jsonb
language plpgsql stable security definer set search_path = '' as $$
declare
  result jsonb;
begin
  execute format('select %s($1, $2, $3)', part.export_function::oid::regproc) into result
    using subject, max_items, skip;
  return result;
end
$$;
revoke all on function app_private.export_part(app_private.personal_data_parts, app_private.data_subject, integer, integer)
  from public;

-- The whole document: every registered part in export_position order, list parts to export_page_size().
create or replace function app_private.export_subject(subject app_private.data_subject) returns jsonb
language plpgsql stable security definer set search_path = '' as $$
declare
  page integer := app_private.export_page_size();
  doc jsonb := jsonb_build_object('exported_at', now(), 'page_size', page);
  more jsonb := '{}';
  part app_private.personal_data_parts;
  value jsonb;
begin
  for part in select * from app_private.personal_data_parts p where p.export_function is not null
               order by p.export_position, p.name loop
    value := app_private.export_part(part, subject, page + 1, 0);
    if jsonb_typeof(value) = 'array' and jsonb_array_length(value) > page then
      value := value - page; -- drops the extra item
      more := more || jsonb_build_object(part.name, true);
    end if;
    doc := doc || jsonb_build_object(part.name, value);
  end loop;
  return doc || jsonb_build_object('more', more);
end
$$;
revoke all on function app_private.export_subject(app_private.data_subject) from public;

create or replace function public.export_my_data() returns jsonb
language sql stable security definer set search_path = '' as $$
  select app_private.export_subject(app_private.my_data_subject())
$$;
comment on function public.export_my_data() is
  'Everything the site holds about the caller as one JSON document, one key per registered part (app_private.personal_data_parts); lists hold at most page_size items, longer ones are flagged in "more" and read on with export_my_data_part().';

create or replace function public.export_my_data_part(part text, skip integer default 0) returns jsonb
language plpgsql stable security definer set search_path = '' as $$
declare
  p app_private.personal_data_parts;
  value jsonb;
begin
  select * into p from app_private.personal_data_parts x where x.name = part and x.export_function is not null;
  if p.name is null then
    raise exception 'Unknown part %', part using errcode = '22023';
  end if;
  value := app_private.export_part(p, app_private.my_data_subject(), app_private.export_page_size(),
                                   greatest(coalesce(skip, 0), 0));
  return value;
end
$$;
comment on function public.export_my_data_part(text, integer) is
  'One page (page_size items from `skip`) of one list of export_my_data(), for lists flagged in its "more".';

/** Erasure *******************************************************************************************************/
-- Runs every part's erase function in erase_order; returns the counts per part.
create or replace function app_private.erase_subject(subject app_private.data_subject) returns jsonb
language plpgsql security definer set search_path = '' as $$
declare
  part app_private.personal_data_parts;
  n bigint;
  counts jsonb := '{}';
begin
  for part in select * from app_private.personal_data_parts p where p.erase_function is not null
               order by p.erase_order, p.name loop
    execute format('select %s($1)', part.erase_function::oid::regproc) into n using subject;
    counts := counts || jsonb_build_object(part.name, coalesce(n, 0));
  end loop;
  return counts;
end
$$;
revoke all on function app_private.erase_subject(app_private.data_subject) from public;

create or replace function public.delete_my_account(confirmation text) returns jsonb
language plpgsql volatile security definer set search_path = '' as $$
declare
  subject app_private.data_subject := app_private.my_data_subject();
begin
  if confirmation is distinct from 'DELETE' then
    raise exception 'Type DELETE to confirm' using errcode = '22023';
  end if;
  return app_private.erase_subject(subject);
end
$$;
comment on function public.delete_my_account(text) is
  'Erases the caller''s account and everything registered in app_private.personal_data_parts about them (by account, and by e-mail once proven); confirmation must be ''DELETE''. Returns the counts per part.';

-- Retention (0320): everything held under one e-mail address (any case): the person's account when it is not an
-- admin's (staff are not under the rule), and the records sent with the address.
create or replace function app_private.erase_person(person text) returns jsonb
language plpgsql security definer set search_path = '' as $$
declare
  who text := lower(person);
  counts jsonb := '{}';
  account uuid;
begin
  for account in select u.id from auth.users u
                  where lower(u.email) = who
                    and not exists (select 1 from public.user_roles r where r.user_id = u.id and r.role = 'admin') loop
    counts := app_private.add_counts(counts, app_private.erase_subject(row(account, who)::app_private.data_subject));
  end loop;
  return app_private.add_counts(counts, app_private.erase_subject(row(null, who)::app_private.data_subject));
end
$$;
revoke all on function app_private.erase_person(text) from public;

revoke all on function public.export_my_data(), public.export_my_data_part(text, integer), public.delete_my_account(text)
  from public;
grant execute on function public.export_my_data(), public.export_my_data_part(text, integer),
  public.delete_my_account(text) to authenticated;
