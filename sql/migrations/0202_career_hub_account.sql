-- Career Hub 3/3: what the dashboard lists and the candidate's data rights, as functions of the caller only
-- (auth.uid(); never a parameter naming a user). Executable by authenticated, never by anon.
--   my_saved_jobs()       saved jobs with their job, closed ones marked 'closed' (RLS hides closed jobs' rows)
--   my_applications()     applications made while signed in, newest first, with the job
--   export_my_data()      one JSON document: account, CVs, saved jobs, applications (UK GDPR access/portability)
--   delete_my_account(t)  t must be 'DELETE': removes the account; cascades remove CV drafts, saved jobs,
--                         applications and (0201 + the storage sweep) their CV files

/** The caller's id, or 42501 when nobody is signed in. */
create or replace function private.require_uid() returns uuid
language plpgsql stable set search_path = '' as $$
declare
  uid uuid := auth.uid();
begin
  if uid is null then
    raise exception 'Sign in first' using errcode = '42501';
  end if;
  return uid;
end
$$;
revoke all on function private.require_uid() from public;

create or replace function public.my_saved_jobs()
returns table (job_id uuid, saved_at timestamptz, title text, company text, location text, salary text, type text,
               status text)
language sql stable security definer set search_path = '' as $$
  select s.job_id, s.created_at, j.title, j.company, j.location, j.salary, j.type,
         case when j.status = 'active' then 'active' else 'closed' end
    from public.saved_jobs s join public.jobs j on j.id = s.job_id
   where s.user_id = private.require_uid()
   order by s.created_at desc
$$;
comment on function public.my_saved_jobs() is
  'The caller''s saved jobs with title, company, location, salary, type and status (active, or closed for any other).';

create or replace function public.my_applications()
returns table (id uuid, applied_at timestamptz, job_id uuid, job_title text, company text, job_status text)
language sql stable security definer set search_path = '' as $$
  select a.id, a.created_at, a.job_id, j.title, j.company,
         case when j.status = 'active' then 'active' when j.id is null then 'removed' else 'closed' end
    from public.applications a left join public.jobs j on j.id = a.job_id
   where a.user_id = private.require_uid()
   order by a.created_at desc, a.id
$$;
comment on function public.my_applications() is
  'The caller''s applications (made while signed in), newest first, with the job''s title, company and status.';

create or replace function public.export_my_data() returns jsonb
language sql stable security definer set search_path = '' as $$
  with me as (select private.require_uid() as id)
  select jsonb_build_object(
    'exported_at', now(),
    'account', (select jsonb_build_object('id', u.id, 'email', u.email,
                  'full_name', u.raw_user_meta_data ->> 'full_name', 'created_at', u.created_at,
                  'email_confirmed_at', u.email_confirmed_at, 'last_sign_in_at', u.last_sign_in_at)
                  from auth.users u, me where u.id = me.id),
    'cv_documents', coalesce((select jsonb_agg(jsonb_build_object('id', c.id, 'title', c.title, 'data', c.data,
                  'created_at', c.created_at, 'updated_at', c.updated_at) order by c.created_at)
                  from public.cv_documents c, me where c.user_id = me.id), '[]'),
    'saved_jobs', coalesce((select jsonb_agg(to_jsonb(s)) from public.my_saved_jobs() s), '[]'),
    'applications', coalesce((select jsonb_agg(jsonb_build_object('id', a.id, 'created_at', a.created_at,
                  'job_id', a.job_id, 'job_title', j.title, 'first_name', a.first_name, 'last_name', a.last_name,
                  'email', a.email, 'phone', a.phone, 'cover_letter', a.cover_letter, 'cv_file', a.cv_object)
                  order by a.created_at desc)
                  from public.applications a left join public.jobs j on j.id = a.job_id, me
                  where a.user_id = me.id), '[]'))
$$;
comment on function public.export_my_data() is
  'Everything the site keeps about the caller as one JSON document: account, CV drafts, saved jobs, applications.';

create or replace function public.delete_my_account(confirmation text) returns jsonb
language plpgsql volatile security definer set search_path = '' as $$
declare
  uid uuid := private.require_uid();
  removed jsonb;
begin
  if confirmation is distinct from 'DELETE' then
    raise exception 'Type DELETE to confirm' using errcode = '22023';
  end if;
  select jsonb_build_object(
    'cv_documents', (select count(*) from public.cv_documents where user_id = uid),
    'saved_jobs', (select count(*) from public.saved_jobs where user_id = uid),
    'applications', (select count(*) from public.applications where user_id = uid)) into removed;
  delete from auth.users where id = uid;
  return removed;
end
$$;
comment on function public.delete_my_account(text) is
  'Deletes the caller''s account with its CV drafts, saved jobs, applications and their CV files; confirmation must be ''DELETE''. Returns what was removed.';

revoke all on function public.my_saved_jobs(), public.my_applications(), public.export_my_data(),
  public.delete_my_account(text) from public;
grant execute on function public.my_saved_jobs(), public.my_applications(), public.export_my_data(),
  public.delete_my_account(text) to authenticated;
