-- Platform: caps on the mail outbox, so SQL that mails on behalf of anonymous visitors (e.g. an acknowledgement to
-- an address typed into a public form) cannot make the gateway a mail relay. Mail to an address nobody has proven
-- they own is capped, counted over the last hour: per recipient (lower-cased, `+tag` removed, so `victim+1@x` and
-- `victim+2@x` are one), per recipient domain, and overall. Past a cap, gateway.enqueue_mail() records the message
-- as `suppressed` (never delivered, kept for the operator) and warns. Proven addresses are those of confirmed
-- accounts (auth.users.email_confirmed_at) and those listed in gateway.outbox_proven_recipients (e.g. the firm's own
-- inbox, which app SQL registers). Idempotent: re-run on every migrate.
set local client_min_messages = warning;

create table if not exists gateway.outbox_caps (
  id boolean primary key default true check (id),
  per_recipient_per_hour integer not null default 5 check (per_recipient_per_hour >= 0),
  per_domain_per_hour integer not null default 50 check (per_domain_per_hour >= 0),
  global_per_hour integer not null default 500 check (global_per_hour >= 0)
);
insert into gateway.outbox_caps (id) values (true) on conflict (id) do nothing;
comment on table gateway.outbox_caps is
  'Hourly caps of gateway.enqueue_mail (per recipient without +tag, per recipient domain, overall); past them mail is kept as suppressed, never sent. Edit the one row to change them.';

create table if not exists gateway.outbox_proven_recipients (
  address text primary key check (address = lower(address))
);
comment on table gateway.outbox_proven_recipients is
  'Addresses the deployment vouches for (its own inboxes): mail to them is never capped by gateway.outbox_caps.';

alter table gateway.outbox drop constraint if exists outbox_status_check;
alter table gateway.outbox add constraint outbox_status_check check (status in ('queued', 'sent', 'failed', 'suppressed'));
alter table gateway.outbox add column if not exists recipient_key text;
alter table gateway.outbox add column if not exists recipient_domain text;
create index if not exists outbox_recent_recipient on gateway.outbox (recipient_key, created_at);
create index if not exists outbox_recent_domain on gateway.outbox (recipient_domain, created_at);
create index if not exists outbox_recent on gateway.outbox (created_at);

-- `Ann.Lee+jobs@Example.org` → (`ann.lee@example.org`, `example.org`).
create or replace function gateway.outbox_recipient(address text, out recipient_key text, out recipient_domain text)
language sql immutable set search_path = '' as $$
  select regexp_replace(lower(split_part(address, '@', 1)), '\+.*$', '') || '@' || lower(split_part(address, '@', 2)),
         lower(split_part(address, '@', 2))
$$;
revoke all on function gateway.outbox_recipient(text) from public;

-- Whether someone proved they own `address`: a confirmed account, or an address the deployment listed.
create or replace function gateway.outbox_recipient_proven(address text) returns boolean
language sql stable security definer set search_path = '' as $$
  select exists (select 1 from gateway.outbox_proven_recipients p where p.address = lower(outbox_recipient_proven.address))
      or exists (select 1 from auth.users u where lower(u.email) = lower(outbox_recipient_proven.address)
                  and u.email_confirmed_at is not null)
$$;
revoke all on function gateway.outbox_recipient_proven(text) from public;

-- Queues one message and wakes the worker (the notification is delivered at commit); mail to an unproven address
-- past a cap is kept as suppressed instead.
create or replace function gateway.enqueue_mail(to_address text, subject text, body_text text, body_html text default null)
returns bigint
language plpgsql security definer set search_path = '' as $$
declare
  new_id bigint;
  r record;
  caps gateway.outbox_caps;
  over text;
begin
  select * into r from gateway.outbox_recipient(enqueue_mail.to_address);
  select * into caps from gateway.outbox_caps;
  -- one writer at a time per domain, so concurrent requests cannot all slip under a cap
  perform pg_advisory_xact_lock(7261002, hashtext(r.recipient_domain));
  over := case
    when gateway.outbox_recipient_proven(enqueue_mail.to_address) then null
    when (select count(*) from gateway.outbox o where o.created_at > now() - interval '1 hour'
           and o.status <> 'suppressed') >= coalesce(caps.global_per_hour, 500) then 'the hourly cap on all mail'
    when (select count(*) from gateway.outbox o where o.recipient_domain = r.recipient_domain
           and o.created_at > now() - interval '1 hour' and o.status <> 'suppressed') >= coalesce(caps.per_domain_per_hour, 50)
      then 'the hourly cap for ' || r.recipient_domain
    when (select count(*) from gateway.outbox o where o.recipient_key = r.recipient_key
           and o.created_at > now() - interval '1 hour' and o.status <> 'suppressed') >= coalesce(caps.per_recipient_per_hour, 5)
      then 'the hourly cap for this recipient'
  end;
  insert into gateway.outbox (to_address, subject, body_text, body_html, recipient_key, recipient_domain, status, last_error)
  values (enqueue_mail.to_address, enqueue_mail.subject, enqueue_mail.body_text, enqueue_mail.body_html,
          r.recipient_key, r.recipient_domain,
          case when over is null then 'queued' else 'suppressed' end,
          case when over is null then null else 'suppressed: over ' || over end)
  returning id into new_id;
  if over is null then
    perform pg_notify('gateway_outbox', new_id::text);
  else
    raise warning 'mail to % suppressed: over %', r.recipient_domain, over;
  end if;
  return new_id;
end
$$;
revoke all on function gateway.enqueue_mail(text, text, text, text) from public;
comment on function gateway.enqueue_mail(text, text, text, text) is
  'Queues an e-mail for delivery by the gateway; returns its outbox id. Past a cap of gateway.outbox_caps the message is kept as suppressed (never sent).';
