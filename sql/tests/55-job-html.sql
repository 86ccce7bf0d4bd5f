-- Job text (0430): the stored HTML of description and requirements is safe whatever writes it — the allowlist
-- refuses script, handlers, foreign links and markup that an HTML parser reads differently — and text sent without
-- HTML gets the plain-text rendering, kept in step when the text changes.
begin;
\ir lib/setup.sql
select plan(31);

-- The allowlist: what markdown-it emits passes.
select is(public.job_html_problem(E'<h3>Role</h3>\n<p>Lead <strong>x</strong> &amp; <em>y</em> <s>z</s> <code>c</code><br />\nnext</p>\n<ul>\n<li>a</li>\n<li></li>\n</ul>\n<ol start="3">\n<li>b</li>\n</ol>\n<blockquote>\n<p>q</p>\n</blockquote>\n<hr />\n<h4>T</h4>'),
  null, 'markdown-it''s elements pass');
select is(public.job_html_problem('<p><a href="https://example.com/a?b=1&amp;c=2" title="t">x</a> <a href="/jobs">y</a> <a href="mailto:a@example.com">m</a></p>'),
  null, 'links to http(s), mailto and site paths pass');
select is(public.job_html_problem(null), null, 'no HTML passes');
-- and everything else is refused, with the reason
select is(public.job_html_problem('<p>x</p><script>alert(1)</script>'), 'the element <script> is not allowed', 'script');
select is(public.job_html_problem('<p onclick="alert(1)">x</p>'), 'the attribute onclick is not allowed', 'event handler');
select is(public.job_html_problem('<p style="x">x</p>'), 'the attribute style is not allowed', 'style');
select is(public.job_html_problem('<img src="https://t.example/p.gif" alt="" />'), 'only <br /> and <hr /> may be self-closing', 'images (tracking pixels)');
select is(public.job_html_problem('<iframe src="https://x.example"></iframe>'), 'the element <iframe> is not allowed', 'iframe');
select matches(public.job_html_problem('<a href="javascript:alert(1)">x</a>'), '^the link javascript:alert\(1\) is not allowed', 'javascript: link');
select matches(public.job_html_problem('<a href="&#106;avascript:alert(1)">x</a>'), '^the link javascript:', 'an encoded javascript: link is decoded, then refused');
select matches(public.job_html_problem('<a href=" https://x.example">x</a>'), '^the link ', 'a link with leading space');
select matches(public.job_html_problem('<a href="//evil.example">x</a>'), '^the link //evil', 'protocol-relative link');
select matches(public.job_html_problem('<a href="/\evil.example">x</a>'), '^the link /\\evil', 'backslash link (browsers read //)');
select is(public.job_html_problem('<a href="data:text/html,x">x</a>'), 'the link data:text/html,x is not allowed (only http, https, mailto and paths on this site)', 'data: link');
select is(public.job_html_problem('<a href="/x"/>tail'), 'only <br /> and <hr /> may be self-closing', 'a self-closing link (left open by browsers)');
select is(public.job_html_problem('<!-- x --><p>a</p>'), 'comments, CDATA, DOCTYPE and processing instructions are not allowed', 'comment');
select is(public.job_html_problem('<![CDATA[<script>x</script>]]>'), 'comments, CDATA, DOCTYPE and processing instructions are not allowed', 'CDATA');
select is(public.job_html_problem('<p xmlns="http://www.w3.org/1999/xhtml">x</p>'), 'namespace declarations are not allowed', 'namespace');
select matches(public.job_html_problem('<p>a<br>b</p>'), '^the HTML is not well-formed', 'unclosed element');
select matches(public.job_html_problem('<p>x</p></div><script>x</script><div>'), '^the HTML is not well-formed', 'closing the container');
select matches(public.job_html_problem('<p>&nbsp;</p>'), '^the HTML is not well-formed', 'entities other than XML''s');
select is(public.job_html_problem(repeat('<p>x</p>', 12501)), 'the HTML is longer than 100,000 characters', 'size limit');

-- Plain text gets the plain-text rendering, escaped.
select is(public.job_text_html(E'Para <one>\nline two\r\n\r\n  "Two" & more\n\n\n'), '<p>Para &lt;one&gt;<br />line two</p><p>&quot;Two&quot; &amp; more</p>', 'paragraphs and line breaks, escaped');
select is(public.job_text_list_html(E'- MRICS\n* 5 years <min>\n\n• Licence\nArgus'), '<ul><li>MRICS</li><li>5 years &lt;min&gt;</li><li>Licence</li><li>Argus</li></ul>', 'a list, bullets dropped, escaped');

-- Whatever writes the row: service_role (a CRM) sending text, then HTML of its own.
select tests.as_service();
insert into public.jobs (id, status, title, company, description, requirements) values (tests.job('crm-html'), 'draft', 'CRM job', 'Acme', E'One\n\nTwo', E'- a\n- b');
select is((select description_html || requirements_html from public.jobs where id = tests.job('crm-html')), '<p>One</p><p>Two</p><ul><li>a</li><li>b</li></ul>', 'text without HTML is rendered');
update public.jobs set description = 'Changed <b>' where id = tests.job('crm-html');
select is((select description_html from public.jobs where id = tests.job('crm-html')), '<p>Changed &lt;b&gt;</p>', 'changed text without new HTML is rendered again (never stale)');
select throws_ok($$ update public.jobs set description_html = '<p onmouseover="steal()">x</p>' where id = tests.job('crm-html') $$,
  '23514', null, 'service_role cannot store unsafe HTML');
-- an admin (a compromised account) neither
select tests.as_user('admin');
select throws_ok($$ insert into public.jobs (title, company, status, description, description_html) values ('x', 'y', 'draft', 'x', '<script>alert(document.cookie)</script>') $$,
  '23514', null, 'an admin cannot store script');
select lives_ok($$ update public.jobs set description = '**Bold**', description_html = '<p><strong>Bold</strong></p>' where id = tests.job('draft') $$,
  'an admin stores the editor''s rendering');
select is(public.job_full_html((select j from public.jobs j where j.id = tests.job('crm-html'))),
  '<div class="job-text"><p>Changed &lt;b&gt;</p></div><p>Requirements:</p><div class="job-text job-reqs"><ul><li>a</li><li>b</li></ul></div>',
  'the job page, JobPosting and feeds show the stored rendering (0402''s functions read it: 0435)');
select is(public.job_description_html((select j from public.jobs j where j.id = tests.job('draft'))), '<div class="job-text"><p><strong>Bold</strong></p></div>',
  'the page shows the editor''s Markdown as stored');

select * from finish();
rollback;
