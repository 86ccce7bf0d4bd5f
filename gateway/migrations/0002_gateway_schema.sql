-- Platform: the gateway's own bookkeeping schema. Not exposed through the data API.
create schema if not exists gateway;
revoke all on schema gateway from public;

comment on schema gateway is 'Owned by the gateway: migrations, signing keys, mail outbox. Never exposed.';

create table if not exists gateway.schema_migrations (
  name text primary key,
  checksum text not null,
  applied_at timestamptz not null default now()
);
comment on table gateway.schema_migrations is 'Applied app migrations from sql/migrations, append-only.';

create table if not exists gateway.signing_keys (
  kid text primary key,
  algorithm text not null check (algorithm in ('ES256', 'RS256')),
  status text not null check (status in ('standby', 'current', 'previous', 'revoked')),
  private_key_der bytea not null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create unique index if not exists signing_keys_one_current on gateway.signing_keys ((true)) where status = 'current';
comment on table gateway.signing_keys is 'JWT signing keys shared by every gateway instance; status follows standby → current → previous → revoked.';

-- The pool user reads keys (to verify and sign) but only the owner (migrate / keys commands) writes them.
grant usage on schema gateway to authenticator;
grant select on gateway.signing_keys to authenticator;
