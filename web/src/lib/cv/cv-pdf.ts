// The CV as a PDF an applicant-tracking system can read, made in the browser with pdfmake (loaded only when asked
// for: import this module dynamically). Same blocks (layoutCv) and template style as the preview; real text in
// reading order in one column; Roboto embedded (subset) from the site's own files; A4; every entry is
// unbreakable, and a section heading travels with its first entry, so a page break never cuts an entry in half.
import pdfMake from 'pdfmake/build/pdfmake';
import regular from 'pdfmake/build/fonts/Roboto/Roboto-Regular.ttf?url';
import medium from 'pdfmake/build/fonts/Roboto/Roboto-Medium.ttf?url';
import italic from 'pdfmake/build/fonts/Roboto/Roboto-Italic.ttf?url';
import mediumItalic from 'pdfmake/build/fonts/Roboto/Roboto-MediumItalic.ttf?url';
import { layoutCv, type CvEntry, type CvSection } from './layout';
import type { CvDraft } from './model';
import { TEMPLATE_STYLES, type TemplateStyle } from './templates';

const absolute = (path: string) => new URL(path, window.location.href).href;

pdfMake.fonts = { Roboto: { normal: absolute(regular), bold: absolute(medium), italics: absolute(italic), bolditalics: absolute(mediumItalic) } };
// Fonts come from this site only (the CSP allows nothing else anyway).
pdfMake.setUrlAccessPolicy((url) => new URL(url).origin === window.location.origin);

const A4_WIDTH = 595.28;
const MARGIN = 50;

function headingBlock(section: CvSection, s: TemplateStyle): unknown[] {
  const title = s.upperHeadings ? section.title.toUpperCase() : section.title;
  const out: unknown[] = [
    { text: title, fontSize: s.headingSize, bold: true, color: s.accent, characterSpacing: 0.5, alignment: s.align === 'center' ? 'center' : 'left', margin: [0, 12, 0, 2] },
  ];
  if (s.rule) out.push({ canvas: [{ type: 'line', x1: 0, y1: 0, x2: A4_WIDTH - 2 * MARGIN, y2: 0, lineWidth: 0.75, lineColor: s.accent }], margin: [0, 0, 0, 6] });
  else out.push({ text: '', margin: [0, 0, 0, 4] });
  return out;
}

function entryBlock(e: CvEntry, s: TemplateStyle): unknown[] {
  const out: unknown[] = [];
  if (e.heading) out.push({ text: e.heading, bold: true });
  if (e.subheading || e.dates) {
    const parts: unknown[] = [];
    if (e.subheading) parts.push({ text: e.subheading, bold: true, color: s.text });
    if (e.subheading && e.dates) parts.push('  |  ');
    if (e.dates) parts.push(e.dates);
    out.push({ text: parts, color: s.muted });
  }
  for (const p of e.paragraphs) out.push({ text: p, margin: [0, 3, 0, 0] });
  return out;
}

/** The pdfmake document for a draft (exported for tests of the structure). */
export function cvDocDefinition(draft: CvDraft, title: string) {
  const s = TEMPLATE_STYLES[draft.template];
  const cv = layoutCv(draft);
  const align = s.align === 'center' ? 'center' : 'left';
  const content: unknown[] = [
    { text: cv.name || 'Curriculum Vitae', fontSize: s.nameSize, bold: true, color: s.accent, alignment: align },
  ];
  if (cv.contact.length) content.push({ text: cv.contact.join('  |  '), color: s.muted, alignment: align, margin: [0, 4, 0, 4] });
  for (const section of cv.sections) {
    section.entries.forEach((entry, i) => {
      const stack = [...(i === 0 ? headingBlock(section, s) : []), ...entryBlock(entry, s)];
      content.push({ stack, unbreakable: true, margin: [0, i === 0 ? 0 : 8, 0, 0] });
    });
  }
  return {
    pageSize: 'A4',
    pageMargins: [MARGIN, MARGIN, MARGIN, MARGIN],
    info: { title, author: cv.name || undefined, subject: 'Curriculum vitae', creator: 'Career Hub CV Builder' },
    defaultStyle: { font: 'Roboto', fontSize: s.bodySize, color: s.text, lineHeight: 1.2 },
    content,
  };
}

export async function cvPdfBlob(draft: CvDraft, title: string): Promise<Blob> {
  return pdfMake.createPdf(cvDocDefinition(draft, title)).getBlob();
}
