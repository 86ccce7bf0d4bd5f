-- Platform: Supabase Realtime's `realtime` schema as apps and policies see it — `realtime.messages` (the table private
-- channels are authorised against, and where `realtime.send()` writes), `realtime.topic()`, `realtime.send()`,
-- `realtime.send_binary()`, `realtime.broadcast_changes()` with Supabase's signatures — plus the gateway's own parts:
-- the `supabase_realtime` publication for postgres_changes, the relay table and notify trigger that carry
-- messages between gateway instances, and the authorisation probe. Idempotent: applied on every `migrate`.
create schema if not exists realtime;
comment on schema realtime is 'Supabase Realtime: messages for private channels and broadcast from the database.';
grant usage on schema realtime to anon, authenticated, service_role, authenticator;

-- Not partitioned (Supabase partitions by day): the gateway deletes rows past their retention itself.
create table if not exists realtime.messages (
  topic text not null,
  extension text not null,
  payload jsonb,
  event text,
  private boolean default false,
  updated_at timestamp without time zone not null default now(),
  inserted_at timestamp without time zone not null default now(),
  id uuid not null default gen_random_uuid(),
  binary_payload bytea,
  constraint messages_payload_exclusive check (payload is null or binary_payload is null),
  constraint messages_pkey primary key (id, inserted_at)
);
create index if not exists messages_inserted_at_topic_index on realtime.messages (inserted_at desc, topic)
  where extension = 'broadcast' and private is true;
alter table realtime.messages enable row level security;
grant insert, select, update on realtime.messages to anon, authenticated, service_role;
comment on table realtime.messages is
  'Realtime Authorization: policies on this table decide who may read (select) and write (insert) private channels, per realtime.topic() and extension (broadcast, presence). Rows written by realtime.send() are broadcast.';

create or replace function realtime.topic() returns text
  language sql stable
as $$
  select nullif(current_setting('realtime.topic', true), '')::text;
$$;
comment on function realtime.topic() is 'The sub-topic being authorised (for policies on realtime.messages).';

create or replace function realtime.send(payload jsonb, event text, topic text, private boolean default true)
  returns void language plpgsql
as $$
declare
  generated_id uuid;
  final_payload jsonb;
begin
  begin
    generated_id := gen_random_uuid();
    final_payload := case when payload ? 'id' then payload else jsonb_set(payload, '{id}', to_jsonb(generated_id)) end;
    perform set_config('realtime.topic', topic, true);
    insert into realtime.messages (id, payload, event, topic, private, extension)
    values (generated_id, final_payload, event, topic, private, 'broadcast');
  exception when others then
    raise warning 'WarnSendingBroadcastMessage: %', sqlerrm;
  end;
end;
$$;
comment on function realtime.send(jsonb, text, text, boolean) is
  'Broadcasts payload (with an "id" added unless present) as event on topic once the transaction commits; private by default. Never raises: errors become a warning.';

create or replace function realtime.send_binary(payload bytea, event text, topic text, private boolean default true)
  returns void language plpgsql
as $$
declare
  generated_id uuid;
begin
  begin
    generated_id := gen_random_uuid();
    perform set_config('realtime.topic', topic, true);
    insert into realtime.messages (id, binary_payload, event, topic, private, extension)
    values (generated_id, payload, event, topic, private, 'broadcast');
  exception when others then
    raise warning 'WarnSendingBroadcastMessage: %', sqlerrm;
  end;
end;
$$;

create or replace function realtime.broadcast_changes(
  topic_name text, event_name text, operation text, table_name text, table_schema text, new record, old record,
  level text default 'ROW'
) returns void language plpgsql
as $$
declare
  row_data jsonb := '{}'::jsonb;
begin
  if level = 'STATEMENT' then
    raise exception 'function can only be triggered for each row, not for each statement';
  end if;
  if operation in ('INSERT', 'UPDATE', 'DELETE') then
    row_data := jsonb_build_object('old_record', old, 'record', new, 'operation', operation, 'table', table_name,
                                   'schema', table_schema);
    perform realtime.send(row_data, event_name, topic_name);
  else
    raise exception 'Unexpected operation type: %', operation;
  end if;
exception when others then
  raise exception 'Failed to process the row: %', sqlerrm;
end;
$$;

grant execute on function realtime.topic(), realtime.send(jsonb, text, text, boolean),
  realtime.send_binary(bytea, text, text, boolean),
  realtime.broadcast_changes(text, text, text, text, text, record, record, text)
  to anon, authenticated, service_role, authenticator;

-- Between gateway instances: envelopes too large for NOTIFY's 8000 bytes wait here, the notification carries the id.
create unlogged table if not exists realtime.relay (
  id bigint generated always as identity primary key,
  body text not null,
  created_at timestamptz not null default now()
);
revoke all on realtime.relay from public;
grant select, insert, delete on realtime.relay to authenticator;
comment on table realtime.relay is 'Gateway instances: message bodies over NOTIFY''s size limit, kept a few minutes.';

-- A committed broadcast row reaches every gateway instance (rolled-back authorisation probes never do).
create or replace function realtime.notify_message() returns trigger
  language plpgsql security definer set search_path = ''
as $$
declare
  body text;
  relay_id bigint;
begin
  if new.extension <> 'broadcast' then
    return null;
  end if;
  body := json_build_object('id', new.id, 'topic', new.topic, 'event', new.event, 'private', coalesce(new.private, false),
    'payload', new.payload, 'bin', translate(encode(new.binary_payload, 'base64'), E'\n', ''))::text;
  if octet_length(body) > 7800 then
    insert into realtime.relay (body) values (body) returning id into relay_id;
    body := json_build_object('relay', relay_id)::text;
  end if;
  perform pg_notify('realtime_messages', body);
  return null;
end;
$$;
revoke all on function realtime.notify_message() from public;
drop trigger if exists notify_message on realtime.messages;
create trigger notify_message after insert on realtime.messages for each row execute function realtime.notify_message();

-- Realtime Authorization's read check: rows written as the table owner (RLS does not apply), then read back as the
-- caller's role; the caller's transaction rolls them back.
create or replace function realtime.authorization_probe(probe_topic text, extensions text[])
  returns table (id uuid, extension text)
  language sql security definer set search_path = ''
as $$
  insert into realtime.messages (topic, extension, private)
  select probe_topic, e, true from unnest(extensions) e
  returning messages.id, messages.extension;
$$;
revoke all on function realtime.authorization_probe(text, text[]) from public;
grant execute on function realtime.authorization_probe(text, text[]) to authenticator;

-- Retention: broadcast rows past their age and relayed bodies past a few minutes.
create or replace function realtime.delete_expired(retention interval) returns void
  language sql security definer set search_path = ''
as $$
  delete from realtime.messages where inserted_at < now() - retention;
  delete from realtime.relay where created_at < now() - interval '5 minutes';
$$;
revoke all on function realtime.delete_expired(interval) from public;
grant execute on function realtime.delete_expired(interval) to authenticator;

-- postgres_changes: tables added to this publication (`alter publication supabase_realtime add table …`) stream changes.
do $$
begin
  if not exists (select 1 from pg_publication where pubname = 'supabase_realtime') then
    create publication supabase_realtime;
  end if;
exception when duplicate_object then
  null;
end
$$;
