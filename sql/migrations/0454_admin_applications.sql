-- The firm's desk 5/8: what /admin/applications reads. One filtered list (private.application_rows: search by name
-- or e-mail, status, job, UK date range) behind three calls: a page of it with the counts per status
-- (admin_application_page), every row of it for the CSV export (admin_application_export, at most 10,000), and one
-- application with its job, CV, notes and history (admin_application). The dashboard's figure "new applications
-- since your last visit" comes from admin_desk_summary(), the visit from admin_mark_applications_seen(). The
-- candidate's own list, my_applications(), now carries the plain status.
set local client_min_messages = warning;

/* ---------------------------------------------------------------------------------------------------------------
 * The filtered list. The caller checks that the user is an admin. Dates are UK calendar days, both inclusive.
 * --------------------------------------------------------------------------------------------------------------- */
create or replace function private.application_rows(
  search text, wanted_status public.application_status, job uuid, from_day date, to_day date
)
returns table (
  id uuid, created_at timestamptz, first_name text, last_name text, email text, phone text,
  job_id uuid, job_title text, job_ref text, job_status text, status public.application_status, status_changed_at timestamptz,
  consultant_id uuid, consultant_name text, cv_object text, has_account boolean, notes bigint
)
  language sql stable security definer set search_path = ''
as $$
  select a.id, a.created_at, a.first_name, a.last_name, a.email, a.phone, a.job_id, j.title, j.job_id, j.status,
         p.status, p.status_changed_at, p.consultant_id, private.staff_name(p.consultant_id), a.cv_object,
         a.user_id is not null,
         (select count(*) from public.desk_notes n where n.application_id = a.id)
  from public.applications a
  join public.application_pipeline p on p.application_id = a.id
  left join public.jobs j on j.id = a.job_id
  where (coalesce(btrim(search), '') = ''
         or a.first_name || ' ' || a.last_name ilike private.substring_pattern(search)
         or a.email ilike private.substring_pattern(search))
    and (wanted_status is null or p.status = wanted_status)
    and (job is null or a.job_id = job)
    and (from_day is null or a.created_at >= from_day::timestamp at time zone 'Europe/London')
    and (to_day is null or a.created_at < (to_day + 1)::timestamp at time zone 'Europe/London')
$$;
revoke all on function private.application_rows(text, public.application_status, uuid, date, date) from public;

-- A status filter as sent (text or null/empty for all), or 22023.
create or replace function private.status_filter(value text) returns public.application_status
  language sql immutable set search_path = ''
as $$
  select case when nullif(btrim(value), '') is null then null else private.application_status_from(btrim(value)) end
$$;
revoke all on function private.status_filter(text) from public;

/* ---------------------------------------------------------------------------------------------------------------
 * admin_application_page(search, status, job_id, from_day, to_day, page_size, page_offset)
 *   -> { total, matching, counts: {new: n, reviewed: n, ...}, page_size, page_offset, jobs: [{id, title, job_ref}],
 *        applications: [ row of private.application_rows + plain_status ] }
 * Newest first. counts: per status over the other filters (so each status tab shows its number); total: every
 * application; jobs: the jobs that have applications (the job filter's choices).
 * --------------------------------------------------------------------------------------------------------------- */
create or replace function public.admin_application_page(
  search text default null, status text default null, job_id uuid default null, from_day date default null,
  to_day date default null, page_size integer default 25, page_offset integer default 0
) returns json
  language plpgsql stable security definer set search_path = '' set plan_cache_mode = force_custom_plan
as $$
declare
  wanted public.application_status;
  size integer := least(greatest(coalesce(page_size, 25), 1), 200);
  skip integer := greatest(coalesce(page_offset, 0), 0);
  result json;
begin
  perform private.require_admin('read applications');
  wanted := private.status_filter(status);
  if from_day > to_day then
    perform private.refuse('The start date must not be after the end date');
  end if;
  with filtered as (
    select * from private.application_rows(search, null, job_id, from_day, to_day)
  ),
  matching as (
    select * from filtered f where wanted is null or f.status = wanted
  ),
  page as (
    select m.*, public.plain_application_status(m.status) as plain_status
    from matching m order by m.created_at desc, m.id limit size offset skip
  )
  select json_build_object(
    'total', (select count(*) from public.applications),
    'matching', (select count(*) from matching),
    'counts', (select json_object_agg(s, (select count(*) from filtered f where f.status = s) order by s)
               from unnest(enum_range(null::public.application_status)) s),
    'page_size', size,
    'page_offset', skip,
    'jobs', coalesce((select json_agg(json_build_object('id', j.id, 'title', j.title, 'job_ref', j.job_id)
                                      order by j.title, j.job_id)
                      from public.jobs j where exists (select 1 from public.applications a where a.job_id = j.id)), '[]'),
    'applications', coalesce((select json_agg(p order by p.created_at desc, p.id) from page p), '[]')
  ) into result;
  return result;
