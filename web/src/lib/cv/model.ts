// The CV draft (spec §3 CV draft) as the builder edits it and cv_documents.data stores it (checked in SQL by
// private.cv_document_problem: keep the limits here in step), with the required-field check behind Complete.
export type TemplateId = 'professional' | 'executive' | 'minimalist';
export type PersonalInfo = { fullName: string; email: string; phone: string; location: string };
export type Experience = { id: string; title: string; company: string; startDate: string; endDate: string; description: string };
export type Education = { id: string; degree: string; institution: string; year: string };
export type CvDraft = {
  personalInfo: PersonalInfo;
  summary: string;
  experience: Experience[];
  education: Education[];
  skills: string;
  /** Wizard step index 0–4 (spec §4: bounded at both ends). */
  step: number;
  template: TemplateId;
  /** Sections of an imported JSON Resume that the builder does not edit, kept for export. */
  extras?: Record<string, unknown>;
};

export const STEP_COUNT = 5;
export const STEP_TITLES = ['Personal Information', 'Professional Summary', 'Work Experience', 'Education', 'Skills'];
export const TEMPLATE_IDS: TemplateId[] = ['professional', 'executive', 'minimalist'];
export const LIMITS = { short: 200, email: 320, phone: 50, long: 5000, entries: 30 } as const;

export const newId = (): string => crypto.randomUUID();
export const emptyExperience = (): Experience => ({ id: newId(), title: '', company: '', startDate: '', endDate: '', description: '' });
export const emptyEducation = (): Education => ({ id: newId(), degree: '', institution: '', year: '' });

export function isTemplateId(v: unknown): v is TemplateId {
  return typeof v === 'string' && (TEMPLATE_IDS as string[]).includes(v);
}

export function emptyDraft(template: TemplateId = 'professional'): CvDraft {
  return {
    personalInfo: { fullName: '', email: '', phone: '', location: '' },
    summary: '',
    experience: [emptyExperience()],
    education: [emptyEducation()],
    skills: '',
    step: 0,
    template,
  };
}

const str = (v: unknown): string => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : '');
const obj = (v: unknown): Record<string, unknown> => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {});
const list = (v: unknown): Record<string, unknown>[] => (Array.isArray(v) ? v.map(obj) : []);

/** A stored draft (any JSON) as a complete CvDraft, filling what is missing. */
export function normaliseDraft(data: unknown): CvDraft {
  const d = obj(data);
  const p = obj(d.personalInfo);
  const step = typeof d.step === 'number' ? Math.min(STEP_COUNT - 1, Math.max(0, Math.round(d.step))) : 0;
  const draft: CvDraft = {
    personalInfo: { fullName: str(p.fullName), email: str(p.email), phone: str(p.phone), location: str(p.location) },
    summary: str(d.summary),
    experience: list(d.experience).map((e) => ({
      id: str(e.id) || newId(),
      title: str(e.title),
      company: str(e.company),
      startDate: str(e.startDate),
      endDate: str(e.endDate),
      description: str(e.description),
    })),
    education: list(d.education).map((e) => ({ id: str(e.id) || newId(), degree: str(e.degree), institution: str(e.institution), year: str(e.year) })),
    skills: str(d.skills),
    step,
    template: isTemplateId(d.template) ? d.template : 'professional',
  };
  if (d.extras && Object.keys(obj(d.extras)).length) draft.extras = obj(d.extras);
  return draft;
}

/** One required field that is empty or invalid, with where to find it. */
export type Problem = { step: number; fieldId: string; message: string };

export const fieldId = {
  fullName: 'cv-full-name',
  email: 'cv-email',
  phone: 'cv-phone',
  location: 'cv-location',
  summary: 'cv-summary',
  skills: 'cv-skills',
  experience: (id: string, key: keyof Experience) => `cv-exp-${id}-${key}`,
  education: (id: string, key: keyof Education) => `cv-edu-${id}-${key}`,
};

const EMAIL = /^[^@\s]+@[^@\s]+\.[^@\s]+$/;

/** The starred fields (spec §2 CV builder) that are missing, in the order of the wizard. */
export function findProblems(d: CvDraft): Problem[] {
  const out: Problem[] = [];
  const p = d.personalInfo;
  if (!p.fullName.trim()) out.push({ step: 0, fieldId: fieldId.fullName, message: 'Enter your full name' });
  if (!p.email.trim()) out.push({ step: 0, fieldId: fieldId.email, message: 'Enter your email address' });
  else if (!EMAIL.test(p.email.trim())) out.push({ step: 0, fieldId: fieldId.email, message: 'Enter an email address like name@example.com' });
  d.experience.forEach((e, i) => {
    if (!e.title.trim()) out.push({ step: 2, fieldId: fieldId.experience(e.id, 'title'), message: `Enter the job title of position ${i + 1}` });
    if (!e.company.trim()) out.push({ step: 2, fieldId: fieldId.experience(e.id, 'company'), message: `Enter the company of position ${i + 1}` });
    if (e.startDate && e.endDate && e.endDate < e.startDate)
      out.push({ step: 2, fieldId: fieldId.experience(e.id, 'endDate'), message: `The end date of position ${i + 1} is before its start date` });
  });
  d.education.forEach((e, i) => {
    if (!e.degree.trim()) out.push({ step: 3, fieldId: fieldId.education(e.id, 'degree'), message: `Enter the degree or qualification of entry ${i + 1}` });
    if (!e.institution.trim()) out.push({ step: 3, fieldId: fieldId.education(e.id, 'institution'), message: `Enter the institution of entry ${i + 1}` });
    if (e.year && !/^\d{4}$/.test(e.year)) out.push({ step: 3, fieldId: fieldId.education(e.id, 'year'), message: `Enter the year of entry ${i + 1} as four digits` });
  });
  return out;
}

/** Moves item `index` by `delta` places (no-op at the ends). */
export function move<T>(items: T[], index: number, delta: -1 | 1): T[] {
  const to = index + delta;
  if (to < 0 || to >= items.length) return items;
  const next = items.slice();
  [next[index], next[to]] = [next[to], next[index]];
  return next;
}
