-- U2 in SQL (sql/migrations/0360_ipv6_client_networks.sql, 0361_global_caps_alert.sql): an IPv6 client is counted
-- by its /64, so addresses rotated inside it share one bucket while another /64 has its own; the global hourly caps
-- alert the firm (once, through the outbox) at the old levels instead of refusing everyone, and refuse only far above
-- them; uploads are limited in bytes per client too.
begin;
\ir lib/setup.sql
select plan(14);

-- Applications from one /64: ten an hour, whatever address inside it sends them.
select tests.as_owner();
delete from private.submission_log;
create function pg_temp.apply(address text, n int) returns text language plpgsql as $$
begin
  perform set_config('request.headers', json_build_object('x-forwarded-for', address)::text, true);
  insert into public.enquiries (name, email) values ('Hal Jordan', 'h' || n || '@example.org');
  return 'ok';
exception when sqlstate 'PGRST' then
  return '429';
end $$;
grant execute on function pg_temp.apply(text, int) to anon;
select tests.as_anon();
select is(array_agg(pg_temp.apply('2001:db8:1:2::' || to_hex(i), i) order by i), array_fill('ok'::text, array[10]),
  'anon: ten enquiries from ten addresses of one /64')
  from generate_series(1, 10) i;
select is(pg_temp.apply('2001:db8:1:2::ffff', 11), '429', 'anon: the eleventh, from yet another address of it, is refused');
select is(pg_temp.apply('2001:db8:1:2:abcd:ef01:2345:6789', 12), '429', 'anon: and from any other address of it');
select is(pg_temp.apply('2001:db8:1:3::1', 13), 'ok', 'anon: the next /64 has its own bucket');
select is(pg_temp.apply('203.0.113.50', 14), 'ok', 'anon: an IPv4 client has its own bucket');
select tests.as_owner();
select ok((select bool_and(client_key like 'h:%') from private.submission_log), 'keys are still salted hashes');

-- Global levels: the alert level mails the firm once and refuses no one; the hard cap refuses.
delete from private.submission_log;
delete from private.hourly_totals;
delete from gateway.outbox;
update private.settings set value = 'inbox@firm.example' where key = 'firm_inbox';
insert into private.settings (key, value) values ('limit:enquiry_alert_per_hour', '3'), ('limit:enquiry_per_hour', '6');
select tests.as_anon();
select is(array_agg(pg_temp.apply('198.51.100.' || i, 100 + i) order by i), array_fill('ok'::text, array[6]),
  'anon: past the alert level, six clients'' enquiries are all accepted')
  from generate_series(1, 6) i;
select is(pg_temp.apply('198.51.100.7', 107), '429', 'anon: past the hard cap a new client is refused');
select tests.as_owner();
select is((select count(*)::int from gateway.outbox where to_address = 'inbox@firm.example' and subject like 'Unusual activity%'), 1,
  'the firm is mailed once an hour, not once per submission');
select is((select subject from gateway.outbox where subject like 'Unusual activity%'),
  'Unusual activity on the site: more than 3 enquiries in an hour', 'the alert names the kind and the level');
select is((select count(*)::int from private.limit_alerts where kind = 'enquiry:all'), 1, 'and is recorded');
select is((select amount::int from private.hourly_totals where kind = 'enquiry:all'), 6,
  'the refused submission is not counted');
select ok(private.limit_value('application_per_hour', 2000) = 2000
          and not exists (select 1 from private.settings where key = 'limit:application_per_hour'),
  'by default the hard cap is 2,000 applications an hour (ten times the alert level of 200)');

-- Uploads: bytes per client.
delete from private.submission_log;
insert into private.settings (key, value) values ('limit:upload_bytes_per_client_per_hour', '1000');
select tests.as_anon();
select set_config('request.headers', '{"x-forwarded-for": "2001:db8:9:9::1"}', true);
select throws_ok($$ insert into storage.objects (bucket_id, name, metadata)
                    values ('cvs', gen_random_uuid() || '/a.pdf', '{"size": 1500}') $$, 'PGRST', null,
  'anon: an upload over the client''s hourly bytes is refused');

select * from finish();
rollback;