end;
$$;
revoke all on function public.admin_application_page(text, text, uuid, date, date, integer, integer) from public, anon;
grant execute on function public.admin_application_page(text, text, uuid, date, date, integer, integer) to authenticated;
comment on function public.admin_application_page(text, text, uuid, date, date, integer, integer) is
  'Admins only: one page of applications (newest first) filtered by name/e-mail search, status, job and UK date range, with the counts per status and the jobs applied for.';

-- Every row of the same list, newest first, for the CSV export. More than 10,000: 54000, narrow the filters.
create or replace function public.admin_application_export(
  search text default null, status text default null, job_id uuid default null, from_day date default null,
  to_day date default null
)
returns table (
  applied_at timestamptz, first_name text, last_name text, email text, phone text, job_title text, job_ref text,
  pipeline_status public.application_status, candidate_sees text, consultant text, cv_file text, notes bigint
)
  language plpgsql stable security definer set search_path = '' set plan_cache_mode = force_custom_plan
as $$
declare
  wanted public.application_status;
  n bigint;
begin
  perform private.require_admin('export applications');
  wanted := private.status_filter(status);
  select count(*) into n from private.application_rows(search, wanted, job_id, from_day, to_day);
  if n > 10000 then
    raise exception 'Too many applications to export (%): narrow the filters to at most 10,000', n
      using errcode = '54000';
  end if;
  return query
    select r.created_at, r.first_name, r.last_name, r.email, r.phone, r.job_title, r.job_ref, r.status,
           public.plain_application_status(r.status), r.consultant_name,
           regexp_replace(r.cv_object, '^.*/', ''), r.notes
    from private.application_rows(search, wanted, job_id, from_day, to_day) r
    order by r.created_at desc, r.id;
end;
$$;
revoke all on function public.admin_application_export(text, text, uuid, date, date) from public, anon;
grant execute on function public.admin_application_export(text, text, uuid, date, date) to authenticated;
comment on function public.admin_application_export(text, text, uuid, date, date) is
  'Admins only: every application of the filtered list (at most 10,000), newest first, for the CSV export.';

/* ---------------------------------------------------------------------------------------------------------------
 * admin_application(application_id) -> one application: the form's fields, job, status (and what the candidate
 * sees), consultant, the CV object (name, type, size), notes (newest first, with author) and history (received,
 * then every status change with who and whether the applicant was e-mailed). Unknown id: null.
 * --------------------------------------------------------------------------------------------------------------- */
create or replace function public.admin_application(application_id uuid) returns json
  language plpgsql stable security definer set search_path = ''
as $$
declare
  result json;
begin
  perform private.require_admin('read applications');
  select json_build_object(
    'id', a.id, 'created_at', a.created_at, 'first_name', a.first_name, 'last_name', a.last_name,
    'email', a.email, 'phone', a.phone, 'cover_letter', a.cover_letter, 'has_account', a.user_id is not null,
    'job', case when j.id is null then null else json_build_object('id', j.id, 'title', j.title, 'job_ref', j.job_id,
             'company', j.company, 'location', j.location, 'status', j.status) end,
    'status', p.status, 'plain_status', public.plain_application_status(p.status),
    'status_changed_at', p.status_changed_at,
    'consultant', case when p.consultant_id is null then null
                       else json_build_object('id', p.consultant_id, 'name', private.staff_name(p.consultant_id)) end,
    'cv', json_build_object('object', a.cv_object, 'file_name', regexp_replace(a.cv_object, '^.*/', ''),
            'mimetype', o.metadata ->> 'mimetype', 'size', (o.metadata ->> 'size')::bigint),
    'notes', coalesce((select json_agg(json_build_object('id', n.id, 'body', n.body, 'created_at', n.created_at,
                         'author', private.staff_name(n.author_id)) order by n.created_at desc, n.id)
                       from public.desk_notes n where n.application_id = a.id), '[]'),
    'history', coalesce((select json_agg(json_build_object('at', c.changed_at, 'from', c.from_status, 'to', c.to_status,
                           'by', private.staff_name(c.changed_by), 'mailed', c.mail_id is not null) order by c.id)
                         from public.application_status_changes c where c.application_id = a.id), '[]')
  ) into result
  from public.applications a
  join public.application_pipeline p on p.application_id = a.id
  left join public.jobs j on j.id = a.job_id
  left join storage.objects o on o.bucket_id = 'cvs' and o.name = a.cv_object
  where a.id = admin_application.application_id;
  return result;
