// A Markdown text area with its live preview: the preview is the HTML the job page will show (the one rendering,
// lib/job-markdown.ts; markdown-it with raw HTML off, so the preview cannot run anything).
import { useMemo } from 'react';
import { renderJobMarkdown } from '@/lib/job-markdown';

/** HTML without the whitespace between tags (markdown-it puts line breaks there; the plain-text rendering none). */
const tight = (html: string | null) => (html ?? '').replace(/>\s+</g, '><');

type Props = {
  id: string;
  label: string;
  hint: string;
  value: string;
  error?: string;
  rows?: number;
  /** The job's stored rendering while the text is unchanged (it may come from a CRM's plain text); else undefined. */
  storedHtml?: string | null;
  onChange: (value: string) => void;
};

export function MarkdownField({ id, label, hint, value, error, rows = 8, storedHtml, onChange }: Props) {
  const rendered = useMemo(() => renderJobMarkdown(value), [value]);
  const html = storedHtml !== undefined ? storedHtml : rendered;
  const describedBy = [`${id}-hint`, error ? `${id}-error` : null].filter(Boolean).join(' ');
  return (
    <div className={`field markdown-field${error ? ' field--invalid' : ''}`}>
      <label htmlFor={id}>{label}</label>
      <p id={`${id}-hint`} className="field__hint">
        {hint} Markdown: blank line for a new paragraph, <code>- </code> for a list, <code>**bold**</code>, <code>## Heading</code>,{' '}
        <code>[link](https://…)</code>.
      </p>
      <div className="markdown-field__panes">
        <textarea id={id} rows={rows} value={value} onChange={(e) => onChange(e.target.value)} aria-invalid={Boolean(error)} aria-describedby={describedBy} />
        <section className="markdown-preview" aria-label={`${label} preview`} data-testid={`${id}-preview`}>
          <p className="markdown-preview__label" aria-hidden="true">
            {storedHtml !== undefined && tight(storedHtml) !== tight(rendered) ? 'Preview: as stored from plain text (edit it to use Markdown)' : 'Preview'}
          </p>
          {html ? <div className="job-richtext" dangerouslySetInnerHTML={{ __html: html }} /> : <p className="muted-small">Nothing written yet.</p>}
        </section>
      </div>
      {error && (
        <p id={`${id}-error`} className="field__error">
          {error}
        </p>
      )}
    </div>
  );
}
