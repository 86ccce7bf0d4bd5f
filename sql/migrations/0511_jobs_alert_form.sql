-- The job alert sign-up on /jobs works without JavaScript (issue 24 §2). The server-rendered page's "E-mail me jobs
-- like these" is a real form (address, daily or weekly, the consent wording, a submit button) that POSTs to the
-- page's own address, whose query string carries the search; public.post_jobs_page (the `dynamic` route's
-- post_function) signs up through public.create_job_alert, so the double opt-in, the consent record, the rate limit
-- and the validation are the RPC's own, and answers the /jobs page again with "Check your inbox…" in place of the
-- form, or the form with the error next to its field and the values entered. Mirrors
-- web/src/features/job-alerts/components/alert-signup.tsx (React renders the same form, open).

/* ---------------------------------------------------------------------------------------------------------------
 * The words a person agrees to (web/src/features/job-alerts/model.ts ALERT_CONSENT)
 * --------------------------------------------------------------------------------------------------------------- */
create or replace function private.job_alert_consent() returns text
  language sql stable set search_path = ''
as $$
  select 'I agree to receive job alert e-mails from ' || (public.site_identity()).site_name
    || ' for this search. I can stop them at any time with the link in every e-mail.'
$$;
comment on function private.job_alert_consent() is 'The consent wording the job alert sign-up shows and records (as the browser''s ALERT_CONSENT).';

-- The alert a set of /jobs settings asks for (as a job_alerts row, for job_alert_label): the search without page,
-- sort or date posted.
create or replace function private.job_alert_of_filters(f jsonb) returns public.job_alerts
  language sql immutable set search_path = ''
as $$
  select jsonb_populate_record(null::public.job_alerts, jsonb_build_object('q', f ->> 'q', 'location', f ->> 'location',
    'sectors', f -> 'sector', 'regions', f -> 'region', 'employment_types', f -> 'type',
    'work_arrangements', f -> 'arrangement', 'salary_min', f -> 'salary'))
$$;

/* ---------------------------------------------------------------------------------------------------------------
 * The section: the form, the form with an error, or what the sign-up did
 * --------------------------------------------------------------------------------------------------------------- */
-- The error of one field under it (role alert: announced when the page arrives), or ''.
create or replace function private.jobs_alert_error(state jsonb, field text) returns text
  language sql immutable set search_path = ''
as $$
  select case when state ->> 'field' = field then concat('<p class="field__error" id="jobs-alert-', field, '-error" role="alert">',
    public.html_escape(state ->> 'error'), '</p>') else '' end
$$;

-- aria-invalid and aria-describedby for a control whose field has the error, or ''.
create or replace function private.jobs_alert_invalid(state jsonb, field text) returns text
  language sql immutable set search_path = ''
as $$
  select case when state ->> 'field' = field
    then ' aria-invalid="true" aria-describedby="jobs-alert-' || field || '-error"' else '' end
$$;

-- state: null (a fresh form); {status: pending|active, email} after a sign-up; {error, field (email | frequency |
-- consent | null), email, frequency, consent} when it was refused.
create or replace function private.jobs_alert_html(f jsonb, state jsonb) returns text
  language sql stable set search_path = ''
