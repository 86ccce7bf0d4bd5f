-- Admin area 5/6: candidate engagement analytics computed in SQL, one call per page load (never every view sent to
-- the browser). A view counts when it is not a bot's and not an admin's (made while an admin, or by a user who holds
-- the role now, spec §6); repeats within 30 minutes count as views but not as new unique viewers (0233).
-- supabase-js: rpc('admin_profile_analytics') and rpc('admin_profile_view_trend', { profile_id }) (see below).
-- Days are UK calendar days (Europe/London).

-- The calendar day of a time in the firm's time zone.
create or replace function private.uk_day(at timestamptz) returns date
  language sql immutable set search_path = ''
as $$
  select (at at time zone 'Europe/London')::date
$$;
revoke all on function private.uk_day(timestamptz) from public;

-- Views per day for the last `days` UK days (zero days included) and the top referrer origins over the same days,
-- for one profile or (profile_id null) all of them. The caller checks that the user is an admin.
create or replace function private.profile_view_trend(for_profile uuid, days integer) returns json
  language sql stable set search_path = ''
as $$
  with bounds as (
    select private.uk_day(now()) - (least(greatest(days, 1), 366) - 1) as first_day, private.uk_day(now()) as last_day
  ),
  admins as (select r.user_id from public.user_roles r where r.role = 'admin'),
  recent as (
    select private.uk_day(v.viewed_at) as day, v.visitor_hash, v.is_repeat, v.referrer
    from public.profile_views v, bounds b
    where v.viewed_at >= (b.first_day::timestamp at time zone 'Europe/London')
      and (for_profile is null or v.profile_id = for_profile)
      and not v.is_bot and not v.by_admin
      and (v.user_id is null or v.user_id not in (select a.user_id from admins a))
  ),
  per_day as (
    select r.day, count(*) as views, count(distinct r.visitor_hash) filter (where not r.is_repeat) as unique_viewers
    from recent r group by r.day
  )
  select json_build_object(
    'profile_id', for_profile,
    'first_day', (select first_day from bounds),
    'last_day', (select last_day from bounds),
    'daily', (
      select json_agg(json_build_object('day', d.day, 'views', coalesce(p.views, 0),
                                        'unique_viewers', coalesce(p.unique_viewers, 0)) order by d.day)
      from bounds b, generate_series(b.first_day, b.last_day, interval '1 day') as g (at)
      cross join lateral (select g.at::date as day) d
      left join per_day p on p.day = d.day),
    'referrers', coalesce((
      select json_agg(json_build_object('referrer', t.referrer, 'views', t.views) order by t.views desc, t.referrer nulls first)
      from (select r.referrer, count(*) as views from recent r group by r.referrer
            order by count(*) desc, r.referrer nulls first limit 5) t), '[]')
  )
$$;
revoke all on function private.profile_view_trend(uuid, integer) from public;

/* ---------------------------------------------------------------------------------------------------------------
 * admin_profile_analytics(): the whole analytics page in one JSON object.
 *   total_profiles, total_views, unique_viewers, profiles_viewed, engagement_rate (whole percent; 0 without profiles),
 *   excluded_admin_views, excluded_bot_views, repeat_views,
 *   profiles: every profile { id, candidate_id, name, job_title, candidate_reference, status, slug, views,
 *             unique_viewers, first_viewed, last_viewed } by views (desc), then candidate_id,
 *   trend: views per day for the last `days` days over all profiles + top referrers (private.profile_view_trend).
 * SECURITY DEFINER to read the profiles' internal names; refuses non-admins with 42501.
 * --------------------------------------------------------------------------------------------------------------- */
create or replace function public.admin_profile_analytics(days integer default 30) returns json
  language plpgsql stable security definer set search_path = ''
as $$
declare
  result json;
begin
  if not public.is_admin() then
    raise exception 'only admins can read profile analytics' using errcode = '42501';
  end if;
  with admins as (select r.user_id from public.user_roles r where r.role = 'admin'),
  classified as (
    select v.profile_id, v.visitor_hash, v.viewed_at, v.is_repeat, v.is_bot,
           (v.by_admin or (v.user_id is not null and v.user_id in (select a.user_id from admins a))) as admin_view
    from public.profile_views v
  ),
  per_visitor as (
    select c.profile_id, c.visitor_hash,
           count(*) filter (where not c.is_bot and not c.admin_view) as views,
           count(*) filter (where not c.is_bot and not c.admin_view and c.is_repeat) as repeats,
           bool_or(not c.is_bot and not c.admin_view and not c.is_repeat) as counted_first,
           min(c.viewed_at) filter (where not c.is_bot and not c.admin_view) as first_viewed,
           max(c.viewed_at) filter (where not c.is_bot and not c.admin_view) as last_viewed,
           count(*) filter (where c.admin_view) as admin_views,
           count(*) filter (where c.is_bot and not c.admin_view) as bot_views
    from classified c
    group by c.profile_id, c.visitor_hash
  ),
  per_profile as (
    select pv.profile_id, sum(pv.views)::bigint as views,
           count(*) filter (where pv.counted_first and pv.visitor_hash is not null) as unique_viewers,
           min(pv.first_viewed) as first_viewed, max(pv.last_viewed) as last_viewed
    from per_visitor pv
    group by pv.profile_id
  ),
  rows as (
    select p.id, p.candidate_id, p.name, p.job_title, p.candidate_reference, p.status, p.slug,
           coalesce(s.views, 0) as views, coalesce(s.unique_viewers, 0) as unique_viewers, s.first_viewed, s.last_viewed
    from public.candidate_profiles p
    left join per_profile s on s.profile_id = p.id
  )
  select json_build_object(
    'total_profiles', (select count(*) from rows),
    'total_views', (select coalesce(sum(views), 0) from rows),
    'unique_viewers', (select count(distinct pv.visitor_hash) from per_visitor pv where pv.counted_first),
    'profiles_viewed', (select count(*) from rows where views > 0),
    'engagement_rate', (select case when count(*) = 0 then 0
                                    else round(100.0 * count(*) filter (where views > 0) / count(*))::integer end
                        from rows),
    'excluded_admin_views', (select coalesce(sum(admin_views), 0) from per_visitor),
    'excluded_bot_views', (select coalesce(sum(bot_views), 0) from per_visitor),
    'repeat_views', (select coalesce(sum(repeats), 0) from per_visitor),
    'profiles', coalesce((select json_agg(r order by r.views desc, r.candidate_id) from rows r), '[]'),
    'trend', private.profile_view_trend(null, days)
  ) into result;
  return result;
end;
$$;
revoke all on function public.admin_profile_analytics(integer) from public, anon;
grant execute on function public.admin_profile_analytics(integer) to authenticated;
comment on function public.admin_profile_analytics(integer) is
  'Admins only: candidate engagement analytics (cards, per-profile table, views per day and top referrers for the last `days` days) as one JSON object. Excludes bots and admin views.';

-- One profile's views per day and top referrers (the chart when a row is chosen).
create or replace function public.admin_profile_view_trend(profile_id uuid, days integer default 30) returns json
  language plpgsql stable security definer set search_path = ''
as $$
begin
  if not public.is_admin() then
    raise exception 'only admins can read profile analytics' using errcode = '42501';
  end if;
  return private.profile_view_trend(profile_id, days);
end;
$$;
revoke all on function public.admin_profile_view_trend(uuid, integer) from public, anon;
grant execute on function public.admin_profile_view_trend(uuid, integer) to authenticated;
comment on function public.admin_profile_view_trend(uuid, integer) is
  'Admins only: views per day for the last `days` days and the top 5 referrer origins of one profile (or all when profile_id is null).';
