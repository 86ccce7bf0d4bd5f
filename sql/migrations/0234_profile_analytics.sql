-- Admin area 5/6: candidate engagement analytics computed in SQL, one call per page load (never every view sent to
-- the browser). A view counts when it is not a bot's and not an admin's (made while an admin, or by a user who holds
-- the role now, spec §6); repeats within 30 minutes count as views but not as new unique viewers (0233).
-- supabase-js: rpc('admin_profile_analytics') and rpc('admin_profile_view_trend', { profile_id }) (see below).
-- Days are UK calendar days (Europe/London).

/* ---------------------------------------------------------------------------------------------------------------
 * Per-profile totals of counted views, kept by the database as views arrive, so the analytics page and the Views
 * column read one row per profile instead of aggregating every view (an aggregate over 200,000 views takes
 * ~70-90 ms here; tests/bench/analytics). Inserts add to the totals; deletes and updates (Clear Admin Views, a
 * profile deleted, views marked as an admin's) recompute the affected profiles from profile_views_counted_idx.
 * --------------------------------------------------------------------------------------------------------------- */
create table app_private.profile_view_totals (
  profile_id uuid primary key references public.candidate_profiles (id) on delete cascade,
  views bigint not null,
  unique_viewers bigint not null,
  first_viewed timestamptz not null,
  last_viewed timestamptz not null
);
comment on table app_private.profile_view_totals is
  'Counted views per profile (not is_bot, not by_admin): total, unique viewers (new_viewer), first and last. Maintained by triggers on profile_views.';

create or replace function private.add_profile_view_to_totals() returns trigger
  language plpgsql security definer set search_path = ''
as $$
begin
  if not new.is_bot and not new.by_admin then
    insert into app_private.profile_view_totals as t (profile_id, views, unique_viewers, first_viewed, last_viewed)
    values (new.profile_id, 1, new.new_viewer::int, new.viewed_at, new.viewed_at)
    on conflict (profile_id) do update
      set views = t.views + 1,
          unique_viewers = t.unique_viewers + excluded.unique_viewers,
          first_viewed = least(t.first_viewed, excluded.first_viewed),
          last_viewed = greatest(t.last_viewed, excluded.last_viewed);
  end if;
  return null;
end;
$$;
revoke all on function private.add_profile_view_to_totals() from public;

-- Recomputes the totals of the given profiles from their counted views (absent when they have none).
create or replace function private.recompute_profile_view_totals(profile_ids uuid[]) returns void
  language sql security definer set search_path = ''
as $$
  delete from app_private.profile_view_totals t where t.profile_id = any (profile_ids);
  insert into app_private.profile_view_totals (profile_id, views, unique_viewers, first_viewed, last_viewed)
  select v.profile_id, count(*), count(*) filter (where v.new_viewer), min(v.viewed_at), max(v.viewed_at)
  from public.profile_views v
  where v.profile_id = any (profile_ids) and not v.is_bot and not v.by_admin
    and exists (select 1 from public.candidate_profiles p where p.id = v.profile_id)
  group by v.profile_id;
$$;
revoke all on function private.recompute_profile_view_totals(uuid[]) from public;

create or replace function private.recompute_totals_after_delete() returns trigger
  language plpgsql security definer set search_path = ''
as $$
begin
  perform private.recompute_profile_view_totals(
    (select array_agg(distinct o.profile_id) from old_views o where not o.is_bot and not o.by_admin));
  return null;
end;
$$;
revoke all on function private.recompute_totals_after_delete() from public;

create or replace function private.recompute_totals_after_update() returns trigger
  language plpgsql security definer set search_path = ''
as $$
begin
  perform private.recompute_profile_view_totals(
    (select array_agg(distinct x.profile_id) from (select o.profile_id from old_views o union select n.profile_id from new_views n) x));
  return null;
end;
$$;
revoke all on function private.recompute_totals_after_update() from public;

create or replace function private.clear_totals_after_truncate() returns trigger
  language plpgsql security definer set search_path = ''
as $$
begin
  delete from app_private.profile_view_totals;
  return null;
end;
$$;
revoke all on function private.clear_totals_after_truncate() from public;

create trigger profile_views_add_to_totals after insert on public.profile_views
  for each row execute function private.add_profile_view_to_totals();
create trigger profile_views_totals_after_delete after delete on public.profile_views
  referencing old table as old_views for each statement execute function private.recompute_totals_after_delete();
create trigger profile_views_totals_after_update after update on public.profile_views
  referencing old table as old_views new table as new_views
  for each statement execute function private.recompute_totals_after_update();
create trigger profile_views_totals_after_truncate after truncate on public.profile_views
  for each statement execute function private.clear_totals_after_truncate();

-- The views recorded so far.
select private.recompute_profile_view_totals(array(select p.id from public.candidate_profiles p));

-- The calendar day of a time in the firm's time zone. No SET clause, so the planner inlines it (a function with
-- SET search_path is never inlined and would run once per view); it names nothing that a search_path resolves.
create or replace function private.uk_day(at timestamptz) returns date
  language sql immutable
