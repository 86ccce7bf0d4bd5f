-- Profile views are the last table visitors insert into without a limit (S4: every path that creates rows is
-- counted). A view is recorded once per page load, so the limits are generous for people and tight for scripts:
-- per client (the address the gateway resolved, app_private.client_ip()) 120 an hour, and 5,000 an hour overall.
-- Past either, the insert is refused with 429 + Retry-After like every other limit (app_private.take); the page
-- ignores a failed recording. The database owner and service_role are not limited. Settings rows
-- 'limit:profile_view_per_client_per_hour' and 'limit:profile_view_per_hour' change the numbers.
set local client_min_messages = warning;

create or replace function app_private.limit_profile_views() returns trigger
language plpgsql security definer set search_path = '' as $$
begin
  if current_setting('role', true) in ('anon', 'authenticated') then
    perform app_private.take('profile_view:client', app_private.client_ip(),
                             app_private.limit_value('profile_view_per_client_per_hour', 120));
    perform app_private.take('profile_view:all', 'all', app_private.limit_value('profile_view_per_hour', 5000));
  end if;
  return new;
end
$$;
revoke all on function app_private.limit_profile_views() from public;

-- Named to fire before profile_views_classify (BEFORE triggers run in name order): a refused view creates no salt.
drop trigger if exists limit_profile_views on public.profile_views;
create trigger limit_profile_views before insert on public.profile_views
  for each row execute function app_private.limit_profile_views();
