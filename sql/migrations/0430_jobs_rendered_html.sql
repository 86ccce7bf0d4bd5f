-- Vacancies (issue 24, editor 1/5): the one rendered form of a job's description and requirements, stored beside
-- their source text and safe whatever wrote it.
--
-- For the job page, the feeds and JobPosting (branch vac) — read these, never the source text:
--   jobs.description_html   HTML fragment of the description (null when there is none)
--   jobs.requirements_html  HTML fragment of the requirements (null when there are none)
--   public.job_posting_description(job) the description for JobPosting and feed entries: the description's HTML,
--                           then "Requirements" and the requirements' HTML; the title as a paragraph when both are empty
--
-- Where the rendering happens (sql/README.md "Job text: Markdown and its one rendering"):
--   * the job editor and the CSV import (web/src/lib/job-markdown.ts) render the Markdown an admin writes with
--     markdown-it (raw HTML off, images off, headings as <h3>) and store the HTML with the source;
--   * a writer that sends only text (a CRM through the data API, a feed) gets the plain-text rendering below: blank
--     lines make paragraphs, line breaks <br />; requirements one list item per line (leading "-", "*", "•" dropped);
--     a write that changes the source text without sending new HTML gets that rendering again, so HTML never goes
--     stale;
--   * whatever the source, the stored HTML must pass public.job_html_problem() (CHECK constraints below): well-formed,
--     only p br hr strong em b i s code blockquote ul ol li h3 h4 a, attributes only a@href (http(s), mailto or a
--     site path) a@title and ol@start, no comments, CDATA, DOCTYPE or processing instructions. So a compromised admin
--     account or CRM key cannot store script or markup that escapes the page: the database refuses it (23514).
set local client_min_messages = warning;

/* ---------------------------------------------------------------------------------------------------------------
 * The allowlist check: libxml2 (PostgreSQL's xml type) parses the fragment, XPath finds what is not allowed.
 * --------------------------------------------------------------------------------------------------------------- */
create or replace function public.job_html_problem(html text) returns text
  language plpgsql immutable parallel safe set search_path = ''
as $$
declare
  doc xml;
  bad text;
  href text;
