-- Platform: the storage sweep queue. When a row of storage.objects is deleted by anything other than the Storage
-- API (a cascade, an app function, an owner's DELETE), its contents would stay in the backend forever. An AFTER
-- DELETE trigger queues the deleted version here, in the same transaction, and the gateway's sweep task
-- (gateway/src/storage/sweep.rs) removes the file or S3 object and then the queue row. A rolled-back delete queues
-- nothing. Deletes made by the Storage API are queued too; removing an already removed file is a no-op.
-- Idempotent: re-run on every migrate.
create table if not exists gateway.storage_sweep (
  id bigint generated always as identity primary key,
  bucket_id text not null,
  name text not null,
  version text,
  deleted_at timestamptz not null default now()
);
comment on table gateway.storage_sweep is
  'Object versions whose storage.objects row was deleted; the gateway removes their contents, then the row.';

create or replace function gateway.queue_object_removal() returns trigger
language plpgsql security definer set search_path = '' as $$
begin
  if old.bucket_id is not null and old.name is not null then
    insert into gateway.storage_sweep (bucket_id, name, version) values (old.bucket_id, old.name, old.version);
  end if;
  return null;
end
$$;
revoke all on function gateway.queue_object_removal() from public;
comment on function gateway.queue_object_removal() is 'Trigger: queues a deleted object version for the storage sweep.';

drop trigger if exists queue_object_removal on storage.objects;
create trigger queue_object_removal after delete on storage.objects
  for each row execute function gateway.queue_object_removal();

-- The sweep runs on the pool user's own connection (never as an API role).
-- (UPDATE only because FOR UPDATE needs it; the sweep never updates.)
grant select, update, delete on gateway.storage_sweep to authenticator;
