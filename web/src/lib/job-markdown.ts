// The one Markdown rendering of a job's description and requirements (sql/README.md "Job text"): markdown-it with raw
// HTML, images, code blocks and tables off and every heading as <h3>, emitting the XHTML-style fragment that the
// database's allowlist (public.job_html_problem) accepts. The editor previews and stores this output; the job page,
// feeds and JobPosting show the stored HTML.
import MarkdownIt from 'markdown-it';

const md = new MarkdownIt('zero', { html: false, xhtmlOut: true, breaks: true, linkify: false, typographer: false });
md.enable(['paragraph', 'newline', 'heading', 'lheading', 'list', 'blockquote', 'hr', 'emphasis', 'strikethrough', 'backticks', 'link', 'escape', 'entity', 'text', 'balance_pairs', 'fragments_join']);

// Headings sit under the page's own "About the Role" <h2>: # and ## become <h3>, deeper ones <h4>.
md.core.ruler.push('job_heading_levels', (state) => {
  for (const token of state.tokens) {
    if (token.type === 'heading_open' || token.type === 'heading_close') token.tag = Number(token.tag.slice(1)) <= 2 ? 'h3' : 'h4';
  }
});

const SAFE_LINK = /^(https?:\/\/\S+|mailto:\S+|\/(?![/\\])\S*)$/i;
md.validateLink = (url) => SAFE_LINK.test(url.trim());

// Control characters XML (and so the database's allowlist) refuses; tabs and line breaks stay.
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0001-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g;

/** Markdown source → the HTML fragment stored in jobs.description_html / requirements_html (null for blank text). */
export function renderJobMarkdown(source: string | null | undefined): string | null {
  if (!source || !source.trim()) return null;
  return md.render(source.replace(CONTROL, '')).trim() || null;
}
