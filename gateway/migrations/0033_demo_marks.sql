-- Platform: what production mode (GATEWAY_ENV=production) refuses to start with. Demo content registers its accounts
-- in gateway.demo_accounts; a signing key whose service_role key was printed outside production is marked
-- `exposed_at` (`gateway keys` does it). Idempotent: re-run on every migrate.
create table if not exists gateway.demo_accounts (
  user_id uuid primary key references auth.users (id) on delete cascade,
  email text
);
comment on table gateway.demo_accounts is
  'Accounts created by demo content (published passwords): GATEWAY_ENV=production refuses to start while any exists.';

-- A database that make run filled with demo content before these marks existed printed its API keys: mark its
-- keys once, when the column is added (never again, so a key made by a later rotation stays unmarked).
do $$
begin
  if not exists (select 1 from information_schema.columns
                 where table_schema = 'gateway' and table_name = 'signing_keys' and column_name = 'exposed_at') then
    alter table gateway.signing_keys add column exposed_at timestamptz;
    if to_regclass('gateway.demo_loaded') is not null then
      update gateway.signing_keys set exposed_at = now() where status <> 'revoked';
    end if;
  end if;
end
$$;
comment on column gateway.signing_keys.exposed_at is
  'When a service_role key signed by this key was printed outside production; such a key must be rotated and revoked before GATEWAY_ENV=production.';

-- The production check reads both as the pool user.
grant select on gateway.demo_accounts to authenticator;
