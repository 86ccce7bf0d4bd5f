-- CV drafts cannot grow without bound (U3). Only new drafts were limited (30 an hour per account, 0262): thirty
-- PATCHes of ~250 kB left one account holding 7.4 MB, about 178 MB a day with no end, and one
-- `GET /rest/v1/cv_documents?select=*` returned all of it. Now, for the API roles (anon, authenticated; the firm's
-- service_role and the database owner are not limited):
--   * an account keeps at most 25 drafts and 2 MiB of drafts (the JSON text of every draft), checked on every
--     insert and on every edit that grows a draft: refused with 23514 (HTTP 400) and a message saying what to do;
--   * all accounts together hold at most 2 GiB of drafts (app_private.cv_document_totals, kept by triggers):
--     past it, growth is refused with 53100 (HTTP 503) and a warning in the server log, so the disk is never filled;
--   * edits are limited too: 1,200 saves and 64 MiB of saved JSON an hour per account (the builder autosaves
--     0.8 s after the last keystroke), 429 + Retry-After past either (app_private.take);
--   * a saved-jobs list holds at most 200 jobs.
-- So one response of cv_documents holds at most 25 rows and 2 MiB of drafts whatever it selects. Each limit is a row
-- `limit:<name>` of app_private.settings. `size_bytes` (the draft's JSON size, set by the database) lets the caps and
-- the site read sizes without reading the drafts.
set local client_min_messages = warning;

alter table public.cv_documents
  add column if not exists size_bytes integer not null generated always as (octet_length(data::text)) stored;
comment on column public.cv_documents.size_bytes is 'The draft''s size as JSON text in bytes (computed by the database).';

create table if not exists app_private.cv_document_totals (
  id boolean primary key default true check (id),
  drafts bigint not null default 0,
  bytes bigint not null default 0
);
comment on table app_private.cv_document_totals is
  'How many CV drafts all accounts hold and their JSON bytes (one row, kept by triggers on cv_documents).';
insert into app_private.cv_document_totals (id, drafts, bytes)
select true, count(*), coalesce(sum(size_bytes), 0) from public.cv_documents
on conflict (id) do update set drafts = excluded.drafts, bytes = excluded.bytes;

/** The caps, before the row is written ***************************************************************************/
-- BEFORE INSERT OR UPDATE (after the draft's shape is checked: triggers fire in name order), for the API roles: the
-- hourly limits, the per-account caps and the overall cap. (size_bytes is computed after BEFORE triggers.)
create or replace function app_private.limit_cv_documents() returns trigger
language plpgsql security definer set search_path = '' as $$
declare
  limited boolean := coalesce(current_setting('role', true), '') in ('anon', 'authenticated');
  size bigint := octet_length(new.data::text);
  growth bigint;
  held_drafts bigint;
  held_bytes bigint;
  max_drafts bigint := app_private.limit_value('cv_documents_per_user', 25);
  max_bytes bigint := app_private.limit_value('cv_document_bytes_per_user', 2097152);
begin
  if not limited then
    return new;
  end if;
  growth := size - case when tg_op = 'UPDATE' then old.size_bytes else 0 end;
  if tg_op = 'INSERT' then
    perform app_private.take('cv_document:user', new.user_id::text,
                             app_private.limit_value('cv_document_per_user_per_hour', 30));
  end if;
  perform app_private.take('cv_document_save:user', new.user_id::text,
                           app_private.limit_value('cv_document_saves_per_user_per_hour', 1200));
  perform app_private.take('cv_document_save_bytes:user', new.user_id::text,
                           app_private.limit_value('cv_document_save_bytes_per_user_per_hour', 67108864),
                           size);
  -- one write per account at a time, so two concurrent saves cannot both pass the caps
  perform pg_advisory_xact_lock(7261334, hashtext(new.user_id::text));
  select count(*), coalesce(sum(d.size_bytes), 0) into held_drafts, held_bytes
    from public.cv_documents d where d.user_id = new.user_id and d.id <> new.id;
  if tg_op = 'INSERT' and held_drafts + 1 > max_drafts then
    raise exception 'You can keep up to % CVs: delete one to create another', max_drafts
      using errcode = '23514', hint = 'Delete a CV you no longer need from your dashboard.';
  end if;
  if growth > 0 and held_bytes + size > max_bytes then
    raise exception 'Your CVs would use more than the % MB your account may hold: shorten this CV or delete another',
      round(max_bytes / 1048576.0, 1)
      using errcode = '23514', hint = 'Delete a CV you no longer need, or shorten this one.';
  end if;
  if growth > 0 and (select t.bytes from app_private.cv_document_totals t) + growth
                    > app_private.limit_value('cv_document_bytes_total', 2147483648) then
    raise warning 'CV drafts storage is at its cap (limit:cv_document_bytes_total): growth refused';
    raise exception 'CV storage is full at the moment: your changes are kept on this device, please try again later'
      using errcode = '53100';
  end if;
  return new;
end
$$;
revoke all on function app_private.limit_cv_documents() from public;

drop trigger if exists limit_cv_documents on public.cv_documents;
create trigger limit_cv_documents before insert or update on public.cv_documents
  for each row execute function app_private.limit_cv_documents();

/** The overall totals, after the row is written ******************************************************************/
create or replace function app_private.count_cv_documents() returns trigger
language plpgsql security definer set search_path = '' as $$
begin
  update app_private.cv_document_totals t
     set drafts = t.drafts + case tg_op when 'INSERT' then 1 when 'DELETE' then -1 else 0 end,
         bytes = t.bytes + case when tg_op = 'DELETE' then 0 else new.size_bytes end
                         - case when tg_op = 'INSERT' then 0 else old.size_bytes end;
  return null;
end
$$;
revoke all on function app_private.count_cv_documents() from public;

create or replace function app_private.recount_cv_documents() returns trigger
language plpgsql security definer set search_path = '' as $$
begin
  update app_private.cv_document_totals t
     set drafts = (select count(*) from public.cv_documents),
         bytes = (select coalesce(sum(d.size_bytes), 0) from public.cv_documents d);
  return null;
end
$$;
revoke all on function app_private.recount_cv_documents() from public;

drop trigger if exists cv_documents_count on public.cv_documents;
create trigger cv_documents_count after insert or delete or update of data on public.cv_documents
  for each row execute function app_private.count_cv_documents();
drop trigger if exists cv_documents_recount on public.cv_documents;
create trigger cv_documents_recount after truncate on public.cv_documents
  for each statement execute function app_private.recount_cv_documents();

/** Saved jobs ****************************************************************************************************/
create or replace function app_private.limit_saved_jobs() returns trigger
language plpgsql security definer set search_path = '' as $$
declare
  max_saved bigint := app_private.limit_value('saved_jobs_per_user', 200);
begin
  if coalesce(current_setting('role', true), '') in ('anon', 'authenticated')
     and (select count(*) from public.saved_jobs s where s.user_id = new.user_id) >= max_saved then
    raise exception 'You can save up to % jobs: remove one to save another', max_saved using errcode = '23514';
  end if;
  return new;
end
$$;
revoke all on function app_private.limit_saved_jobs() from public;

drop trigger if exists limit_saved_jobs on public.saved_jobs;
create trigger limit_saved_jobs before insert on public.saved_jobs
  for each row execute function app_private.limit_saved_jobs();
