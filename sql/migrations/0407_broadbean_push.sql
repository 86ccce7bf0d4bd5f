-- Vacancies 8/n (issue 24 §4): jobs in from Broadbean (AdCourier). Broadbean posts one XML document per job to the
-- address the agency gives it — here POST /rest/v1/rpc/broadbean with Content-Type: text/xml, which the gateway
-- passes whole to this function's single unnamed xml parameter (PostgREST's raw body). The document carries the
-- command (add or delete), the credentials and the job:
--   <job><command>add</command><username>…</username><password>…</password><job_reference>…</job_reference>
--        <job_title>…</job_title><job_type>Permanent|Contract|Temporary|Interim|Fixed Term</job_type>
--        <job_description>(HTML)</job_description><job_location>…</job_location><job_industry>…</job_industry>
--        <job_skills>a|b</job_skills><salary_from/><salary_to/><salary_per>annum|month|week|day|hour</salary_per>
--        <salary_currency/currency>GBP</…><salary>…</salary><salary_display>…</salary_display><company>…</company>
--        <contact_name/><contact_email/> (or consultant_name/consultant_email)<days_to_advertise>28</days_to_advertise></job>
-- add upserts the job on external_id = 'broadbean:<job_reference>' (live at once); delete closes it. The answer is
-- JSON: 200 {status: added|updated|closed, job_reference, id, url} — the url is the job's page, for Broadbean's
-- advert link. Refusals change nothing and say why, with the HTTP status Broadbean reads: 401 wrong credentials
-- (or none set up), 400 a missing field (all named) or an unknown command, 404 delete of an unknown reference,
-- 413 a document over 256 kB, 429 too many pushes from one client. Malformed XML never reaches the function: the
-- cast to xml fails first (400, code 2200N).
-- Credentials are stored hashed (bcrypt) in app_private.feed_credentials and rotated with `make broadbean-credentials`
-- (app_private.rotate_feed_credentials('broadbean'), which prints the new password once).
set local client_min_messages = warning;

create table app_private.feed_credentials (
  feed text primary key check (feed in ('broadbean')),
  username text not null check (btrim(username) <> ''),
  password_hash text not null,
  rotated_at timestamptz not null default now()
);
comment on table app_private.feed_credentials is 'Credentials of inbound job feeds (bcrypt hashes). Never readable through the API.';
alter table app_private.feed_credentials enable row level security;
revoke all on app_private.feed_credentials from public, anon, authenticated, service_role;

-- New credentials for a feed (the username stays unless one is given); returns the password, shown only now.
create or replace function app_private.rotate_feed_credentials(feed_name text, new_username text default null)
returns table (username text, password text)
  language plpgsql volatile security definer set search_path = ''
as $$
declare
  secret text := encode(extensions.gen_random_bytes(18), 'base64');
  who text;
begin
  secret := translate(secret, '+/=', 'xyz');
  who := coalesce(nullif(btrim(new_username), ''),
                  (select c.username from app_private.feed_credentials c where c.feed = feed_name), feed_name);
  insert into app_private.feed_credentials (feed, username, password_hash, rotated_at)
  values (feed_name, who, extensions.crypt(secret, extensions.gen_salt('bf', 10)), now())
  on conflict (feed) do update set username = excluded.username, password_hash = excluded.password_hash,
    rotated_at = excluded.rotated_at;
  return query select who, secret;
end;
$$;
revoke all on function app_private.rotate_feed_credentials(text, text) from public;
comment on function app_private.rotate_feed_credentials(text, text) is
  'Sets new random credentials for an inbound feed (stored as a bcrypt hash) and returns them once.';

-- Job description HTML (what Broadbean sends) as the plain text with paragraphs and "- " list items that the jobs
-- table holds: block ends become blank lines, list items lines, other tags are dropped, entities decoded.
create or replace function app_private.html_to_text(html text) returns text
  language sql immutable set search_path = ''
