-- Platform: extra header fields on outbox mail (e.g. RFC 8058's List-Unsubscribe and List-Unsubscribe-Post, or
-- RFC 2369's List-Id), and mail to a recipient the app vouches for. gateway.enqueue_mail_with_headers() queues a
-- message with a JSON object of header names to text values; the worker adds them to the message as they are. Only
-- header names that are tokens and not ones the gateway writes itself (From, To, Subject, Date, Message-ID,
-- MIME-Version, Content-*, …) are allowed, values are one line of at most 998 characters, at most 20 headers.
-- `proven` = the app vouches that the recipient proved they own the address (e.g. a confirmed double opt-in): the
-- hourly caps of 0031 then do not apply, as for confirmed accounts. Idempotent: re-run on every migrate.
set local client_min_messages = warning;

create or replace function gateway.outbox_headers_ok(headers jsonb) returns boolean
language sql immutable set search_path = '' as $$
  select jsonb_typeof(headers) = 'object'
     and (select count(*) from jsonb_object_keys(headers)) <= 20
     and not exists (
       select 1 from jsonb_each(headers) h
       where jsonb_typeof(h.value) <> 'string'
          or h.key !~ '^[A-Za-z0-9][A-Za-z0-9-]{0,75}$'
          or lower(h.key) in ('from', 'to', 'cc', 'bcc', 'subject', 'date', 'message-id', 'mime-version', 'sender',
                              'reply-to', 'return-path', 'received', 'dkim-signature', 'content-transfer-encoding')
          or lower(h.key) like 'content-%'
          or (h.value #>> '{}') ~ '[\r\n]'
          or length(h.value #>> '{}') > 998)
$$;
revoke all on function gateway.outbox_headers_ok(jsonb) from public;
-- The worker updates rows as the pool user, which re-checks the constraint.
grant execute on function gateway.outbox_headers_ok(jsonb) to authenticator;
comment on function gateway.outbox_headers_ok(jsonb) is
  'Whether a JSON object may be an outbox message''s extra headers: ≤ 20 token names the gateway does not write itself, one-line text values ≤ 998 characters.';

alter table gateway.outbox add column if not exists headers jsonb not null default '{}';
alter table gateway.outbox drop constraint if exists outbox_headers_check;
alter table gateway.outbox add constraint outbox_headers_check check (gateway.outbox_headers_ok(headers));
comment on column gateway.outbox.headers is 'Extra header fields of the message: {"Name": "value"} (gateway.outbox_headers_ok).';

-- Queues one message with extra headers; `proven` skips the hourly caps (the app vouches for the recipient).
create or replace function gateway.enqueue_mail_with_headers(
  to_address text, subject text, body_text text, body_html text, headers jsonb, proven boolean default false)
returns bigint
language plpgsql security definer set search_path = '' as $$
declare
  new_id bigint;
  r record;
begin
  if not proven then
    new_id := gateway.enqueue_mail(to_address, subject, body_text, body_html);
    update gateway.outbox o set headers = coalesce(enqueue_mail_with_headers.headers, '{}') where o.id = new_id;
    return new_id;
  end if;
  select * into r from gateway.outbox_recipient(enqueue_mail_with_headers.to_address);
  insert into gateway.outbox (to_address, subject, body_text, body_html, recipient_key, recipient_domain, headers)
  values (enqueue_mail_with_headers.to_address, enqueue_mail_with_headers.subject, enqueue_mail_with_headers.body_text,
          enqueue_mail_with_headers.body_html, r.recipient_key, r.recipient_domain,
          coalesce(enqueue_mail_with_headers.headers, '{}'))
  returning id into new_id;
  perform pg_notify('gateway_outbox', new_id::text);
  return new_id;
end
$$;
revoke all on function gateway.enqueue_mail_with_headers(text, text, text, text, jsonb, boolean) from public;
comment on function gateway.enqueue_mail_with_headers(text, text, text, text, jsonb, boolean) is
  'Queues an e-mail with extra header fields (e.g. List-Unsubscribe); proven = the app vouches the recipient owns the address (double opt-in), so the hourly caps do not apply.';
