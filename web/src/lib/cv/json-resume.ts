// JSON Resume (jsonresume.org schema v1.0.0) export and import. Export maps the draft to basics/work/education/skills
// and puts back any sections kept aside from an earlier import. Import accepts any valid JSON Resume (every field
// is optional; unknown fields are allowed): what the builder edits becomes the draft, every other section (and the
// unmapped basics) is kept aside in `extras`. A file that is not JSON Resume gets a clear message, never a crash.
import { emptyEducation, emptyExperience, isTemplateId, LIMITS, type CvDraft, type Education, type Experience } from './model';
import { skillList } from './layout';

export const JSON_RESUME_SCHEMA = 'https://raw.githubusercontent.com/jsonresume/resume-schema/v1.0.0/schema.json';
const MAPPED = ['$schema', 'basics', 'work', 'education', 'skills', 'meta'];
const BASICS_MAPPED = ['name', 'email', 'phone', 'summary', 'location'];

type Json = Record<string, unknown>;
const isObj = (v: unknown): v is Json => !!v && typeof v === 'object' && !Array.isArray(v);
const clean = (o: Json): Json => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== '' && v !== undefined));

export class InvalidResumeError extends Error {}

export function toJsonResume(d: CvDraft, title: string): Json {
  const extras = d.extras ?? {};
  const basicsExtra = isObj(extras.basics) ? extras.basics : {};
  const p = d.personalInfo;
  return {
    $schema: JSON_RESUME_SCHEMA,
    ...Object.fromEntries(Object.entries(extras).filter(([k]) => k !== 'basics')),
    basics: clean({ ...basicsExtra, name: p.fullName, email: p.email, phone: p.phone, summary: d.summary, location: p.location ? { city: p.location } : undefined }),
    work: d.experience.map((e) => clean({ position: e.title, name: e.company, startDate: e.startDate, endDate: e.endDate, summary: e.description })),
    education: d.education.map((e) => clean({ area: e.degree, institution: e.institution, endDate: e.year })),
    skills: skillList(d.skills).map((name) => ({ name })),
    meta: { version: 'v1.0.0', lastModified: new Date().toISOString(), template: d.template, title },
  };
}

function text(v: unknown, where: string, max: number = LIMITS.short): string {
  if (v === undefined || v === null) return '';
  if (typeof v !== 'string') throw new InvalidResumeError(`${where} must be text.`);
  return v.trim().slice(0, max);
}

function list(v: unknown, where: string): Json[] {
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v) || !v.every(isObj)) throw new InvalidResumeError(`"${where}" must be a list of entries.`);
  return v.slice(0, LIMITS.entries);
}

/** 'YYYY', 'YYYY-MM' or 'YYYY-MM-DD' (the schema's iso8601) as the builder's 'YYYY-MM'; '' when absent. */
function month(v: unknown, where: string): string {
  const s = text(v, where);
  if (!s) return '';
  const m = /^(\d{4})(?:-(0[1-9]|1[0-2])(?:-\d{2})?)?$/.exec(s);
  if (!m) throw new InvalidResumeError(`${where} must be a date like 2019, 2019-04 or 2019-04-01.`);
  return `${m[1]}-${m[2] ?? '01'}`;
}

function location(v: unknown): string {
  if (!isObj(v)) return '';
  return ['address', 'city', 'region', 'postalCode', 'countryCode']
    .map((k) => (typeof v[k] === 'string' ? (v[k] as string).trim() : ''))
    .filter(Boolean)
    .join(', ')
    .slice(0, LIMITS.short);
}

function work(entries: Json[]): Experience[] {
  return entries.map((w, i) => {
    const where = `Work entry ${i + 1}`;
    const highlights = Array.isArray(w.highlights) ? w.highlights.filter((h): h is string => typeof h === 'string') : [];
    const description = [text(w.summary, `${where} summary`, LIMITS.long), ...highlights.map((h) => `• ${h.trim()}`)].filter(Boolean).join('\n');
    return {
      ...emptyExperience(),
      title: text(w.position, `${where} position`),
      company: text(w.name ?? w.company, `${where} name`),
      startDate: month(w.startDate, `${where} startDate`),
      endDate: month(w.endDate, `${where} endDate`),
      description: description.slice(0, LIMITS.long),
    };
  });
}

function education(entries: Json[]): Education[] {
  return entries.map((e, i) => {
    const where = `Education entry ${i + 1}`;
    const degree = [text(e.studyType, `${where} studyType`), text(e.area, `${where} area`)].filter(Boolean).join(' ');
    const year = (month(e.endDate, `${where} endDate`) || month(e.startDate, `${where} startDate`)).slice(0, 4);
    return { ...emptyEducation(), degree: degree.slice(0, LIMITS.short), institution: text(e.institution, `${where} institution`), year };
  });
}

/** Parses a JSON Resume file's text into a draft and a title; throws InvalidResumeError with a readable reason. */
export function fromJsonResume(raw: string): { draft: CvDraft; title: string } {
  if (raw.length > 200_000) throw new InvalidResumeError('This file is larger than 200 kB; a CV file is much smaller.');
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    throw new InvalidResumeError('This file is not valid JSON.');
  }
  if (!isObj(json)) throw new InvalidResumeError('A JSON Resume file holds one object with sections such as "basics" and "work".');
  const basics = json.basics ?? {};
  if (!isObj(basics)) throw new InvalidResumeError('"basics" must be an object.');
  // A skill's keywords become skills of their own (the builder keeps one comma-separated list).
  const skills = list(json.skills, 'skills')
    .flatMap((s, i) => [text(s.name, `Skill ${i + 1} name`), ...(Array.isArray(s.keywords) ? s.keywords.filter((k): k is string => typeof k === 'string') : [])])
    .map((k) => k.trim())
    .filter(Boolean);
  const extras: Json = Object.fromEntries(Object.entries(json).filter(([k]) => !MAPPED.includes(k)));
  const basicsExtra = Object.fromEntries(Object.entries(basics).filter(([k]) => !BASICS_MAPPED.includes(k)));
  if (Object.keys(basicsExtra).length) extras.basics = basicsExtra;
  const meta = isObj(json.meta) ? json.meta : {};
  const draft: CvDraft = {
    personalInfo: {
      fullName: text(basics.name, 'basics.name'),
      email: text(basics.email, 'basics.email', LIMITS.email),
      phone: text(basics.phone, 'basics.phone', LIMITS.phone),
      location: location(basics.location),
    },
    summary: text(basics.summary, 'basics.summary', LIMITS.long),
    experience: work(list(json.work, 'work')),
    education: education(list(json.education, 'education')),
    skills: skills.join(', ').slice(0, LIMITS.long),
    step: 0,
    template: isTemplateId(meta.template) ? meta.template : 'professional',
  };
  if (Object.keys(extras).length) draft.extras = extras;
  const title = typeof meta.title === 'string' && meta.title.trim() ? meta.title.trim().slice(0, 200) : `${draft.personalInfo.fullName || 'Imported'} CV`;
  return { draft, title };
}