as $$
  select btrim(regexp_replace(regexp_replace(
    replace(replace(replace(replace(replace(replace(replace(
      regexp_replace(regexp_replace(regexp_replace(regexp_replace(coalesce(html, ''),
        '<\s*br\s*/?\s*>', E'\n', 'gi'),
        '<\s*li[^>]*>', E'\n- ', 'gi'),
        '<\s*/\s*(p|div|h[1-6]|ul|ol|table|tr)\s*>', E'\n\n', 'gi'),
        '<[^>]*>', '', 'g'),
      '&nbsp;', ' '), '&quot;', '"'), '&#39;', ''''), '&apos;', ''''), '&lt;', '<'), '&gt;', '>'), '&amp;', '&'),
    '[ \t]+\n', E'\n', 'g'), '\n{3,}', E'\n\n', 'g'), E' \n\t')
$$;
revoke all on function app_private.html_to_text(text) from public;
comment on function app_private.html_to_text(text) is 'HTML as plain text with blank lines between blocks and "- " list items.';

-- The answer to a push: sets the HTTP status, returns the JSON body.
create or replace function app_private.feed_answer(status int, body jsonb) returns jsonb
  language plpgsql volatile set search_path = ''
as $$
begin
  perform set_config('response.status', status::text, true);
  return body;
end;
$$;
revoke all on function app_private.feed_answer(int, jsonb) from public;

create or replace function app_private.broadbean_push(doc xml) returns jsonb
  language plpgsql volatile security definer set search_path = ''
as $$
declare
  f record;
  cred app_private.feed_credentials;
  missing text[];
  ref text;
  basis public.employment_type;
  period public.salary_period;
  existing public.jobs;
  job public.jobs;
  site text := (public.site_identity()).site_url;
begin
  -- Every push counts, answered or refused (pushes come from Broadbean's servers: generous, but bounded).
  perform app_private.take('broadbean:client', app_private.client_ip(), app_private.limit_value('broadbean_per_client_per_hour', 600));
  perform app_private.take('broadbean:all', 'all', app_private.limit_value('broadbean_per_hour', 3000));
  if octet_length(doc::text) > 256 * 1024 then
    return app_private.feed_answer(413, jsonb_build_object('error', 'too_large',
      'message', 'The document is larger than 256 kB.'));
  end if;
  if xpath_exists('/job', doc) is not true then
    return app_private.feed_answer(400, jsonb_build_object('error', 'bad_document',
      'message', 'Expected one <job> document.'));
  end if;
  select * into f from xmltable('/job' passing doc columns
    command text path 'command', username text path 'username', password text path 'password',
    job_reference text path 'job_reference', job_title text path 'job_title', job_type text path 'job_type',
    job_description text path 'job_description', job_location text path 'job_location',
    job_industry text path 'job_industry', job_skills text path 'job_skills', salary_from text path 'salary_from',
    salary_to text path 'salary_to', salary_per text path 'salary_per',
    currency text path 'concat(salary_currency, currency)', salary text path 'salary',
    salary_display text path 'salary_display', company text path 'company',
    contact_name text path 'concat(contact_name, consultant_name)',
    contact_email text path 'concat(contact_email, consultant_email)',
    days_to_advertise text path 'days_to_advertise');

  select * into cred from app_private.feed_credentials c where c.feed = 'broadbean';
  if cred.feed is null or f.username is distinct from cred.username
     or extensions.crypt(coalesce(f.password, ''), cred.password_hash) <> cred.password_hash then
    return app_private.feed_answer(401, jsonb_build_object('error', 'unauthorised',
      'message', 'Authorisation failed. Incorrect username or password.'));
  end if;

  ref := nullif(btrim(f.job_reference), '');
  if lower(btrim(f.command)) = 'delete' then
    if ref is null then
      return app_private.feed_answer(400, jsonb_build_object('error', 'missing_fields',
        'message', 'Missing required fields: job_reference', 'fields', jsonb_build_array('job_reference')));
    end if;
    update public.jobs j set status = 'closed' where j.external_id = 'broadbean:' || ref returning * into job;
    if job.id is null then
      return app_private.feed_answer(404, jsonb_build_object('error', 'not_found',
        'message', 'Sorry, a job with that job reference could not be found.', 'job_reference', ref));
    end if;
    return app_private.feed_answer(200, jsonb_build_object('status', 'closed', 'job_reference', ref, 'id', job.id,
      'url', site || '/jobs/' || job.id));
  elsif lower(btrim(coalesce(f.command, ''))) <> 'add' then
    return app_private.feed_answer(400, jsonb_build_object('error', 'bad_command',
      'message', 'Invalid command sent: expected add or delete.'));
  end if;

  basis := case regexp_replace(lower(btrim(coalesce(f.job_type, ''))), '[^a-z]', '', 'g')
    when 'permanent' then 'permanent' when 'perm' then 'permanent' when 'contract' then 'contract'
    when 'temporary' then 'temporary' when 'temp' then 'temporary' when 'interim' then 'interim'
    when 'fixedterm' then 'fixed-term' when 'fixedtermcontract' then 'fixed-term' end;
  select array_agg(name order by o) into missing from (values
    (1, 'job_reference', ref is null), (2, 'job_title', nullif(btrim(f.job_title), '') is null),
    (3, 'job_type', basis is null), (4, 'job_description', nullif(btrim(f.job_description), '') is null),
    (5, 'job_location', nullif(btrim(f.job_location), '') is null)) v(o, name, absent)
  where absent;
  if missing is not null then
    return app_private.feed_answer(400, jsonb_build_object('error', 'missing_fields',
      'message', 'Missing required fields: ' || array_to_string(missing, ', ')
        || case when 'job_type' = any (missing) and nullif(btrim(f.job_type), '') is not null
             then ' (job_type must be Permanent, Contract, Temporary, Interim or Fixed Term)' else '' end,
      'fields', to_jsonb(missing)));
  end if;
  if f.salary_from is not null and btrim(f.salary_from) !~ '^[0-9]{1,8}(\.[0-9]+)?$'
     or f.salary_to is not null and btrim(f.salary_to) !~ '^[0-9]{1,8}(\.[0-9]+)?$'
     or f.days_to_advertise is not null and btrim(f.days_to_advertise) !~ '^[0-9]{1,3}$' then
    return app_private.feed_answer(400, jsonb_build_object('error', 'bad_fields',
      'message', 'salary_from and salary_to must be numbers and days_to_advertise a whole number of days.'));
  end if;
  period := case lower(btrim(coalesce(f.salary_per, 'annum')))
    when 'annum' then 'year' when 'year' then 'year' when 'annual' then 'year' when 'month' then 'month'
    when 'week' then 'week' when 'day' then 'day' when 'hour' then 'hour' else 'year' end;

  select * into existing from public.jobs j where j.external_id = 'broadbean:' || ref;
  insert into public.jobs (job_id, status, title, company, client_type, location, salary, salary_min, salary_max,
                           salary_period, type, employment_type, sector, description, requirements, external_id,
                           consultant_name, consultant_email, closing_date)
  values (
    case when not exists (select 1 from public.jobs o where o.job_id = ref and o.external_id is distinct from 'broadbean:' || ref)
         then ref end,
    'active',
    left(btrim(f.job_title), 300),
    left(coalesce(nullif(btrim(f.company), ''), 'Confidential'), 300),
    case when nullif(btrim(f.company), '') is null then 'confidential' else 'named' end,
    left(btrim(f.job_location), 300),
    left(coalesce(nullif(btrim(f.salary_display), ''), nullif(btrim(f.salary), '')), 200),
    case when upper(coalesce(nullif(btrim(f.currency), ''), 'GBP')) = 'GBP' then round(btrim(f.salary_from)::numeric)::int end,
    case when upper(coalesce(nullif(btrim(f.currency), ''), 'GBP')) = 'GBP' then round(btrim(f.salary_to)::numeric)::int end,
    period,
    left(btrim(f.job_type), 100),
    basis,
    left(nullif(btrim(f.job_industry), ''), 200),
    app_private.html_to_text(f.job_description),
    nullif(array_to_string(array(select btrim(s) from unnest(string_to_array(f.job_skills, '|')) s where btrim(s) <> ''), E'\n'), ''),
    'broadbean:' || ref,
    nullif(btrim(f.contact_name), ''),
    nullif(btrim(f.contact_email), ''),
    current_date + coalesce(nullif(btrim(f.days_to_advertise), '')::int, 28))
  on conflict (external_id) do update set
    status = excluded.status, title = excluded.title, company = excluded.company, client_type = excluded.client_type,
    location = excluded.location, salary = excluded.salary, salary_min = excluded.salary_min,
    salary_max = excluded.salary_max, salary_period = excluded.salary_period, type = excluded.type,
    employment_type = excluded.employment_type, sector = excluded.sector, description = excluded.description,
    requirements = excluded.requirements, consultant_name = excluded.consultant_name,
    consultant_email = excluded.consultant_email, closing_date = excluded.closing_date
  returning * into job;
  return app_private.feed_answer(200, jsonb_build_object(
    'status', case when existing.id is null then 'added' else 'updated' end,
    'job_reference', ref, 'id', job.id, 'url', site || '/jobs/' || job.id));
exception
  when check_violation or string_data_right_truncation or numeric_value_out_of_range then
    return app_private.feed_answer(400, jsonb_build_object('error', 'bad_fields', 'message', sqlerrm));
end;
$$;
revoke all on function app_private.broadbean_push(xml) from public;
grant execute on function app_private.broadbean_push(xml) to anon, authenticated, service_role;

create or replace function public.broadbean(xml) returns jsonb
  language sql volatile set search_path = ''
as $$
  select app_private.broadbean_push($1)
$$;
comment on function public.broadbean(xml) is
  'Broadbean (AdCourier) job push: POST the job XML with Content-Type text/xml. add upserts on external_id broadbean:<job_reference>, delete closes; answers {status, job_reference, id, url} or an error with its HTTP status.';
revoke all on function public.broadbean(xml) from public;
grant execute on function public.broadbean(xml) to anon, authenticated, service_role;
