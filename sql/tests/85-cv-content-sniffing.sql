-- Content sniffing as a bucket option (gateway/migrations/0081, sql/migrations/0370): the site's cvs bucket has it on,
-- a new bucket starts with Storage's rule (off), and no API role but service_role can switch it (no policy on
-- storage.buckets lets anon, a candidate or an admin's token update a bucket).
begin;
\ir lib/setup.sql
select plan(7);

-- Rows an UPDATE of storage.buckets changes as the current role (row-level security deciding).
create function tests.bucket_updates(bucket text, sniff boolean) returns int language plpgsql as $$
declare
  n int;
begin
  update storage.buckets set sniff_content = sniff where id = bucket;
  get diagnostics n = row_count;
  return n;
end
$$;

select is((select sniff_content from storage.buckets where id = 'cvs'), true, 'cvs: content sniffing on');
insert into storage.buckets (id, name) values ('pgtap-plain', 'pgtap-plain');
select is((select sniff_content from storage.buckets where id = 'pgtap-plain'), false,
  'a new bucket: Storage''s declared-type rule');

select tests.as_anon();
select is(tests.bucket_updates('cvs', false), 0, 'anon cannot switch it off');
select tests.as_user('cand1');
select is(tests.bucket_updates('cvs', false), 0, 'a candidate cannot switch it off');
select tests.as_user('admin');
select is(tests.bucket_updates('cvs', false), 0, 'an admin''s token cannot switch it off (a migration does)');
select tests.as_service();
select is(tests.bucket_updates('pgtap-plain', true), 1, 'service_role can');
select tests.as_owner();
select is((select sniff_content from storage.buckets where id = 'cvs'), true, 'cvs: still on');

select * from finish();
rollback;
