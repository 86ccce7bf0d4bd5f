-- Platform (auth): running gateways reload their key set when `gateway keys` changes it (they also poll).
create or replace function gateway.notify_keys_changed() returns trigger
  language plpgsql set search_path = ''
as $$
begin
  perform pg_notify('gateway_keys', 'reload');
  return null;
end;
$$;

drop trigger if exists signing_keys_changed on gateway.signing_keys;
create trigger signing_keys_changed after insert or update or delete on gateway.signing_keys
  for each statement execute function gateway.notify_keys_changed();
