-- Job pages: 'Other Opportunities in Property' lists up to three other live roles, newest first, instead of the
-- built-in sample jobs, whose pages answer 404 (every link must lead to a real page; issue 20). The page layout of
-- 0151 stays as it is, renamed render_job_page_layout; render_job_page adds the roles as data the browser renders
-- from without a request (web/src/features/jobs/components/other-opportunities.tsx):
--   <div hidden data-ssr-other-jobs-for="<job id>" data-ssr-other-jobs="[{id,title,company,location,salary,type}]">
-- RLS decides what exists, as for the job itself: the caller sees only active jobs.

do $$
begin
  if to_regprocedure('public.render_job_page_layout(text)') is null then
    alter function public.render_job_page(text) rename to render_job_page_layout;
  end if;
end
$$;
comment on function public.render_job_page_layout(text) is
  'The job page without other roles (0151): {status 200|404, head, body}; render_job_page wraps it.';

create or replace function public.render_job_page(path text) returns jsonb
  language plpgsql stable set search_path = ''
as $$
declare
  page jsonb := public.render_job_page_layout(path);
  current_id uuid;
  others jsonb;
begin
  if (page ->> 'status')::int <> 200 then
    return page;
  end if;
  current_id := path::uuid;
  select coalesce(jsonb_agg(jsonb_build_object('id', j.id, 'title', j.title, 'company', j.company, 'location', j.location,
      'salary', j.salary, 'type', j.type) order by j.posted_date desc nulls last, j.id), '[]'::jsonb)
    into others
  from (
    select * from public.jobs o
    where o.status = 'active' and o.id <> current_id
    order by o.posted_date desc nulls last, o.id
    limit 3
  ) j;
  return jsonb_set(page, '{body}', to_jsonb(concat(page ->> 'body',
    '<div hidden data-ssr-other-jobs-for="', current_id::text, '" data-ssr-other-jobs="', public.html_escape(others::text), '"></div>')));
end;
$$;
comment on function public.render_job_page(text) is
  'Server-rendered job page for the gateway: {status 200|404, head, body}, with up to three other live roles as data.';
revoke all on function public.render_job_page(text) from public;
grant execute on function public.render_job_page(text) to anon, authenticated, service_role;
