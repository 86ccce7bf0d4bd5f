-- Platform (auth): tokens of an ended session or a deleted user are refused by every API (REST, Storage, Realtime,
-- the site) while they are unexpired, as Auth's own endpoints refuse them. A row per ended session (sign-out, a new
-- password, a reused refresh token, a deleted user's sessions) and per deleted user, with a notification on
-- `gateway_revocations` that every gateway on the database hears (`<kind> <id> <unix seconds>`); a gateway reads
-- the recent rows again whenever its listener (re)connects. Rows older than a day go now and then (a gateway holds
-- an entry only as long as a token issued before it can live).
create table if not exists gateway.revocations (
  kind text not null check (kind in ('session', 'user')),
  id uuid not null,
  revoked_at timestamptz not null default clock_timestamp(),
  primary key (kind, id)
);
create index if not exists revocations_revoked_at on gateway.revocations (revoked_at);
comment on table gateway.revocations is
  'Ended sessions and deleted users whose unexpired access tokens every gateway refuses (NOTIFY gateway_revocations).';
grant select on gateway.revocations to authenticator;

create or replace function gateway.record_revocation() returns trigger
  language plpgsql security definer set search_path = ''
as $$
declare
  what text := case tg_table_name when 'sessions' then 'session' else 'user' end;
  stamp timestamptz := clock_timestamp();
begin
  insert into gateway.revocations as r (kind, id, revoked_at) values (what, old.id, stamp)
  on conflict (kind, id) do update set revoked_at = excluded.revoked_at;
  perform pg_notify('gateway_revocations', what || ' ' || old.id::text || ' ' || extract(epoch from stamp)::text);
  if random() < 0.01 then
    delete from gateway.revocations r where r.revoked_at < now() - interval '1 day';
  end if;
  return null;
end;
$$;
revoke all on function gateway.record_revocation() from public;

drop trigger if exists sessions_revoked on auth.sessions;
create trigger sessions_revoked after delete on auth.sessions
  for each row execute function gateway.record_revocation();
drop trigger if exists users_revoked on auth.users;
create trigger users_revoked after delete on auth.users
  for each row execute function gateway.record_revocation();

-- Storage writes check the database as well, so a write that races the notification (or reaches a gateway whose
-- listener is reconnecting) is refused too: an object is never written for an ended session, nor owned by a
-- deleted user (directly or through a signed upload URL, which runs with its minter's `sub`). Two key lookups per
-- write; reads are not checked here.
create or replace function gateway.refuse_revoked_writer() returns trigger
  language plpgsql security definer set search_path = ''
as $$
declare
  claims jsonb := nullif(current_setting('request.jwt.claims', true), '')::jsonb;
  session text := claims ->> 'session_id';
begin
  if session ~* '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$'
     and exists (select 1 from gateway.revocations r where r.kind = 'session' and r.id = session::uuid) then
    raise exception 'the session of this token has ended' using errcode = '42501';
  end if;
  if new.owner is not null
     and (tg_op = 'INSERT' or new.owner is distinct from old.owner)
     and exists (select 1 from gateway.revocations r where r.kind = 'user' and r.id = new.owner)
     and not exists (select 1 from auth.users u where u.id = new.owner) then
    raise exception 'the user of this token no longer exists' using errcode = '42501';
  end if;
  return new;
end;
$$;
revoke all on function gateway.refuse_revoked_writer() from public;
drop trigger if exists objects_refuse_revoked_writer on storage.objects;
create trigger objects_refuse_revoked_writer before insert or update on storage.objects
  for each row execute function gateway.refuse_revoked_writer();
