-- Platform: the mail outbox. App SQL (triggers, functions) queues messages with gateway.enqueue_mail(); the
-- gateway's worker delivers them through its Mailer with retries, so a queued message survives restarts and SMTP
-- outages. Idempotent: re-run on every migrate.
create table if not exists gateway.outbox (
  id bigint generated always as identity primary key,
  to_address text not null check (length(to_address) <= 320 and to_address ~ '^[^@\s<>,;]+@[^@\s<>,;]+$'),
  subject text not null check (length(subject) <= 998 and subject !~ '[\r\n]'),
  body_text text not null,
  body_html text,
  status text not null default 'queued' check (status in ('queued', 'sent', 'failed')),
  attempts integer not null default 0,
  next_attempt_at timestamptz not null default now(),
  last_error text,
  created_at timestamptz not null default now(),
  sent_at timestamptz
);
create index if not exists outbox_due on gateway.outbox (next_attempt_at) where status = 'queued';
comment on table gateway.outbox is 'Mail queued by SQL (gateway.enqueue_mail) and delivered by the gateway: queued → sent, or failed on a permanent error.';

-- Queues one message and wakes the worker (the notification is delivered at commit).
create or replace function gateway.enqueue_mail(to_address text, subject text, body_text text, body_html text default null)
returns bigint
language plpgsql security definer set search_path = '' as $$
declare
  new_id bigint;
begin
  insert into gateway.outbox (to_address, subject, body_text, body_html)
  values (enqueue_mail.to_address, enqueue_mail.subject, enqueue_mail.body_text, enqueue_mail.body_html)
  returning id into new_id;
  perform pg_notify('gateway_outbox', new_id::text);
  return new_id;
end
$$;
-- Not callable by the API roles (never an RPC); app triggers call it as their owner.
revoke all on function gateway.enqueue_mail(text, text, text, text) from public;
comment on function gateway.enqueue_mail(text, text, text, text) is 'Queues an e-mail for delivery by the gateway; returns its outbox id.';

-- The worker runs on the pool user's own connection (never as an API role).
grant select, update on gateway.outbox to authenticator;
