-- Career Hub 2/3: applications made while signed in belong to the candidate. user_id defaults to the caller
-- (auth.uid(), null for anonymous applicants) and is not in the insert grant, so nobody can file an application in
-- another person's name. The candidate reads its own applications (RLS); deleting the account deletes them
-- (cascade) and their uploaded CV files (the storage.objects row here, the file by the gateway's storage sweep).

alter table public.applications
  add column user_id uuid default auth.uid() references auth.users (id) on delete cascade;
comment on column public.applications.user_id is
  'The signed-in candidate who applied (the caller, set by default; null for anonymous applications).';

create index applications_user_id_created_at_idx on public.applications (user_id, created_at desc);

create policy "Candidates read their own applications" on public.applications
  for select to authenticated
  using (user_id = (select auth.uid()));

/** AFTER DELETE: the application's CV object goes with it (unless another application points at the same one). */
create or replace function app_private.remove_application_cv() returns trigger
language plpgsql security definer set search_path = '' as $$
begin
  delete from storage.objects o
   where o.bucket_id = 'cvs' and o.name = old.cv_object
     and not exists (select 1 from public.applications a where a.cv_object = old.cv_object);
  return null;
end
$$;
revoke all on function app_private.remove_application_cv() from public;

create trigger remove_application_cv after delete on public.applications
  for each row execute function app_private.remove_application_cv();