end;
$$;
revoke all on function public.admin_application(uuid) from public, anon;
grant execute on function public.admin_application(uuid) to authenticated;
comment on function public.admin_application(uuid) is
  'Admins only: one application with its job, status, consultant, CV object, notes and status history (null when unknown).';

/* ---------------------------------------------------------------------------------------------------------------
 * The admin's last visit to the applications list, and the dashboard's figures.
 * --------------------------------------------------------------------------------------------------------------- */
create table app_private.admin_visits (
  user_id uuid not null references auth.users (id) on delete cascade,
  area text not null check (area in ('applications')),
  seen_at timestamptz not null,
  primary key (user_id, area)
);
comment on table app_private.admin_visits is 'When each admin last opened an area of the desk (for "new since your last visit").';

create or replace function public.admin_mark_applications_seen() returns timestamptz
  language plpgsql volatile security definer set search_path = ''
as $$
declare
  previous timestamptz;
begin
  perform private.require_admin('use the desk');
  select v.seen_at into previous from app_private.admin_visits v where v.user_id = auth.uid() and v.area = 'applications';
  insert into app_private.admin_visits (user_id, area, seen_at) values (auth.uid(), 'applications', now())
  on conflict (user_id, area) do update set seen_at = excluded.seen_at;
  return previous;
end;
$$;
revoke all on function public.admin_mark_applications_seen() from public, anon;
grant execute on function public.admin_mark_applications_seen() to authenticated;
comment on function public.admin_mark_applications_seen() is
  'Admins only: records that the caller opened the applications list now; returns the previous visit (or null).';

-- { last_seen_at, new_since_last_visit (every application when never visited), awaiting_review (status new),
--   unhandled_enquiries }
create or replace function public.admin_desk_summary() returns json
  language plpgsql stable security definer set search_path = ''
as $$
declare
  seen timestamptz;
begin
  perform private.require_admin('use the desk');
  select v.seen_at into seen from app_private.admin_visits v where v.user_id = auth.uid() and v.area = 'applications';
  return json_build_object(
    'last_seen_at', seen,
    'new_since_last_visit', (select count(*) from public.applications a where seen is null or a.created_at > seen),
    'awaiting_review', (select count(*) from public.application_pipeline p where p.status = 'new'),
    'unhandled_enquiries', (select count(*) from public.enquiries e where not e.handled));
end;
$$;
revoke all on function public.admin_desk_summary() from public, anon;
grant execute on function public.admin_desk_summary() to authenticated;
comment on function public.admin_desk_summary() is
  'Admins only: the dashboard''s desk figures: applications since the caller''s last visit to the list, applications awaiting review, unhandled enquiries.';

/* ---------------------------------------------------------------------------------------------------------------
 * my_applications(): the candidate's list (0202, 0332: the job as the candidate may see it) with the plain status
 * that follows the firm's.
 * --------------------------------------------------------------------------------------------------------------- */
drop function public.my_applications();
create function public.my_applications()
returns table (id uuid, applied_at timestamptz, job_id uuid, job_title text, company text, job_status text, status text)
  language sql stable security definer set search_path = ''
as $$
  select a.id, a.created_at, a.job_id, j.title, j.company, j.status,
         public.plain_application_status(coalesce(p.status, 'new'))
    from public.applications a
    cross join lateral app_private.job_as_shown(a.job_id) j
    left join public.application_pipeline p on p.application_id = a.id
   where a.user_id = private.require_uid()
   order by a.created_at desc, a.id
$$;
comment on function public.my_applications() is
  'The caller''s applications (made while signed in), newest first, with the job''s title and company as the candidate may see them, its status (active, closed, removed) and the application''s plain status (Received, In review, Interviewing, Offer, Placed, Not progressed, Withdrawn).';
revoke all on function public.my_applications() from public;
grant execute on function public.my_applications() to authenticated;