begin
  if html is null then
    return null;
  end if;
  if char_length(html) > 100000 then
    return 'the HTML is longer than 100,000 characters';
  end if;
  if position('<!' in html) > 0 or position('<?' in html) > 0 then
    return 'comments, CDATA, DOCTYPE and processing instructions are not allowed';
  end if;
  -- A non-void element written self-closing (<a href="/x"/>) is empty to XML but left open by an HTML parser.
  if position('/>' in regexp_replace(html, '<(br|hr) ?/>', '', 'g')) > 0 then
    return 'only <br /> and <hr /> may be self-closing';
  end if;
  if html ~* '<[^>]*\sxmlns' then
    return 'namespace declarations are not allowed';
  end if;
  if not xml_is_well_formed_document('<div>' || html || '</div>') then
    return 'the HTML is not well-formed (every element closed, attributes quoted, only &amp; &lt; &gt; &quot; &#39; and numeric character references)';
  end if;
  doc := xmlparse(document '<div>' || html || '</div>');
  bad := (xpath('name((/div//*[not(contains("|p|br|hr|strong|em|b|i|s|code|blockquote|ul|ol|li|h3|h4|a|", concat("|", name(), "|")))])[1])', doc))[1]::text;
  if bad <> '' then
    return format('the element <%s> is not allowed', bad);
  end if;
  bad := (xpath('name((/div//@*[not((name() = "href" or name() = "title") and parent::a) and not(name() = "start" and parent::ol)])[1])', doc))[1]::text;
  if bad <> '' then
    return format('the attribute %s is not allowed', bad);
  end if;
  if (xpath('count(/div//ol/@start[translate(., "0123456789", "") != "" or string-length(.) > 6])', doc))[1]::text <> '0' then
    return 'a list''s start must be a number';
  end if;
  foreach href in array coalesce((select array_agg(h::text) from unnest(xpath('/div//a/@href', doc)) h), '{}') loop
    href := replace(replace(replace(replace(replace(href, '&quot;', '"'), '&#39;', ''''), '&lt;', '<'), '&gt;', '>'), '&amp;', '&');
    if href !~ '^(https?://[^\s]+|mailto:[^\s]+|/([^/\\\s][^\s]*)?)$' then
      return format('the link %s is not allowed (only http, https, mailto and paths on this site)', left(href, 80));
    end if;
  end loop;
  return null;
end;
$$;
comment on function public.job_html_problem(text) is
  'Why a job HTML fragment is unsafe (null when it is safe): the allowlist every jobs.*_html value must pass.';
revoke all on function public.job_html_problem(text) from public;
grant execute on function public.job_html_problem(text) to anon, authenticated, service_role;

/* ---------------------------------------------------------------------------------------------------------------
 * The plain-text rendering, for writers that send text without HTML.
 * --------------------------------------------------------------------------------------------------------------- */
-- Paragraphs at blank lines, <br /> at the line breaks inside one; every character escaped; the control characters
-- XML (and so the allowlist) refuses are dropped.
create or replace function public.job_text_html(source text) returns text
  language sql immutable parallel safe set search_path = ''
as $$
  select nullif(string_agg('<p>' || replace(public.html_escape(btrim(p, E' \t\r\n')), E'\n', '<br />') || '</p>', '' order by n), '')
  from regexp_split_to_table(replace(regexp_replace(coalesce(source, ''), '[\x01-\x08\x0B\x0C\x0E-\x1F\uFFFE\uFFFF]', '', 'g'), E'\r\n', E'\n'), E'\n[ \t]*\n') with ordinality as t(p, n)
  where btrim(p, E' \t\r\n') <> ''
$$;
comment on function public.job_text_html(text) is
  'Plain text as HTML paragraphs (blank lines) with <br /> line breaks, escaped: the rendering of text sent without HTML.';
revoke all on function public.job_text_html(text) from public;
grant execute on function public.job_text_html(text) to anon, authenticated, service_role;

-- One list item per non-empty line, a leading "-", "*" or "•" dropped; escaped.
create or replace function public.job_text_list_html(source text) returns text
  language sql immutable parallel safe set search_path = ''
as $$
  select '<ul>' || string_agg('<li>' || public.html_escape(item) || '</li>', '' order by n) || '</ul>'
  from (select btrim(regexp_replace(l, '^\s*[-*•]\s*', '')) as item, n
        from regexp_split_to_table(regexp_replace(coalesce(source, ''), '[\x01-\x08\x0B\x0C\x0E-\x1F\uFFFE\uFFFF]', '', 'g'), E'\r?\n') with ordinality as t(l, n)) i
  where item <> ''
$$;
comment on function public.job_text_list_html(text) is
  'Plain-text requirements as an HTML list (one item per line, leading bullet dropped), escaped.';
revoke all on function public.job_text_list_html(text) from public;
grant execute on function public.job_text_list_html(text) to anon, authenticated, service_role;

/* ---------------------------------------------------------------------------------------------------------------
 * The columns, kept in step with their source by a trigger, and checked.
 * --------------------------------------------------------------------------------------------------------------- */
alter table public.jobs
  add column description_html text,
  add column requirements_html text;
comment on column public.jobs.description is
  'The description as written: Markdown from the job editor and CSV import, plain text from a CRM. Display description_html.';
comment on column public.jobs.requirements is
  'The minimum experience, training or qualifications as written (Markdown or plain text). Display requirements_html.';
comment on column public.jobs.description_html is
  'The description rendered (markdown-it in the editor/import, else public.job_text_html); passes public.job_html_problem. What the job page, feeds and JobPosting show.';
comment on column public.jobs.requirements_html is
  'The requirements rendered (markdown-it in the editor/import, else public.job_text_list_html); passes public.job_html_problem.';

-- BEFORE INSERT OR UPDATE: text sent without its HTML (or changed without new HTML) gets the plain-text rendering.
create or replace function private.jobs_render_text() returns trigger
  language plpgsql set search_path = ''
as $$
begin
  if tg_op = 'INSERT' then
    if new.description_html is null then
      new.description_html := public.job_text_html(new.description);
    end if;
    if new.requirements_html is null then
      new.requirements_html := public.job_text_list_html(new.requirements);
    end if;
  else
    if new.description is distinct from old.description and new.description_html is not distinct from old.description_html then
      new.description_html := public.job_text_html(new.description);
    end if;
    if new.requirements is distinct from old.requirements and new.requirements_html is not distinct from old.requirements_html then
      new.requirements_html := public.job_text_list_html(new.requirements);
    end if;
  end if;
  return new;
end;
$$;
revoke all on function private.jobs_render_text() from public;
comment on function private.jobs_render_text() is
  'Trigger: description_html / requirements_html from the plain text when a write sends the text without its HTML.';

create trigger jobs_render_text before insert or update on public.jobs
  for each row execute function private.jobs_render_text();

update public.jobs set description_html = public.job_text_html(description),
                       requirements_html = public.job_text_list_html(requirements);

alter table public.jobs
  add constraint jobs_description_html_safe check (public.job_html_problem(description_html) is null),
  add constraint jobs_requirements_html_safe check (public.job_html_problem(requirements_html) is null),
  add constraint jobs_description_length check (char_length(description) <= 20000),
  add constraint jobs_requirements_length check (char_length(requirements) <= 10000);

/* ---------------------------------------------------------------------------------------------------------------
 * What JobPosting and the feeds describe a job with.
 * --------------------------------------------------------------------------------------------------------------- */
create or replace function public.job_posting_description(job public.jobs) returns text
  language sql immutable parallel safe set search_path = ''
as $$
  select coalesce(nullif(concat(job.description_html,
                                case when job.requirements_html is not null then '<h3>Requirements</h3>' || job.requirements_html end), ''),
                  '<p>' || public.html_escape(job.title) || '</p>')
$$;
comment on function public.job_posting_description(public.jobs) is
  'A job''s description for JobPosting and feed entries: description_html, then <h3>Requirements</h3> and requirements_html; the title when both are empty.';
revoke all on function public.job_posting_description(public.jobs) from public;
grant execute on function public.job_posting_description(public.jobs) to anon, authenticated, service_role;
