-- Admin area: the analytics page's per-profile table one page at a time. admin_profile_analytics (0234) returned every
-- profile's row, ~288 kB of JSON for 1,000 profiles, to show a table people read from the top; it now returns the
-- cards, the trend and one page of the table (default 50 rows, by views), with `total_profiles` for the pager. The
-- CSV export, which wants every row, reads them from admin_profile_figures() when asked.
set local client_min_messages = warning;

-- Every profile's counted figures (the analytics table's rows). The caller checks that the user is an admin.
create or replace function private.profile_figures()
returns table (
  id uuid, candidate_id text, name text, job_title text, candidate_reference text, status text,
  views bigint, unique_viewers bigint, first_viewed timestamptz, last_viewed timestamptz
)
language sql stable set search_path = '' as $$
  select p.id, p.candidate_id, p.name, p.job_title, p.candidate_reference, p.status,
         coalesce(s.views, 0), coalesce(s.unique_viewers, 0), s.first_viewed, s.last_viewed
  from public.candidate_profiles p
  left join app_private.profile_view_totals s on s.profile_id = p.id
$$;
revoke all on function private.profile_figures() from public;

/* ---------------------------------------------------------------------------------------------------------------
 * admin_profile_analytics(days, page_size, page_offset): the analytics page in one JSON object.
 *   total_profiles, total_views, unique_viewers, profiles_viewed, engagement_rate, excluded_admin_views,
 *   excluded_bot_views (as in 0234); page_size (1-200, default 50), page_offset;
 *   profiles: that page of the table { id, candidate_id, name, job_title, candidate_reference, status, views,
 *             unique_viewers, first_viewed, last_viewed } by views (desc), then candidate_id;
 *   trend: views per day for the last `days` days over all profiles + top referrers.
 * --------------------------------------------------------------------------------------------------------------- */
drop function if exists public.admin_profile_analytics(integer);
create function public.admin_profile_analytics(days integer default 30, page_size integer default 50,
                                               page_offset integer default 0) returns json
  language plpgsql stable security definer set search_path = '' set plan_cache_mode = force_custom_plan
as $$
declare
  size integer := least(greatest(coalesce(page_size, 50), 1), 200);
  skip integer := greatest(coalesce(page_offset, 0), 0);
  result json;
begin
  if not public.is_admin() then
    raise exception 'only admins can read profile analytics' using errcode = '42501';
  end if;
  with excluded as (
    -- An index-only scan of profile_views_excluded_idx.
    select count(*) filter (where v.by_admin) as admin_views, count(*) filter (where v.is_bot and not v.by_admin) as bot_views
    from public.profile_views v
    where v.is_bot or v.by_admin
  ),
  totals as (
    select (select count(*) from public.candidate_profiles) as total_profiles,
           coalesce(sum(t.views), 0) as total_views, coalesce(sum(t.unique_viewers), 0) as unique_viewers,
           count(*) filter (where t.views > 0) as profiles_viewed
    from app_private.profile_view_totals t
  ),
  page as (
    select f.* from private.profile_figures() f order by f.views desc, f.candidate_id limit size offset skip
  )
  select json_build_object(
    'total_profiles', t.total_profiles,
    'total_views', t.total_views,
    'unique_viewers', t.unique_viewers,
    'profiles_viewed', t.profiles_viewed,
    'engagement_rate', case when t.total_profiles = 0 then 0
                            else round(100.0 * t.profiles_viewed / t.total_profiles)::integer end,
    'excluded_admin_views', e.admin_views,
    'excluded_bot_views', e.bot_views,
    'page_size', size,
    'page_offset', skip,
    'profiles', coalesce((select json_agg(json_build_object(
        'id', p.id, 'candidate_id', p.candidate_id, 'name', p.name, 'job_title', p.job_title,
        'candidate_reference', p.candidate_reference, 'status', p.status, 'views', p.views,
        'unique_viewers', p.unique_viewers, 'first_viewed', p.first_viewed, 'last_viewed', p.last_viewed)
        order by p.views desc, p.candidate_id) from page p), '[]'),
    'trend', private.profile_view_trend(null, days)
  ) into result
  from totals t, excluded e;
  return result;
end;
$$;
revoke all on function public.admin_profile_analytics(integer, integer, integer) from public, anon;
grant execute on function public.admin_profile_analytics(integer, integer, integer) to authenticated;
comment on function public.admin_profile_analytics(integer, integer, integer) is
  'Admins only: candidate engagement analytics (cards, one page of the per-profile table by views, views per day and top referrers for the last `days` days) as one JSON object. Excludes bots and admin views.';

-- Every row of the table, for the CSV export.
create or replace function public.admin_profile_figures()
returns table (
  id uuid, candidate_id text, name text, job_title text, candidate_reference text, status text,
  views bigint, unique_viewers bigint, first_viewed timestamptz, last_viewed timestamptz
)
language plpgsql stable security definer set search_path = '' as $$
begin
  if not public.is_admin() then
    raise exception 'only admins can read profile analytics' using errcode = '42501';
  end if;
  return query select * from private.profile_figures() f order by f.views desc, f.candidate_id;
end;
$$;
revoke all on function public.admin_profile_figures() from public, anon;
grant execute on function public.admin_profile_figures() to authenticated;
comment on function public.admin_profile_figures() is
  'Admins only: every profile''s counted views, unique viewers, first and last view, by views (the analytics table, for its CSV export).';