as $$
  select concat(
    '<section class="jobs-alert card" id="job-alert" aria-labelledby="jobs-alert-title"',
    case when state ? 'status' then ' data-alert-status="' || public.html_escape(state ->> 'status')
      || '" data-alert-email="' || public.html_escape(state ->> 'email') || '"' end, '>',
    '<h2 id="jobs-alert-title">E-mail me jobs like these</h2>',
    '<p>Get new roles that match this search by e-mail, daily or weekly. You can stop at any time.</p>',
    case
      when state ->> 'status' = 'pending' then concat('<p class="jobs-alert__done" role="status" data-testid="alert-created">',
        'Check your inbox: we have sent a link to ', public.html_escape(state ->> 'email'),
        ' to confirm this alert. Nothing is sent until you confirm.</p>')
      when state ->> 'status' = 'active' then concat('<p class="jobs-alert__done" role="status" data-testid="alert-created">',
        'Your job alert is on. You can change or delete it in your <a href="/career-hub/dashboard">Career Hub dashboard</a>.</p>')
      else concat(
        '<form class="jobs-alert__form" method="post" action="', public.html_escape(private.jobs_href(f)), '#job-alert">',
        '<p class="jobs-alert__search">This search: <strong>',
        public.html_escape(public.job_alert_label(private.job_alert_of_filters(f))), '</strong></p>',
        '<div class="field"><label for="jobs-alert-email">E-mail address</label>',
        '<input id="jobs-alert-email" name="email" type="email" autocomplete="email" required maxlength="320" value="',
        public.html_escape(left(state ->> 'email', 320)), '"',
        private.jobs_alert_invalid(state, 'email'), '>', private.jobs_alert_error(state, 'email'), '</div>',
        '<fieldset class="jobs-alert__frequency"', case when state ->> 'field' = 'frequency'
          then ' aria-describedby="jobs-alert-frequency-error"' end, '><legend>How often</legend>',
        '<label class="checkbox"><input type="radio" name="frequency" value="weekly"',
        case when coalesce(state ->> 'frequency', 'weekly') <> 'daily' then ' checked' end, '> Weekly</label>',
        '<label class="checkbox"><input type="radio" name="frequency" value="daily"',
        case when state ->> 'frequency' = 'daily' then ' checked' end, '> Daily</label>',
        private.jobs_alert_error(state, 'frequency'), '</fieldset>',
        '<label class="checkbox jobs-alert__consent"><input type="checkbox" name="consent" value="yes" required',
        case when (state ->> 'consent')::boolean then ' checked' end, private.jobs_alert_invalid(state, 'consent'), '> <span>',
        public.html_escape(private.job_alert_consent()), '</span></label>',
        private.jobs_alert_error(state, 'consent'),
        '<p class="field__hint">We use your address only for these e-mails: <a href="/privacy#job-alerts">how we use your data</a>.</p>',
        case when state ? 'error' and state ->> 'field' is null then
          '<p class="jobs-error" role="alert">' || public.html_escape(state ->> 'error') || '</p>' end,
        '<button type="submit" class="btn btn--accent">Create alert</button>',
        '</form>')
    end,
    '</section>')
$$;
comment on function private.jobs_alert_html(jsonb, jsonb) is
  'The /jobs "E-mail me jobs like these" section: a form that POSTs to the page (its address carries the search), the form with an error by its field, or the sign-up''s outcome.';

/* ---------------------------------------------------------------------------------------------------------------
 * The page, with the section in a given state
 * --------------------------------------------------------------------------------------------------------------- */
create or replace function private.jobs_page(rest text, query text, alert jsonb) returns jsonb
  language plpgsql stable set search_path = ''
as $$
declare
  site record := public.site_identity();
  f jsonb;
  result jsonb;
  heading text;
  indexable boolean;
  page int;
  pages int;
  total int;
  canonical text;
  title text;
  description text;
  status int := 200;
  head text;
  body text;
