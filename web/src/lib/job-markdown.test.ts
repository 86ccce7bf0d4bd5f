// The one Markdown rendering of a job's text: what it keeps, what it refuses (raw HTML, unsafe links, images, code
// blocks, tables) and the XHTML-style fragment the database's allowlist accepts.
import { describe, expect, it } from 'vitest';
import { renderJobMarkdown } from './job-markdown';

describe('renderJobMarkdown', () => {
  it('gives null for blank text', () => {
    for (const source of [null, undefined, '', '  \n\t ']) expect(renderJobMarkdown(source)).toBeNull();
  });

  it('renders paragraphs, emphasis, lists and line breaks as XHTML', () => {
    expect(renderJobMarkdown('Lead **mixed-use** schemes, _end to end_.\nReport to the MD.')).toBe('<p>Lead <strong>mixed-use</strong> schemes, <em>end to end</em>.<br />\nReport to the MD.</p>');
    expect(renderJobMarkdown('- MRICS\n- 8+ years\n\n1. First')).toBe('<ul>\n<li>MRICS</li>\n<li>8+ years</li>\n</ul>\n<ol>\n<li>First</li>\n</ol>');
    expect(renderJobMarkdown('a\n\n---\n\nb')).toBe('<p>a</p>\n<hr />\n<p>b</p>');
  });

  it('puts headings under the page\'s own <h2>: # and ## as <h3>, deeper as <h4>', () => {
    expect(renderJobMarkdown('# One\n## Two\n### Three\n###### Six')).toBe('<h3>One</h3>\n<h3>Two</h3>\n<h4>Three</h4>\n<h4>Six</h4>');
  });

  it('escapes raw HTML instead of passing it through', () => {
    const html = renderJobMarkdown('<script>alert(1)</script>\n\n<img src=x onerror=alert(1)>') ?? '';
    expect(html).not.toMatch(/<script|<img/);
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
  });

  it('links only http(s), mailto and paths on this site', () => {
    expect(renderJobMarkdown('[apply](https://example.com/a?b=1)')).toBe('<p><a href="https://example.com/a?b=1">apply</a></p>');
    expect(renderJobMarkdown('[mail](mailto:jobs@example.com)')).toContain('href="mailto:jobs@example.com"');
    expect(renderJobMarkdown('[jobs](/jobs?region=London)')).toContain('href="/jobs?region=London"');
    for (const url of ['javascript:alert(1)', 'JaVaScRiPt:alert(1)', 'data:text/html,x', '//evil.example/x', 'vbscript:x', 'ftp://example.com'])
      expect(renderJobMarkdown(`[x](${url})`), url).not.toContain('<a ');
    // a backslash (which browsers read as /, making //host) is percent-encoded: it stays a path on this site
    expect(renderJobMarkdown('[x](/\\evil.example)')).toBe('<p><a href="/%5Cevil.example">x</a></p>');
  });

  it('does not turn images, code blocks or tables into markup', () => {
    expect(renderJobMarkdown('![logo](https://example.com/a.png)')).not.toContain('<img');
    expect(renderJobMarkdown('```\ncode\n```')).not.toContain('<pre');
    expect(renderJobMarkdown('    indented code')).not.toContain('<code');
    expect(renderJobMarkdown('| a | b |\n|---|---|\n| 1 | 2 |')).not.toContain('<table');
  });

  it('drops control characters XML refuses, keeping tabs and line breaks', () => {
    expect(renderJobMarkdown('bad\u0001char\u0008s\uFFFE')).toBe('<p>badchars</p>');
    expect(renderJobMarkdown('\u0007')).toBeNull();
  });

  it('does not make links of bare addresses or curly quotes of straight ones', () => {
    expect(renderJobMarkdown('see https://example.com and "this"')).toBe('<p>see https://example.com and &quot;this&quot;</p>');
  });
});