as $$
  select (at at time zone 'Europe/London')::date
$$;
revoke all on function private.uk_day(timestamptz) from public;

-- Views per day for the last `days` UK days (zero days included) and the top referrer origins over the same days,
-- for one profile or (for_profile null) all of them. The caller checks that the user is an admin.
-- plan_cache_mode = force_custom_plan: after five calls PL/pgSQL would switch to a generic plan, which cannot know
-- whether for_profile is null nor the day bounds and scans every view for each day (2 s instead of 15 ms here).
create or replace function private.profile_view_trend(for_profile uuid, days integer) returns json
  language plpgsql stable set search_path = '' set plan_cache_mode = force_custom_plan
as $$
declare
  last_day date := private.uk_day(now());
  first_day date := last_day - (least(greatest(coalesce(days, 30), 1), 366) - 1);
  result json;
begin
  -- Each UK day as a time range (23 or 25 hours at the clock changes), so views are bucketed by index range scans
  -- instead of converting every view's time.
  with day_ranges as (
    select d.day, d.day::timestamp at time zone 'Europe/London' as starts_at,
           (d.day + 1)::timestamp at time zone 'Europe/London' as ends_at
    from (select first_day + n as day from generate_series(0, last_day - first_day) n) d
  ),
  recent as (
    -- All profiles: index-only scans of profile_views_counted_recent_idx; one profile: profile_views_profile_id_viewed_at_idx.
    select d.day, v.new_viewer, v.referrer
    from day_ranges d
    join public.profile_views v on v.viewed_at >= d.starts_at and v.viewed_at < d.ends_at
    where (for_profile is null or v.profile_id = for_profile) and not v.is_bot and not v.by_admin
  ),
  per_day as (
    select r.day, count(*) as views, count(*) filter (where r.new_viewer) as unique_viewers from recent r group by r.day
  )
  select json_build_object(
    'profile_id', for_profile,
    'first_day', first_day,
    'last_day', last_day,
    'daily', (
      select json_agg(json_build_object('day', d.day, 'views', coalesce(p.views, 0),
                                        'unique_viewers', coalesce(p.unique_viewers, 0)) order by d.day)
      from day_ranges d left join per_day p on p.day = d.day),
    'referrers', coalesce((
      select json_agg(json_build_object('referrer', t.referrer, 'views', t.views) order by t.views desc, t.referrer nulls first)
      from (select r.referrer, count(*) as views from recent r group by r.referrer
            order by count(*) desc, r.referrer nulls first limit 5) t), '[]')
  ) into result;
  return result;
end;
$$;
revoke all on function private.profile_view_trend(uuid, integer) from public;

/* ---------------------------------------------------------------------------------------------------------------
 * admin_profile_analytics(): the whole analytics page in one JSON object.
 *   total_profiles, total_views, unique_viewers (a visitor counts once per profile per day: profile_views.new_viewer),
 *   profiles_viewed, engagement_rate (whole percent; 0 without profiles), excluded_admin_views, excluded_bot_views,
 *   profiles: every profile { id, candidate_id, name, job_title, candidate_reference, status, views,
 *             unique_viewers, first_viewed, last_viewed } by views (desc), then candidate_id,
 *   trend: views per day for the last `days` days over all profiles + top referrers (private.profile_view_trend).
 * SECURITY DEFINER to read the profiles' internal names; refuses non-admins with 42501.
 * --------------------------------------------------------------------------------------------------------------- */
create or replace function public.admin_profile_analytics(days integer default 30) returns json
  language plpgsql stable security definer set search_path = '' set plan_cache_mode = force_custom_plan
as $$
declare
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
  rows as (
    select p.id, p.candidate_id, p.name, p.job_title, p.candidate_reference, p.status,
           coalesce(s.views, 0) as views, coalesce(s.unique_viewers, 0) as unique_viewers, s.first_viewed, s.last_viewed
    from public.candidate_profiles p
    left join app_private.profile_view_totals s on s.profile_id = p.id
  ),
  totals as (
    select count(*) as total_profiles, coalesce(sum(r.views), 0) as total_views,
           coalesce(sum(r.unique_viewers), 0) as unique_viewers, count(*) filter (where r.views > 0) as profiles_viewed
    from rows r
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
    'profiles', coalesce((select json_agg(r order by r.views desc, r.candidate_id) from rows r), '[]'),
    'trend', private.profile_view_trend(null, days)
  ) into result
  from totals t, excluded e;
  return result;
end;
$$;
revoke all on function public.admin_profile_analytics(integer) from public, anon;
grant execute on function public.admin_profile_analytics(integer) to authenticated;
comment on function public.admin_profile_analytics(integer) is
  'Admins only: candidate engagement analytics (cards, per-profile table, views per day and top referrers for the last `days` days) as one JSON object. Excludes bots and admin views.';

-- One profile's views per day and top referrers (the chart when a row is chosen).
create or replace function public.admin_profile_view_trend(profile_id uuid, days integer default 30) returns json
  language plpgsql stable security definer set search_path = '' set plan_cache_mode = force_custom_plan
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
