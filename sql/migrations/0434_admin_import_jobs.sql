-- Vacancies (issue 24, editor 5/5): the spreadsheet import. The editor's import page parses a CSV (Papa Parse), renders
-- each row's Markdown with the editor's renderer and sends the rows here:
--   rpc('admin_import_jobs', { rows: [{ external_id, title, company, status, … }], file_name, apply: false })
-- previews: every row is written inside a savepoint with every rule of the table (constraints, the HTML allowlist,
-- reg. 27 for active rows, uniqueness) and then rolled back, so nothing is written and each row gets its own errors.
-- With apply: true the same writes are kept — all of them in this one transaction — or, when any row fails, none
-- (the answer then says so with the rows' errors; `applied` false). Rows are upserted on external_id (required;
-- unique within the file): a new external_id inserts (status defaults to draft), a known one updates only the columns
-- the row carries (as one UPDATE; a new one is one INSERT). At most 500 rows. Every job written is in the audit log as the admin's change; an applied import
-- is also recorded in app_private.job_import_runs, which no API role can read.
-- Answer: { applied, inserted, updated, failed, rows: [{ row, external_id, action: insert|update|null, id, errors }] }.
set local client_min_messages = warning;

create table app_private.job_import_runs (
  id bigint generated always as identity primary key,
  at timestamptz not null default now(),
  actor_id uuid,
  file_name text check (char_length(file_name) <= 255),
  row_count integer not null,
  inserted integer not null,
  updated integer not null
);
comment on table app_private.job_import_runs is
  'One row per applied CSV import of jobs: who, when, which file, how many rows inserted and updated. Not readable through the APIs.';
alter table app_private.job_import_runs enable row level security;
revoke all on app_private.job_import_runs from public;

-- Records an applied import (admin_import_jobs runs as the admin, who cannot write app_private).
create or replace function public.admin_record_job_import(file_name text, row_count integer, inserted integer, updated integer)
returns void
  language plpgsql security definer set search_path = ''
as $$
begin
  if not public.is_admin() then
    raise exception 'only admins can import jobs' using errcode = '42501';
  end if;
  insert into app_private.job_import_runs (actor_id, file_name, row_count, inserted, updated)
  values (auth.uid(), left(file_name, 255), row_count, inserted, updated);
end;
$$;
revoke all on function public.admin_record_job_import(text, integer, integer, integer) from public, anon;
grant execute on function public.admin_record_job_import(text, integer, integer, integer) to authenticated;
comment on function public.admin_record_job_import(text, integer, integer, integer) is
  'Called by admin_import_jobs: logs an applied import in app_private.job_import_runs (admins only).';

-- One import row written as the caller (RLS and every rule of the table apply): a known external_id updates only the
-- columns the row carries (one UPDATE; constraints are checked on the merged row), a new one is inserted (status
-- draft unless given).
create or replace function public.admin_upsert_job(item jsonb, out id uuid, out inserted boolean)
  language plpgsql volatile set search_path = ''
as $$
declare
  r public.jobs;
begin
  r := jsonb_populate_record(null::public.jobs, item);
  -- a known external_id: update only the columns the row carries
  update public.jobs as j set
    job_id = case when item ? 'job_id' then r.job_id else j.job_id end,
    status = case when item ? 'status' then r.status else j.status end,
    title = case when item ? 'title' then r.title else j.title end,
    company = case when item ? 'company' then r.company else j.company end,
    location = case when item ? 'location' then r.location else j.location end,
    sector = case when item ? 'sector' then r.sector else j.sector end,
    type = case when item ? 'type' then r.type else j.type end,
    employment_type = case when item ? 'employment_type' then r.employment_type else j.employment_type end,
    work_arrangement = case when item ? 'work_arrangement' then r.work_arrangement else j.work_arrangement end,
    salary = case when item ? 'salary' then r.salary else j.salary end,
    salary_min = case when item ? 'salary_min' then r.salary_min else j.salary_min end,
    salary_max = case when item ? 'salary_max' then r.salary_max else j.salary_max end,
    salary_period = case when item ? 'salary_period' then r.salary_period else j.salary_period end,
    closing_date = case when item ? 'closing_date' then r.closing_date else j.closing_date end,
    description = case when item ? 'description' then r.description else j.description end,
    description_html = case when item ? 'description_html' then r.description_html else j.description_html end,
    requirements = case when item ? 'requirements' then r.requirements else j.requirements end,
    requirements_html = case when item ? 'requirements_html' then r.requirements_html else j.requirements_html end,
    benefits = case when item ? 'benefits' then r.benefits else j.benefits end,
    client_type = case when item ? 'client_type' then r.client_type else j.client_type end,
    consultant_name = case when item ? 'consultant_name' then r.consultant_name else j.consultant_name end,
    consultant_email = case when item ? 'consultant_email' then r.consultant_email else j.consultant_email end,
    hero_image = case when item ? 'hero_image' then r.hero_image else j.hero_image end
  where j.external_id = r.external_id
  returning j.id into id;
  inserted := not found;
  if inserted then
    insert into public.jobs as n (
      external_id, job_id, status, title, company, location, sector, type, employment_type, work_arrangement,
      salary, salary_min, salary_max, salary_period, closing_date, description, description_html, requirements,
      requirements_html, benefits, client_type, consultant_name, consultant_email, hero_image)
    values (r.external_id, r.job_id, coalesce(r.status, 'draft'), r.title, r.company, r.location, r.sector, r.type,
            r.employment_type, r.work_arrangement, r.salary, r.salary_min, r.salary_max,
            coalesce(r.salary_period, 'year'), r.closing_date, r.description, r.description_html, r.requirements,
            r.requirements_html, coalesce(r.benefits, '{}'), r.client_type, r.consultant_name, r.consultant_email,
            r.hero_image)
    returning n.id into id;
  end if;
