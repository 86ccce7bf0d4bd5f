-- Vacancies (issue 24, editor 2/5): admins write jobs (the editor at /admin/vacancies), the rules a job must meet to
-- be published, and every change to a job in the audit log.
--
-- Who writes: admins insert and update jobs through the data API (column grants below; RLS: is_admin()); nobody but
-- service_role deletes (a job ends by closing). Candidates and anon keep reading only active jobs.
--
-- Publishing (status 'active') is refused with 23514 unless the advert meets regulation 27 of the Conduct of
-- Employment Agencies and Employment Businesses Regulations 2003 (design/product.md §3.4):
--   27(1)(a) the agency's full name is stated            → site_settings.site_name (shown on every job page and feed)
--   27(1)(b) whether the position is permanent or temporary → jobs.employment_type (permanent = permanent, else temporary)
--   27(3)    when pay is stated (salary_min/max, or salary text with a figure): the nature of the work (description),
--            its location and the minimum experience, training or qualifications (requirements)
-- and its closing date, when it has one, has not passed (UK date). public.job_publish_problems(job) names what is
-- missing with a typed vocabulary (agency_name, employment_type, description, location, requirements, closing_date);
-- the error's DETAIL carries the same names as JSON so the editor marks each field. The rule applies to every write
-- made through the APIs (the editor, the CSV import, a CRM with the service key, a feed function called as service_role:
-- the session's role is an API role); the database owner (migrations, demo content, operators at psql) is trusted as it
-- is for RLS. A job that is already live and is edited must still meet it; closing never needs it.
set local client_min_messages = warning;

/* ---------------------------------------------------------------------------------------------------------------
 * Write access for admins
 * --------------------------------------------------------------------------------------------------------------- */
grant insert (job_id, status, posted_date, closing_date, title, company, location, salary, salary_min, salary_max, type,
              sector, description, requirements, benefits, client_type, external_id, hero_image, consultant_name,
              consultant_email, work_arrangement, employment_type, region, salary_period, description_html,
              requirements_html)
  on public.jobs to authenticated;
grant update (job_id, status, posted_date, closing_date, title, company, location, salary, salary_min, salary_max, type,
              sector, description, requirements, benefits, client_type, hero_image, consultant_name, consultant_email,
              work_arrangement, employment_type, region, salary_period, description_html, requirements_html)
  on public.jobs to authenticated;

create policy "Admins add jobs" on public.jobs
  for insert to authenticated
  with check ((select public.is_admin()));
create policy "Admins edit jobs" on public.jobs
  for update to authenticated
  using ((select public.is_admin()))
  with check ((select public.is_admin()));

-- What the editor offers; existing rows keep what they have (NOT VALID), new writes are checked.
alter table public.jobs
  add constraint jobs_hero_image_check check (hero_image is null or hero_image ~ '^(https://[^\s"<>]+|/[^/\\\s"<>][^\s"<>]*)$') not valid,
  add constraint jobs_consultant_email_check check (
    consultant_email is null or (consultant_email ~ '^[^@\s<>"]+@[^@\s<>"]+\.[^@\s<>"]+$' and char_length(consultant_email) <= 320)) not valid,
  add constraint jobs_consultant_name_check check (char_length(consultant_name) <= 200) not valid,
  add constraint jobs_benefits_check check (cardinality(benefits) <= 30) not valid,
  add constraint jobs_job_id_length check (char_length(job_id) <= 60) not valid;

/* ---------------------------------------------------------------------------------------------------------------
 * Publishing rules
 * --------------------------------------------------------------------------------------------------------------- */
-- Whether an advert states a rate of pay (reg. 27(3)): a salary figure, or salary text with a number in it
-- ('£45,000', '£450 a day'); 'Competitive' or 'Negotiable' state none.
create or replace function public.job_states_pay(job public.jobs) returns boolean
  language sql immutable parallel safe set search_path = ''
as $$
  select job.salary_min is not null or job.salary_max is not null or coalesce(job.salary, '') ~ '[0-9]'
$$;
comment on function public.job_states_pay(public.jobs) is
  'True when the advert states a rate of pay (salary_min/max, or salary text with a figure): reg. 27(3) then applies.';
revoke all on function public.job_states_pay(public.jobs) from public;
grant execute on function public.job_states_pay(public.jobs) to authenticated, service_role;

-- What keeps a job from being published, as field names; empty when it may be published.
create or replace function public.job_publish_problems(job public.jobs) returns text[]
  language sql stable set search_path = ''
as $$
  select array_remove(array[
    case when not exists (select 1 from public.site_settings s where btrim(s.site_name) <> '') then 'agency_name' end,
    case when job.employment_type is null then 'employment_type' end,
    case when public.job_states_pay(job) and nullif(btrim(job.description), '') is null then 'description' end,
    case when public.job_states_pay(job) and nullif(btrim(job.location), '') is null then 'location' end,
    case when public.job_states_pay(job) and nullif(btrim(job.requirements), '') is null then 'requirements' end,
    case when job.closing_date < (now() at time zone 'Europe/London')::date then 'closing_date' end
  ], null)
$$;
comment on function public.job_publish_problems(public.jobs) is
  'Why a job cannot be published (reg. 27 and its closing date): agency_name, employment_type, description, location, requirements, closing_date. Empty = publishable.';
revoke all on function public.job_publish_problems(public.jobs) from public;
grant execute on function public.job_publish_problems(public.jobs) to authenticated, service_role;

-- The sentence for each problem, for the error message.
create or replace function private.job_publish_problem_text(problem text) returns text
  language sql immutable set search_path = ''
as $$
  select case problem
    when 'agency_name' then 'the agency''s full name (site settings)'
    when 'employment_type' then 'whether the role is permanent or temporary (employment type)'
    when 'description' then 'the nature of the work (description), as pay is stated'
    when 'location' then 'the location, as pay is stated'
    when 'requirements' then 'the minimum experience, training or qualifications (requirements), as pay is stated'
    when 'closing_date' then 'a closing date that has not passed'
    else problem end
$$;
revoke all on function private.job_publish_problem_text(text) from public;

-- Is this statement running for a client of the APIs (the gateway's role switch, kept inside SECURITY DEFINER calls)?
create or replace function private.via_api() returns boolean
  language sql stable set search_path = ''
as $$
  select coalesce(current_setting('role', true), 'none') in ('anon', 'authenticated', 'service_role')
$$;
revoke all on function private.via_api() from public;

-- BEFORE INSERT OR UPDATE: a job going (or staying) live through the APIs must be publishable; a draft published for
-- the first time is posted now (unless the writer set the posted date).
-- SECURITY DEFINER: it reads schema private, which the writers (admins, service_role) cannot use.
create or replace function private.jobs_publish_rules() returns trigger
  language plpgsql security definer set search_path = ''
as $$
declare
  problems text[];
begin
  if new.status <> 'active' then
    return new;
  end if;
  if tg_op = 'UPDATE' and old.status = 'draft' and new.posted_date is not distinct from old.posted_date then
    new.posted_date := now();
  end if;
  -- writers the API lets write jobs (admins, service_role); anyone else is refused by RLS after this trigger
  if private.via_api() and (current_setting('role', true) = 'service_role' or public.is_admin()) then
    problems := public.job_publish_problems(new);
    if cardinality(problems) > 0 then
      raise exception 'This job cannot be published until it states %',
          (select string_agg(private.job_publish_problem_text(p), '; ') from unnest(problems) p)
        using errcode = '23514',
              detail = to_jsonb(problems)::text,
              hint = 'Regulation 27 of the Conduct of Employment Agencies Regulations 2003; save it as a draft until then.';
    end if;
  end if;
  return new;
end;
$$;
revoke all on function private.jobs_publish_rules() from public;
comment on function private.jobs_publish_rules() is
  'Trigger: refuses an active job written through the APIs that fails public.job_publish_problems (23514, DETAIL = the fields as JSON); a draft''s first publication sets posted_date.';

create trigger jobs_publish_rules before insert or update on public.jobs
  for each row execute function private.jobs_publish_rules();

/* ---------------------------------------------------------------------------------------------------------------
 * Audit: every change to a job, by whom (0230's trigger), named by its title and reference.
 * --------------------------------------------------------------------------------------------------------------- */
create or replace function private.audit_subject(table_name text, data jsonb) returns text
  language plpgsql stable security definer set search_path = ''
as $$
begin
  if data is null then
    return null;
  end if;
  return case table_name
    when 'featured_jobs' then coalesce(
      nullif(data ->> 'custom_title', ''),
      (select j.title from public.jobs j where j.id = (data ->> 'job_id')::uuid),
      data ->> 'job_id')
    when 'candidate_profiles' then data ->> 'candidate_id'
    when 'user_roles' then coalesce(
      (select u.email from auth.users u where u.id = (data ->> 'user_id')::uuid), data ->> 'user_id')
        || ' (' || (data ->> 'role') || ')'
    when 'jobs' then concat_ws(' · ', data ->> 'title', data ->> 'job_id')
    else null
  end;
end;
$$;
revoke all on function private.audit_subject(text, jsonb) from public;

create trigger jobs_audit after insert or update or delete on public.jobs
  for each row execute function private.audit_row_change();

comment on table public.jobs is
  'Vacancies (spec jobs). Written by admins in the job editor and by imports (CSV, CRM as service_role); public while status = active; admins read every status. Changes are audited.';
