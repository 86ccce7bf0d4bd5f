-- Vacancies (issue 24, editor 4/5): the job editor's list at /admin/vacancies in one call — every job of any status,
-- searched and filtered on the server, one page at a time, with the counts the filters show.
-- supabase-js: rpc('admin_job_page', { search, job_status, issue, sector, sort, page_size, page_offset }) ->
--   { total, by_status: {active, draft, closed}, issues: {incomplete, cannot_publish, closing_soon}, matching,
--     page_size, page_offset, sectors: [...], jobs: [{ id, job_id, title, company, location, status, type,
--     employment_type, sector, salary, posted_date, closing_date, updated_at, external_id, missing, publish_problems }] }
--   search: case-insensitive substring of title, company, location, reference (job_id) or CRM id (external_id);
--   job_status: active | draft | closed; issue: incomplete (spec §5 Data Quality) | cannot_publish (reg. 27 or a
--   passed closing date) | closing_soon (live, closing within 7 days); sort: updated (default) | posted | closing | title.
-- Non-admins get 42501; a bad filter value 22023.
set local client_min_messages = warning;

create index jobs_updated_at_idx on public.jobs (updated_at desc, id);

create or replace function public.admin_job_page(
  search text default null, job_status text default null, issue text default null, sector text default null,
  sort text default 'updated', page_size integer default 25, page_offset integer default 0
) returns json
  language plpgsql stable set search_path = ''
as $$
declare
  pattern text := '%' || replace(replace(replace(btrim(coalesce(search, '')), '\', '\\'), '%', '\%'), '_', '\_') || '%';
  today date := (now() at time zone 'Europe/London')::date;
  result json;
begin
  if not public.is_admin() then
    raise exception 'only admins can list jobs for editing' using errcode = '42501';
  end if;
  if job_status is not null and job_status not in ('active', 'draft', 'closed') then
    raise exception 'job_status must be active, draft or closed' using errcode = '22023';
  end if;
  if issue is not null and issue not in ('incomplete', 'cannot_publish', 'closing_soon') then
    raise exception 'issue must be incomplete, cannot_publish or closing_soon' using errcode = '22023';
  end if;
  if coalesce(sort, 'updated') not in ('updated', 'posted', 'closing', 'title') then
    raise exception 'sort must be updated, posted, closing or title' using errcode = '22023';
  end if;
  page_size := least(greatest(coalesce(page_size, 25), 1), 100);
  page_offset := greatest(coalesce(page_offset, 0), 0);

  with checked as (
    select j.*, public.job_missing_fields(j) as missing, public.job_publish_problems(j) as publish_problems
    from public.jobs j
  ), tagged as (
    select c.*,
           cardinality(c.missing) > 0 as is_incomplete,
           c.status <> 'closed' and cardinality(c.publish_problems) > 0 as is_unpublishable,
           c.status = 'active' and c.closing_date between today and today + 7 as is_closing_soon
    from checked c
  ), matched as (
    select t.* from tagged t
    where (btrim(coalesce(search, '')) = '' or t.title ilike pattern or t.company ilike pattern
           or t.location ilike pattern or t.job_id ilike pattern or t.external_id ilike pattern)
      and (job_status is null or t.status = job_status)
      and (admin_job_page.sector is null or t.sector = admin_job_page.sector)
      and (issue is null
           or (issue = 'incomplete' and t.is_incomplete)
           or (issue = 'cannot_publish' and t.is_unpublishable)
           or (issue = 'closing_soon' and t.is_closing_soon))
  ), page as (
    select m.* from matched m
    order by case when sort = 'title' then lower(m.title) end,
             case when sort = 'closing' then m.closing_date end nulls last,
             case when sort = 'posted' then m.posted_date end desc,
             m.updated_at desc, m.id
    limit page_size offset page_offset
  )
  select json_build_object(
    'total', (select count(*) from tagged),
    'by_status', json_build_object(
      'active', (select count(*) from tagged where status = 'active'),
      'draft', (select count(*) from tagged where status = 'draft'),
      'closed', (select count(*) from tagged where status = 'closed')),
    'issues', json_build_object(
      'incomplete', (select count(*) from tagged where is_incomplete),
      'cannot_publish', (select count(*) from tagged where is_unpublishable),
      'closing_soon', (select count(*) from tagged where is_closing_soon)),
    'matching', (select count(*) from matched),
    'page_size', page_size,
    'page_offset', page_offset,
    'sectors', coalesce((select json_agg(s order by s) from (select distinct t.sector as s from tagged t where nullif(btrim(t.sector), '') is not null) x), '[]'),
    'jobs', coalesce((
      select json_agg(json_build_object(
        'id', p.id, 'job_id', p.job_id, 'title', p.title, 'company', p.company, 'location', p.location,
        'status', p.status, 'type', p.type, 'employment_type', p.employment_type, 'sector', p.sector,
        'salary', p.salary, 'posted_date', p.posted_date, 'closing_date', p.closing_date, 'updated_at', p.updated_at,
        'external_id', p.external_id, 'missing', p.missing, 'publish_problems', p.publish_problems)
        order by case when sort = 'title' then lower(p.title) end,
                 case when sort = 'closing' then p.closing_date end nulls last,
                 case when sort = 'posted' then p.posted_date end desc,
                 p.updated_at desc, p.id)
      from page p), '[]')
  ) into result;
  return result;
end;
$$;
revoke all on function public.admin_job_page(text, text, text, text, text, integer, integer) from public, anon;
grant execute on function public.admin_job_page(text, text, text, text, text, integer, integer) to authenticated;
comment on function public.admin_job_page(text, text, text, text, text, integer, integer) is
  'Admins only: one page of jobs (any status) for the editor, searched and filtered on the server, with status and issue counts.';
