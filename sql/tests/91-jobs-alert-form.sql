-- The job alert form of the server-rendered /jobs (0511): GET shows a real form that POSTs to the page's address
-- (which carries the search); public.post_jobs_page signs up exactly as public.create_job_alert does (pending until
-- the mail's link is followed, consent with its time and the wording shown, the same rate limit and validation) and
-- answers the page with the outcome, or the error by its field with the values entered; bad input is a 4xx page,
-- never an error; and the form reaches nothing else (its other fields are ignored, anon still reads no alert).
begin;
\ir lib/setup.sql
select plan(28);

select set_config('request.headers', '{"x-forwarded-for":"192.0.2.91"}', true);
create function tests.post(query text, form text) returns jsonb language sql as $$
  select public.post_jobs_page('', query, form)
$$;
create function tests.alerts() returns bigint language sql security definer as $$
  select count(*) from public.job_alerts
$$;
grant execute on function tests.post(text, text), tests.alerts() to anon;

/* ---------------------------------------------------------------------------------------------------------------
 * GET: the form
 * --------------------------------------------------------------------------------------------------------------- */
select tests.as_anon();
select matches(public.render_jobs_page('', 'q=asset+manager&region=London&page=1') ->> 'body',
  '<form class="jobs-alert__form" method="post" action="/jobs\?q=asset\+manager&amp;region=London#job-alert">'
  || '<p class="jobs-alert__search">This search: <strong>“asset manager” · London</strong>',
  'the section is a form posting to the page''s own search, which it names');
select matches(public.render_jobs_page('', '') ->> 'body',
  '<label for="jobs-alert-email">E-mail address</label><input id="jobs-alert-email" name="email" type="email" autocomplete="email" required maxlength="320" value="">'
  || '.*<legend>How often</legend><label class="checkbox"><input type="radio" name="frequency" value="weekly" checked> Weekly</label>'
  || '<label class="checkbox"><input type="radio" name="frequency" value="daily"> Daily</label>',
  'with a labelled address field and daily or weekly (weekly chosen)');
select matches(public.render_jobs_page('', '') ->> 'body',
  '<input type="checkbox" name="consent" value="yes" required> <span>I agree to receive job alert e-mails from Cornerstone Property Search for this search\. I can stop them at any time with the link in every e-mail\.</span>.*<button type="submit" class="btn btn--accent">Create alert</button>',
  'the consent wording the React sign-up shows, and a submit button');
select ok(public.render_jobs_page('', '') ->> 'body' !~ 'type="button"', 'no inert button left');

/* ---------------------------------------------------------------------------------------------------------------
 * POST: a sign-up, as the RPC does it
 * --------------------------------------------------------------------------------------------------------------- */
create temp table answer as
  select tests.post('q=asset+manager&region=London&type=permanent&salary=50000&sort=relevance',
    'email=+Visitor%40Example.org+&frequency=daily&consent=yes&status=active&user_id=' || tests.uid('cand1')
    || '&consent_text=nothing&confirmed_at=2020-01-01') as page;
grant select on answer to anon;
select is((select (page ->> 'status')::int from answer), 200, 'the page answers 200');
select matches((select page ->> 'body' from answer),
  '<p class="jobs-alert__done" role="status" data-testid="alert-created">Check your inbox: we have sent a link to visitor@example\.org to confirm this alert\. Nothing is sent until you confirm\.</p></section>',
  '"Check your inbox" in place of the form');
select ok((select page ->> 'body' !~ 'jobs-alert__form' and page ->> 'body' ~ 'data-testid="jobs-count"' from answer),
  'the rest of the page is the search as before');
select tests.as_owner();
select results_eq($$ select email, status::text, frequency::text, q, location, regions::text, employment_types::text,
                            salary_min, consent_text, user_id, confirmed_at from public.job_alerts $$,
  $$ values ('visitor@example.org'::text, 'pending'::text, 'daily'::text, 'asset manager'::text, null::text, '{London}'::text,
             '{permanent}'::text, 50000, 'I agree to receive job alert e-mails from Cornerstone Property Search for this search. I can stop them at any time with the link in every e-mail.'::text,
             null::uuid, null::timestamptz) $$,
  'pending, the page''s search, the wording shown (not the form''s), no account: the form''s other fields are ignored');
select ok((select consent_at > now() - interval '1 minute' and confirm_token_hash is not null from public.job_alerts),
  'consent time recorded; a confirmation token waits');
select is((select count(*)::int from gateway.outbox where to_address = 'visitor@example.org' and subject like 'Confirm your job alert%'
           and body_text ~ '/alerts/confirm\?token=[0-9a-f]{64}' and body_text ~ '“asset manager” · London · Permanent · £50,000\+'), 1,
  'one confirmation e-mail with the link and the search');

/* ---------------------------------------------------------------------------------------------------------------
 * Refusals: the page with the error by its field and the values entered
 * --------------------------------------------------------------------------------------------------------------- */
select tests.as_anon();
select is((tests.post('q=surveyor', 'email=not+an+address&frequency=daily&consent=yes') ->> 'status')::int, 400, 'a bad address: 400');
select matches(tests.post('q=surveyor', 'email=not+an+address&frequency=daily&consent=yes') ->> 'body',
  'value="not an address" aria-invalid="true" aria-describedby="jobs-alert-email-error"><p class="field__error" id="jobs-alert-email-error" role="alert">Enter a valid e-mail address</p>'
  || '.*value="daily" checked> Daily.*name="consent" value="yes" required checked>',
  'its message next to the field, what was entered kept');
select matches(tests.post('q=surveyor', 'email=a%40b.example&frequency=weekly') ->> 'body',
  'aria-describedby="jobs-alert-consent-error"> <span>I agree.*<p class="field__error" id="jobs-alert-consent-error" role="alert">Tick the box to agree to receive job alerts</p>',
  'no consent: the sign-up''s own message by the box');
select matches(tests.post('', 'email=a%40b.example&frequency=hourly&consent=yes') ->> 'body',
  'role="alert">Choose daily or weekly</p></fieldset>', 'an unknown frequency');
select is((tests.post('', 'email=' || repeat('a', 20000) || '%40b.example&consent=yes') ->> 'status')::int, 400,
  'an oversized address: 400');
select matches(tests.post('', 'email=' || repeat('a', 20000) || '%40b.example&consent=yes') ->> 'body',
  'value="' || repeat('a', 320) || '" aria-invalid="true"', 'and only its first 320 characters shown back');
select matches(tests.post('', 'email=%22%3E%3Cscript%3Ex%3C%2Fscript%3E&consent=yes') ->> 'body',
  'value="&quot;&gt;&lt;script&gt;x&lt;/script&gt;" aria-invalid', 'what was entered is escaped');
select is((tests.post('', 'email=%FF%FE&consent=yes') ->> 'status')::int, 400, 'a form that is not UTF-8: 400');
select matches(tests.post('', 'email=%FF%FE&consent=yes') ->> 'body', '<p class="jobs-error" role="alert">The form could not be read; please try again\.</p>',
  'with a message in the form');
select is((tests.post('q=' || repeat('x', 300), 'email=long%40b.example&consent=yes') ->> 'status')::int, 400,
  'a search too large to keep: 400');
select is((tests.post('salary=lots', 'email=c%40b.example&consent=yes') ->> 'status')::int, 400,
  'search settings that are not valid: the page''s own 400');
select is((public.post_jobs_page('x', '', 'email=d%40b.example&consent=yes') ->> 'status')::int, 404, 'another path: 404');
select is(tests.alerts(), 1::bigint, 'none of them signed anything up');

/* ---------------------------------------------------------------------------------------------------------------
 * The same rate limit as the RPC (one bucket per client); nothing else reachable
 * --------------------------------------------------------------------------------------------------------------- */
select tests.as_owner();
insert into private.settings (key, value) values ('limit:job_alert_per_client_per_hour', '2') on conflict (key) do update set value = '2';
select tests.as_anon();
select is((tests.post('', 'email=second%40b.example&consent=yes') ->> 'status')::int, 200, 'the second sign-up from this client passes');
select is((tests.post('', 'email=third%40b.example&consent=yes') ->> 'status')::int, 429, 'the third is refused: 429');
select matches(tests.post('', 'email=third%40b.example&consent=yes') ->> 'body',
  'value="third@b.example".*<p class="jobs-error" role="alert">Too many submissions, please try again later\.</p>',
  'with the message in the form and the address kept');
select throws_ok($$ select public.create_job_alert(email => 'rpc@b.example', consent_text => 'Yes') $$, 'PGRST', null,
  'the RPC counts in the same bucket');
select throws_ok($$ select id from public.job_alerts $$, '42501', null, 'anon still reads no alert');

select * from finish();
rollback;
