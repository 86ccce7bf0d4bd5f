// The CV templates (spec §3 Template: id, name, description, tier, popular) and the look of the free ones, shared by
// the HTML preview (as CSS custom properties) and the PDF (as pdfmake styles). All three free templates are one
// column with standard headings, so applicant-tracking systems read them in order.
import type { TemplateId } from './model';

export type Template = { id: string; name: string; description: string; tier: 'free' | 'premium'; popular: boolean };

export const FREE_TEMPLATES: (Template & { id: TemplateId })[] = [
  { id: 'professional', name: 'Professional', description: 'Navy headings with clear rules: a safe choice for any property role.', tier: 'free', popular: true },
  { id: 'executive', name: 'Executive', description: 'A centred name and brass accents for senior and board-level applications.', tier: 'free', popular: false },
  { id: 'minimalist', name: 'Minimalist', description: 'Quiet grey type and generous space that lets your experience speak.', tier: 'free', popular: false },
];

export const PREMIUM_TEMPLATES: Template[] = [
  { id: 'corporate-elite', name: 'Corporate Elite', description: 'Structured layout for corporate and in-house leadership roles.', tier: 'premium', popular: false },
  { id: 'creative-director', name: 'Creative Director', description: 'Bold layout for design-led development and placemaking roles.', tier: 'premium', popular: false },
  { id: 'leadership-focus', name: 'Leadership Focus', description: 'Leads with impact and results for C-suite and board candidates.', tier: 'premium', popular: false },
];

/** Sizes in points (pt) for the PDF; the preview scales them to its page width. */
export type TemplateStyle = {
  accent: string;
  text: string;
  muted: string;
  nameSize: number;
  headingSize: number;
  bodySize: number;
  align: 'left' | 'center';
  upperHeadings: boolean;
  rule: boolean;
};

export const TEMPLATE_STYLES: Record<TemplateId, TemplateStyle> = {
  professional: { accent: '#10233d', text: '#171b22', muted: '#4a5263', nameSize: 22, headingSize: 12, bodySize: 10, align: 'left', upperHeadings: true, rule: true },
  executive: { accent: '#7d5a1e', text: '#171b22', muted: '#4a5263', nameSize: 24, headingSize: 12, bodySize: 10, align: 'center', upperHeadings: true, rule: true },
  minimalist: { accent: '#4a5263', text: '#2b2f36', muted: '#5d6472', nameSize: 20, headingSize: 11, bodySize: 10, align: 'left', upperHeadings: false, rule: false },
};

export function templateName(id: TemplateId): string {
  return FREE_TEMPLATES.find((t) => t.id === id)?.name ?? 'Professional';
}
