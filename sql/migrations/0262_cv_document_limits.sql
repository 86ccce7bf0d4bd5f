-- CV builder drafts (cv_documents, up to 256 kB each) are the rows a signed-in visitor creates in numbers: an account
-- may create 30 an hour (S4: every path that creates rows is counted; 429 + Retry-After like every other limit, via
-- app_private.take), keyed on the account, so one account cannot fill the disk. Editing a draft is not limited;
-- service_role and the database owner are not limited. Setting row 'limit:cv_document_per_user_per_hour' changes it.
set local client_min_messages = warning;

create or replace function app_private.limit_cv_documents() returns trigger
language plpgsql security definer set search_path = '' as $$
begin
  if current_setting('role', true) in ('anon', 'authenticated') then
    perform app_private.take('cv_document:user', new.user_id::text,
                             app_private.limit_value('cv_document_per_user_per_hour', 30));
  end if;
  return new;
end
$$;
revoke all on function app_private.limit_cv_documents() from public;

drop trigger if exists limit_cv_documents on public.cv_documents;
create trigger limit_cv_documents before insert on public.cv_documents
  for each row execute function app_private.limit_cv_documents();
