-- Applications: the "CV was uploaded" check moves from the BEFORE INSERT trigger to an AFTER INSERT trigger.
-- In a BEFORE trigger it ran ahead of the table's own rules (row-level security, CHECK constraints), so an
-- application to a closed job, without privacy consent or with a CV reference that climbs folders was reported as
-- "The CV was not found" instead of its real reason. AFTER ROW triggers run once RLS and the constraints have
-- passed, so clients get the specific error first and the CV is checked only for an otherwise valid application.
-- The rate limits stay in the BEFORE trigger; the error (23503, same message) and its effect (nothing stored, no
-- mail queued) are unchanged.
set local client_min_messages = warning;

create or replace function app_private.before_application() returns trigger
language plpgsql security definer set search_path = '' as $$
begin
  perform app_private.check_rate('application:email', lower(new.email), 5);
  perform app_private.check_rate('application:ip', app_private.client_ip(), 20);
  return new;
end
$$;

create or replace function app_private.application_cv_uploaded() returns trigger
language plpgsql security definer set search_path = '' as $$
begin
  if new.cv_object is not null
     and not exists (select 1 from storage.objects o where o.bucket_id = 'cvs' and o.name = new.cv_object) then
    raise exception 'The CV was not found; upload it first' using errcode = '23503';
  end if;
  return null;
end
$$;
revoke all on function app_private.application_cv_uploaded() from public;

-- Installs the triggers on public.applications (idempotent). AFTER triggers fire in name order:
-- after_application (queues the mail), then application_cv_uploaded; a refused CV rolls both back.
create or replace function app_private.install_application_triggers() returns boolean
language plpgsql set search_path = '' as $$
begin
  if to_regclass('public.applications') is null then
    return false;
  end if;
  execute 'drop trigger if exists before_application on public.applications';
  execute 'create trigger before_application before insert on public.applications
             for each row execute function app_private.before_application()';
  execute 'drop trigger if exists after_application on public.applications';
  execute 'create trigger after_application after insert on public.applications
             for each row execute function app_private.after_application()';
  execute 'drop trigger if exists application_cv_uploaded on public.applications';
  execute 'create trigger application_cv_uploaded after insert on public.applications
             for each row execute function app_private.application_cv_uploaded()';
  return true;
end
$$;
revoke all on function app_private.install_application_triggers() from public;

select app_private.install_application_triggers();