begin
  if coalesce(rest, '') <> '' then
    return jsonb_build_object('status', 404, 'head', '<title>Not found</title>', 'body', '');
  end if;
  begin
    f := private.jobs_filters(query);
    result := public.search_jobs(
      q => f ->> 'q', location => f ->> 'location',
      sector => (select array_agg(v) from jsonb_array_elements_text(f -> 'sector') v),
      region => (select array_agg(v::public.uk_region) from jsonb_array_elements_text(f -> 'region') v),
      employment_type => (select array_agg(v::public.employment_type) from jsonb_array_elements_text(f -> 'type') v),
      work_arrangement => (select array_agg(v::public.work_arrangement) from jsonb_array_elements_text(f -> 'arrangement') v),
      salary_min => (f ->> 'salary')::int, posted_within => (f ->> 'posted')::int,
      page => coalesce((f ->> 'page')::int, 1), sort => coalesce(f ->> 'sort', 'newest'));
  exception when sqlstate '22023' or sqlstate '22P02' or sqlstate '22021' or sqlstate '22003' then
    return jsonb_build_object('status', 400,
      'head', '<title>Search not valid | ' || public.html_escape(site.site_name) || '</title><meta data-head name="robots" content="noindex">',
      'body', concat('<div class="jobs-page" data-testid="jobs-search" data-ssr-status="400">',
        '<section class="page-hero jobs-hero"><div class="container"><h1>Those search settings are not valid</h1>',
        '<p>', public.html_escape(sqlerrm), '</p>',
        '<a class="btn btn--accent" href="/jobs">See every live role</a></div></section></div>'));
  end;

  page := (result ->> 'page')::int;
  pages := (result ->> 'pages')::int;
  total := (result ->> 'total')::int;
  heading := private.jobs_heading(f);
  indexable := heading is not null;
  heading := coalesce(heading, 'Current Vacancies');
  if page > pages then
    status := 404;
  end if;
  canonical := site.site_url || case when indexable then private.jobs_href(f) else '/jobs' end;
  title := heading || case when page > 1 then ' – page ' || page else '' end || ' | ' || site.site_name;
  description := total || ' live ' || case when heading = 'Current Vacancies' then '' else lower(regexp_replace(heading, ' jobs$', '')) || ' ' end
    || case when total = 1 then 'role' else 'roles' end
    || ' in property and the built environment from ' || site.site_name || '. Search, filter and apply online.';

  head := concat(
    '<title>', public.html_escape(title), '</title>',
    '<meta data-head name="description" content="', public.html_escape(description), '">',
    '<meta data-head name="robots" content="', case when indexable and status = 200 then 'index, follow' else 'noindex, follow' end, '">',
    '<link data-head rel="canonical" href="', public.html_escape(canonical), '">',
    '<meta data-head property="og:type" content="website">',
    '<meta data-head property="og:site_name" content="', public.html_escape(site.site_name), '">',
    '<meta data-head property="og:title" content="', public.html_escape(title), '">',
    '<meta data-head property="og:description" content="', public.html_escape(description), '">',
    '<meta data-head property="og:url" content="', public.html_escape(canonical), '">',
    '<meta data-head property="og:image" content="', public.html_escape(site.site_url || '/images/og-default.png'), '">',
    '<meta data-head property="og:locale" content="en_GB">',
    '<link data-head rel="alternate" type="application/rss+xml" title="', public.html_escape(site.site_name || ' – latest jobs'), '" href="/feeds/jobs.rss">');

  body := concat(
    '<div class="jobs-page" data-testid="jobs-search" data-ssr-status="', status, '" data-ssr-search="',
    public.html_escape(jsonb_build_object('filters', f, 'result', result, 'heading', heading)::text), '">',
    '<section class="page-hero jobs-hero"><div class="container">',
    '<p class="eyebrow">Current Vacancies</p>',
    '<h1>', public.html_escape(heading), '</h1>',
    '<p class="lead">Live roles in property and the built environment, updated as they open and close.</p>',
    '<p class="jobs-hero__agency">', public.html_escape('Every role here is advertised by ' || site.site_name
      || ', acting as an employment agency for permanent roles and an employment business for temporary ones.'), '</p>',
    '</div></section>',
    '<div class="container section jobs-layout">',
    private.jobs_form_html(f, result -> 'facets'),
    '<div class="jobs-results">',
    '<div class="jobs-results__bar"><p class="jobs-results__count" role="status" aria-live="polite" data-testid="jobs-count">',
    private.jobs_count_text(total, page, (result ->> 'page_size')::int), '</p>',
    case when f ? 'q' then concat('<p class="jobs-sort">Sort: ',
      case when f ? 'sort' then '<a href="' || public.html_escape(private.jobs_href((f - 'sort') - 'page')) || '">Newest</a>'
        else '<span aria-current="true">Newest</span>' end, ' · ',
      case when f ? 'sort' then '<span aria-current="true">Most relevant</span>'
        else '<a href="' || public.html_escape(private.jobs_href((f || '{"sort":"relevance"}') - 'page')) || '">Most relevant</a>' end,
      '</p>') end,
    '</div>',
    private.jobs_chips_html(f),
    case
      when total = 0 then concat(
        '<div class="jobs-empty card" data-testid="jobs-empty"><h2>No jobs match your search</h2>',
        '<p>Try removing a filter', case when f <> '{}'::jsonb then ' above, or <a href="/jobs">see every live role</a>' end, '.</p>',
        '<p>Or let us e-mail you when a role like this is published: create a job alert below.</p></div>')
      when status = 404 then concat(
        '<div class="jobs-empty card" data-testid="jobs-empty"><h2>There is no page ', page, '</h2>',
        '<p><a href="', public.html_escape(private.jobs_href(f - 'page')), '">Back to the first page</a></p></div>')
      else concat('<ol class="jobs-list">',
        (select string_agg(private.jobs_card_html(j), '' order by n) from jsonb_array_elements(result -> 'jobs') with ordinality as t(j, n)),
        '</ol>')
    end,
    private.jobs_pager_html(f, page, pages),
    private.jobs_alert_html(f, alert),
    '</div></div></div>');
  return jsonb_build_object('status', status, 'head', head, 'body', body);
end;

$$;
comment on function private.jobs_page(text, text, jsonb) is
  'The /jobs page ({status, head, body}) with its job alert section in the given state (private.jobs_alert_html).';

create or replace function public.render_jobs_page(rest text, query text) returns jsonb
  language sql stable set search_path = ''
as $$
  select private.jobs_page(rest, query, null)
$$;

/* ---------------------------------------------------------------------------------------------------------------
 * POST /jobs: the sign-up
 * --------------------------------------------------------------------------------------------------------------- */