end;
$$;
revoke all on function public.admin_upsert_job(jsonb) from public, anon;
grant execute on function public.admin_upsert_job(jsonb) to authenticated;
comment on function public.admin_upsert_job(jsonb) is
  'One CSV import row upserted on external_id as the caller (admins, by RLS): updates the columns the row carries, or inserts a draft.';

create or replace function public.admin_import_jobs(rows jsonb, file_name text default null, apply boolean default false)
returns jsonb
  language plpgsql volatile set search_path = ''
as $$
declare
  -- the documented CSV column set (web/src/features/admin-vacancies/import/columns.ts), plus the rendered HTML
  allowed text[] := array['external_id', 'job_id', 'status', 'title', 'company', 'location', 'sector', 'type',
    'employment_type', 'work_arrangement', 'salary', 'salary_min', 'salary_max', 'salary_period', 'closing_date',
    'description', 'description_html', 'requirements', 'requirements_html', 'benefits', 'client_type',
    'consultant_name', 'consultant_email', 'hero_image'];
  results jsonb := '[]';
  item jsonb;
  n integer := 0;
  seen jsonb := '{}';
  errors text[];
  unknown text;
  written_id uuid;
  is_insert boolean;
  inserted integer := 0;
  updated integer := 0;
  failed integer := 0;
  state text; msg text; det text; cons text; col text;
begin
  if not public.is_admin() then
    raise exception 'only admins can import jobs' using errcode = '42501';
  end if;
  if jsonb_typeof(rows) is distinct from 'array' then
    raise exception 'rows must be a JSON array of objects' using errcode = '22023';
  end if;
  if jsonb_array_length(rows) = 0 then
    raise exception 'the file has no rows' using errcode = '22023';
  end if;
  if jsonb_array_length(rows) > 500 then
    raise exception 'a file may hold at most 500 jobs (this one has %); split it', jsonb_array_length(rows) using errcode = '22023';
  end if;

  begin
    for item in select value from jsonb_array_elements(rows) loop
      n := n + 1;
      errors := '{}';
      written_id := null;
      is_insert := null;
      if jsonb_typeof(item) is distinct from 'object' then
        errors := array['the row is not an object'];
      else
        select string_agg(k, ', ') into unknown from jsonb_object_keys(item) k where k <> all (allowed);
        if unknown is not null then
          errors := errors || ('unknown columns: ' || unknown);
        end if;
        if nullif(btrim(item ->> 'external_id'), '') is null then
          errors := errors || 'external_id is required (the key the import updates by)'::text;
        elsif seen ? (item ->> 'external_id') then
          errors := errors || format('external_id %s is also in row %s', item ->> 'external_id', seen ->> (item ->> 'external_id'));
        else
          seen := seen || jsonb_build_object(item ->> 'external_id', n);
        end if;
      end if;
      if cardinality(errors) = 0 then
        begin
          select w.id, w.inserted into written_id, is_insert from public.admin_upsert_job(item) w;
        exception when others then
          get stacked diagnostics state = returned_sqlstate, msg = message_text, det = pg_exception_detail,
                                  cons = constraint_name, col = column_name;
          errors := errors || case
            when state = '23502' then coalesce(col, 'a field') || ' is required'
            when state = '23505' and cons = 'jobs_job_id_key' then format('job_id %s is already used by another job', item ->> 'job_id')
            when cons = 'jobs_salary_range_check' then 'salary_min must not be more than salary_max'
            when cons = 'jobs_description_html_safe' then 'description: ' || public.job_html_problem(item ->> 'description_html')
            when cons = 'jobs_requirements_html_safe' then 'requirements: ' || public.job_html_problem(item ->> 'requirements_html')
            when state = '23514' and cons like 'jobs\_%' then regexp_replace(cons, '^jobs_(.*?)(_check|_length)?$', '\1') || ' is not valid'
            else msg end;
        end;
      end if;
      if cardinality(errors) > 0 then
        failed := failed + 1;
      elsif is_insert then
        inserted := inserted + 1;
      else
        updated := updated + 1;
      end if;
      results := results || jsonb_build_object(
        'row', n, 'external_id', item ->> 'external_id',
        'action', case when cardinality(errors) > 0 then null when is_insert then 'insert' else 'update' end,
        'id', written_id, 'errors', to_jsonb(errors));
    end loop;
    if apply and failed = 0 then
      perform public.admin_record_job_import(admin_import_jobs.file_name, n, inserted, updated);
    else
      -- a preview, or a file with errors: undo every row written above
      raise exception using errcode = 'P0004', message = 'import rolled back';
    end if;
  exception when sqlstate 'P0004' then
    null;
  end;
  return jsonb_build_object('applied', apply and failed = 0, 'inserted', inserted, 'updated', updated,
                            'failed', failed, 'rows', results);
end;
$$;
revoke all on function public.admin_import_jobs(jsonb, text, boolean) from public, anon;
grant execute on function public.admin_import_jobs(jsonb, text, boolean) to authenticated;
comment on function public.admin_import_jobs(jsonb, text, boolean) is
  'Admins: preview (apply false) or apply in one transaction a CSV import of jobs, upserting on external_id; per-row errors; all or nothing.';
