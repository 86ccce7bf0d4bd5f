// The live CV preview: an A4 page scaled to its container, drawn from the same blocks (layoutCv) and template style
// (TEMPLATE_STYLES) as the PDF. Plain paragraphs, not headings, so it never disturbs the page's heading outline.
import type { CSSProperties } from 'react';
import { layoutCv } from '@/lib/cv/layout';
import type { CvDraft } from '@/lib/cv/model';
import { TEMPLATE_STYLES, templateName } from '@/lib/cv/templates';
import { injectStyle } from '@/lib/inject-style';
import cvCss from './cv.css?inline';

injectStyle('cv', cvCss);

/** A4 is 595 pt wide: a size in pt as a share of the page's width (container query units). */
const pt = (size: number) => `${((size / 595) * 100).toFixed(3)}cqi`;

export function CvPreview({ draft, label }: { draft: CvDraft; label?: string }) {
  const s = TEMPLATE_STYLES[draft.template];
  const cv = layoutCv(draft);
  const style = {
    '--cv-accent': s.accent,
    '--cv-text': s.text,
    '--cv-muted': s.muted,
    '--cv-name': pt(s.nameSize),
    '--cv-heading': pt(s.headingSize),
    '--cv-body': pt(s.bodySize),
    '--cv-align': s.align,
    '--cv-case': s.upperHeadings ? 'uppercase' : 'none',
    '--cv-rule': s.rule ? '1px solid' : '0 solid',
  } as CSSProperties;
  return (
    <div className="cv-page-frame">
      <article className={`cv-paper cv-paper--${draft.template}`} style={style} aria-label={label ?? `CV preview, ${templateName(draft.template)} template`} data-testid="cv-preview">
        <div className="cv-paper__head">
          <p className={`cv-paper__name${cv.name ? '' : ' cv-paper__placeholder'}`}>{cv.name || 'Your Name'}</p>
          {cv.contact.length > 0 && <p className="cv-paper__contact">{cv.contact.join('  |  ')}</p>}
        </div>
        {cv.sections.map((section) => (
          <section key={section.id} className="cv-paper__section">
            <p className="cv-paper__heading">{section.title}</p>
            {section.entries.map((e, i) => (
              <div key={i} className="cv-paper__entry">
                {e.heading && <p className="cv-paper__entry-title">{e.heading}</p>}
                {(e.subheading || e.dates) && (
                  <p className="cv-paper__entry-sub">
                    {e.subheading && <strong>{e.subheading}</strong>}
                    {e.subheading && e.dates ? '  |  ' : ''}
                    {e.dates}
                  </p>
                )}
                {e.paragraphs.map((text, j) => (
                  <p key={j} className="cv-paper__text">
                    {text}
                  </p>
                ))}
              </div>
            ))}
          </section>
        ))}
      </article>
    </div>
  );
}
