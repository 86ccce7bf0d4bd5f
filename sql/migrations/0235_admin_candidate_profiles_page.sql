-- Admin area 6/6: the candidate list for /admin/candidates (one page at a time, searched on the server, with each
-- profile's counted views), and column rules for admin writes.

/* ---------------------------------------------------------------------------------------------------------------
 * Writes by column: candidate_id is read-only once created (spec §5), source/external_id are set on creation only,
 * and the share slug is always the database's 128-bit random default (nobody picks a guessable one).
 * --------------------------------------------------------------------------------------------------------------- */
revoke insert, update on public.candidate_profiles from authenticated;
grant insert (id, candidate_id, name, email, location, job_title, candidate_reference, details, status, source, external_id)
  on public.candidate_profiles to authenticated;
grant update (name, email, location, job_title, candidate_reference, details, status)
  on public.candidate_profiles to authenticated;

/* ---------------------------------------------------------------------------------------------------------------
 * admin_candidate_profile_page(search, page_size, page_offset)
 *   -> { total_profiles, matching, page_size, page_offset, profiles: [ { every column, views } ] }
 * search: case-insensitive substring of name, e-mail or location (spec §2); % and _ match themselves.
 * views, unique_viewers: the profile's counted views (no admin views, no bots), as on the analytics page (0234).
 * Newest first (created_at desc). Non-admins get 42501.
 * --------------------------------------------------------------------------------------------------------------- */
create or replace function public.admin_candidate_profile_page(
  search text default null, page_size integer default 25, page_offset integer default 0
) returns json
  language plpgsql stable security definer set search_path = '' set plan_cache_mode = force_custom_plan
as $$
declare
  pattern text := '%' || replace(replace(replace(coalesce(btrim(search), ''), '\', '\\'), '%', '\%'), '_', '\_') || '%';
  size integer := least(greatest(coalesce(page_size, 25), 1), 200);
  skip integer := greatest(coalesce(page_offset, 0), 0);
  result json;
begin
  if not public.is_admin() then
    raise exception 'only admins can read candidate profiles with private fields' using errcode = '42501';
  end if;
  with matching as (
    select p.* from public.candidate_profiles p
    where pattern = '%%' or p.name ilike pattern or p.email ilike pattern or p.location ilike pattern
  ),
  page as (
    select m.*, coalesce(t.views, 0) as views, coalesce(t.unique_viewers, 0) as unique_viewers
    from matching m
    left join app_private.profile_view_totals t on t.profile_id = m.id
    order by m.created_at desc, m.id
    limit size offset skip
  )
  select json_build_object(
    'total_profiles', (select count(*) from public.candidate_profiles),
    'matching', (select count(*) from matching),
    'page_size', size,
    'page_offset', skip,
    'profiles', coalesce((select json_agg(p order by p.created_at desc, p.id) from page p), '[]')
  ) into result;
  return result;
end;
$$;
revoke all on function public.admin_candidate_profile_page(text, integer, integer) from public, anon;
grant execute on function public.admin_candidate_profile_page(text, integer, integer) to authenticated;
comment on function public.admin_candidate_profile_page(text, integer, integer) is
  'Admins only: one page of candidate profiles (every column + counted views), newest first, filtered by a case-insensitive substring of name, e-mail or location.';
