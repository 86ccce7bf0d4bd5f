-- The retention notice greets a person by a name only when it is a plausible personal name
-- (app_private.is_person_name, 0260): the sign-up's full_name metadata is free text its author chose, and the
-- notice goes to an address that may not be theirs, so no link or message can ride in on the greeting.
create or replace function app_private.greeting_name(person text) returns text
language sql stable security definer set search_path = '' as $$
  select app_private.one_line(n.name)
  from (
    select 1 as rank, a.first_name as name, a.created_at as at from public.applications a where lower(a.email) = person
    union all
    select 2, e.name, e.created_at from public.enquiries e where lower(e.email) = person
    union all
    select 3, u.raw_user_meta_data ->> 'full_name', u.created_at from auth.users u where lower(u.email) = person
  ) n
  where app_private.is_person_name(n.name)
  order by n.rank, n.at desc
  limit 1
$$;
revoke all on function app_private.greeting_name(text) from public;
