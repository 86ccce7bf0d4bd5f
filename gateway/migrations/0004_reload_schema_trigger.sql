-- Platform: tell running gateways to rebuild their schema cache after DDL (PostgREST's `NOTIFY pgrst`).
create or replace function gateway.notify_schema_reload() returns event_trigger
  language plpgsql set search_path = ''
as $$
begin
  perform pg_notify('pgrst', 'reload schema');
end;
$$;

drop event trigger if exists gateway_reload_schema;
create event trigger gateway_reload_schema on ddl_command_end
  execute function gateway.notify_schema_reload();
