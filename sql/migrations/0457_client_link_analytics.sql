-- The firm's desk 8/8: what the admin area shows of consents and client links. A view counts for a link as it does
-- for a profile (not a bot's, not an admin's: 0233); repeats within 30 minutes count as views, not new viewers.
--   admin_profile_sharing(profile_id)      the sharing dialog: the consent in force, earlier consents, every link
--                                          with its client, expiry, state and views
--   admin_client_link_views(size, offset)  /admin/candidates/analytics "Views per client": who looked at which
--                                          profile, how often, when last (links with views first)
--   admin_profile_clients(profile_ids)     the clients who viewed each listed profile (the candidates table's rows)

-- Counted views per link. The caller checks that the user is an admin.
create or replace function private.link_figures(link_ids uuid[])
returns table (link_id uuid, views bigint, unique_viewers bigint, first_viewed timestamptz, last_viewed timestamptz)
  language sql stable security definer set search_path = ''
as $$
  select v.client_link_id, count(*), count(*) filter (where v.new_viewer), min(v.viewed_at), max(v.viewed_at)
  from public.profile_views v
  where v.client_link_id = any (link_ids) and not v.is_bot and not v.by_admin
  group by v.client_link_id
$$;
revoke all on function private.link_figures(uuid[]) from public;

-- A link's rows as the admin area shows them (every column but the token's hash, with its state and figures).
create or replace function private.link_rows(link_ids uuid[])
returns table (
  id uuid, profile_id uuid, candidate_id text, profile_name text, client_name text, client_company text,
  created_at timestamptz, created_by text, expires_at timestamptz, revoked_at timestamptz, revoked_by text,
  state text, views bigint, unique_viewers bigint, first_viewed timestamptz, last_viewed timestamptz
)
  language sql stable security definer set search_path = ''
as $$
  select l.id, l.profile_id, p.candidate_id, p.name, l.client_name, l.client_company, l.created_at,
         private.staff_name(l.created_by), l.expires_at, l.revoked_at, private.staff_name(l.revoked_by),
         app_private.client_link_state(l), coalesce(f.views, 0), coalesce(f.unique_viewers, 0), f.first_viewed,
         f.last_viewed
  from public.profile_client_links l
  join public.candidate_profiles p on p.id = l.profile_id
  left join private.link_figures(link_ids) f on f.link_id = l.id
  where l.id = any (link_ids)
$$;
revoke all on function private.link_rows(uuid[]) from public;

create or replace function public.admin_profile_sharing(profile_id uuid) returns json
  language plpgsql stable security definer set search_path = ''
as $$
declare
  result json;
begin
  perform private.require_admin('share profiles with clients');
  select json_build_object(
    'profile_id', p.id, 'candidate_id', p.candidate_id, 'status', p.status,
    'consent', (select json_build_object('id', c.id, 'given_on', c.given_on, 'method', c.method, 'scope', c.scope,
                  'recorded_at', c.recorded_at, 'recorded_by', private.staff_name(c.recorded_by))
                from public.profile_consents c where c.profile_id = p.id and not c.withdrawn),
    'earlier_consents', coalesce((select json_agg(json_build_object('id', c.id, 'given_on', c.given_on,
                          'method', c.method, 'scope', c.scope, 'recorded_at', c.recorded_at,
                          'withdrawn_at', c.withdrawn_at, 'withdrawn_by', private.staff_name(c.withdrawn_by))
                          order by c.recorded_at desc)
                        from public.profile_consents c where c.profile_id = p.id and c.withdrawn), '[]'),
    'links', coalesce((select json_agg(r order by r.created_at desc, r.id)
                       from private.link_rows(array(select l.id from public.profile_client_links l
                                                    where l.profile_id = p.id)) r), '[]')
  ) into result
  from public.candidate_profiles p where p.id = admin_profile_sharing.profile_id;
  return result;
end;
$$;
revoke all on function public.admin_profile_sharing(uuid) from public, anon;
grant execute on function public.admin_profile_sharing(uuid) to authenticated;
comment on function public.admin_profile_sharing(uuid) is
  'Admins only: a profile''s consent in force, earlier (withdrawn) consents and client links with client, expiry, state and counted views (null when unknown).';

-- { total_links, viewed_links, page_size, page_offset, links: [...] }: links with views first (last viewed newest
-- first), then the others by creation.
create or replace function public.admin_client_link_views(page_size integer default 50, page_offset integer default 0)
returns json
  language plpgsql stable security definer set search_path = '' set plan_cache_mode = force_custom_plan
as $$
declare
  size integer := least(greatest(coalesce(page_size, 50), 1), 200);
  skip integer := greatest(coalesce(page_offset, 0), 0);
  result json;
begin
  perform private.require_admin('read profile analytics');
  with rows as (
    select * from private.link_rows(array(select l.id from public.profile_client_links l))
  ),
  page as (
    select * from rows r order by r.last_viewed desc nulls last, r.created_at desc, r.id limit size offset skip
  )
  select json_build_object(
    'total_links', (select count(*) from rows),
    'viewed_links', (select count(*) from rows r where r.views > 0),
    'page_size', size,
    'page_offset', skip,
    'links', coalesce((select json_agg(p order by p.last_viewed desc nulls last, p.created_at desc, p.id) from page p), '[]')
  ) into result;
  return result;
end;
$$;
revoke all on function public.admin_client_link_views(integer, integer) from public, anon;
grant execute on function public.admin_client_link_views(integer, integer) to authenticated;
comment on function public.admin_client_link_views(integer, integer) is
  'Admins only: views per client link (which client looked at which profile, how often, when last), viewed links first, one page at a time.';

create or replace function public.admin_profile_clients(profile_ids uuid[])
returns table (profile_id uuid, link_id uuid, client_name text, client_company text, views bigint,
               last_viewed timestamptz)
  language plpgsql stable security definer set search_path = ''
as $$
begin
  perform private.require_admin('read profile analytics');
  if cardinality(profile_ids) > 200 then
    perform private.refuse('Ask for at most 200 profiles at a time');
  end if;
  return query
    select r.profile_id, r.id, r.client_name, r.client_company, r.views, r.last_viewed
    from private.link_rows(array(select l.id from public.profile_client_links l
                                 where l.profile_id = any (admin_profile_clients.profile_ids))) r
    where r.views > 0
    order by r.profile_id, r.last_viewed desc, r.id;
end;
$$;
revoke all on function public.admin_profile_clients(uuid[]) from public, anon;
grant execute on function public.admin_profile_clients(uuid[]) to authenticated;
comment on function public.admin_profile_clients(uuid[]) is
  'Admins only: for each of up to 200 profiles, the clients whose links have counted views (views, last viewed).';