-- The posted form's fields (form-encoded, the last of each name wins): email, frequency, consent. Anything else in
-- the form is ignored; the search is the page address's (the form's action), as the page shows it.
create or replace function private.jobs_alert_fields(form text) returns jsonb
  language sql immutable set search_path = ''
as $$
  select coalesce(jsonb_object_agg(p.key, p.value order by p.n), '{}'::jsonb)
  from private.query_params(form) p
  where p.key in ('email', 'frequency', 'consent')
$$;

-- The sign-up as public.create_job_alert does it (rate limit, validation, double opt-in, consent with its words), as
-- the state of the page's section: {status, email} or {error, field, email, frequency, consent, http}.
create or replace function private.jobs_alert_sign_up(f jsonb, form text) returns jsonb
  language plpgsql volatile set search_path = ''
as $$
declare
  fields jsonb;
  email text;
  frequency text;
  consent boolean;
  entered jsonb;
  search public.job_alerts;
  result jsonb;
begin
  begin
    fields := private.jobs_alert_fields(form);
  exception when data_exception then
    return jsonb_build_object('error', 'The form could not be read; please try again.', 'http', 400);
  end;
  email := btrim(fields ->> 'email');
  frequency := coalesce(nullif(fields ->> 'frequency', ''), 'weekly');
  consent := coalesce(fields ->> 'consent', '') <> '';
  entered := jsonb_build_object('email', left(email, 320), 'frequency', frequency, 'consent', consent);
  if frequency not in ('daily', 'weekly') then
    return entered || jsonb_build_object('error', 'Choose daily or weekly', 'field', 'frequency', 'http', 400);
  end if;
  begin
    search := private.job_alert_of_filters(f); -- the same search the section's label shows
    result := public.create_job_alert(
      email => email, consent_text => case when consent then private.job_alert_consent() end,
      frequency => frequency::public.alert_frequency, q => search.q, location => search.location,
      sectors => search.sectors, regions => search.regions, employment_types => search.employment_types,
      work_arrangements => search.work_arrangements, salary_min => search.salary_min);
  exception
    when sqlstate 'PGRST' then -- the per-client or global limit (429 through the data API)
      return entered || jsonb_build_object('error', 'Too many submissions, please try again later.', 'http', 429);
    when sqlstate '22023' then -- the sign-up's own messages, each about one field
      return entered || jsonb_build_object('error', sqlerrm, 'http', 400, 'field', case
        when sqlerrm ~ '^Tick the box' then 'consent' when sqlerrm ~ 'e-mail address|^An address' then 'email' end);
    when data_exception or integrity_constraint_violation then -- a search too large to keep (the table's checks)
      return entered || jsonb_build_object('http', 400,
        'error', 'This search cannot be saved as an alert: remove some filters or shorten the keywords.');
  end;
  return jsonb_build_object('status', result ->> 'status', 'email', lower(email));
end;
$$;
comment on function private.jobs_alert_sign_up(jsonb, text) is
  'Signs up for a job alert from the posted /jobs form through public.create_job_alert: {status, email}, or the refusal with the values entered.';

create or replace function public.post_jobs_page(rest text, query text, form text) returns jsonb
  language plpgsql volatile set search_path = ''
as $$
declare
  f jsonb;
  state jsonb;
  page jsonb;
begin
  begin
    f := private.jobs_filters(query);
  exception when data_exception then
    f := null;
  end;
  if f is null or coalesce(rest, '') <> '' then
    return public.render_jobs_page(rest, query); -- the page's own 400 or 404: nothing is signed up
  end if;
  state := private.jobs_alert_sign_up(f, form);
  page := private.jobs_page(rest, query, state - 'http');
  return case when state ? 'http' then jsonb_set(page, '{status}', state -> 'http') else page end;
end;
$$;
comment on function public.post_jobs_page(text, text, text) is
  'POST /jobs (the `dynamic` route''s post_function): the job alert form of the server-rendered page, signed up through public.create_job_alert; answers the page with the outcome in place of the form (400 or 429 with the error by its field).';

do $$
declare
  f text;
begin
  foreach f in array array['private.job_alert_consent()', 'private.job_alert_of_filters(jsonb)',
    'private.jobs_alert_error(jsonb, text)', 'private.jobs_alert_invalid(jsonb, text)',
    'private.jobs_alert_html(jsonb, jsonb)', 'private.jobs_page(text, text, jsonb)', 'public.render_jobs_page(text, text)',
    'private.jobs_alert_fields(text)', 'private.jobs_alert_sign_up(jsonb, text)', 'public.post_jobs_page(text, text, text)'] loop
    execute format('revoke all on function %s from public', f);
    execute format('grant execute on function %s to anon, authenticated, service_role', f);
  end loop;
end
$$;
