// What a CV shows, in reading order, as plain blocks: the one source for the on-screen preview and the PDF, so both
// always carry the same text in the same order (only the rendering differs).
import type { CvDraft } from './model';

export type CvEntry = { heading: string; subheading: string; dates: string; paragraphs: string[] };
export type CvSection = { id: 'profile' | 'experience' | 'education' | 'skills'; title: string; entries: CvEntry[] };
export type CvLayout = { name: string; contact: string[]; sections: CvSection[] };

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** 'YYYY-MM' as 'Apr 2019'; anything else as given. */
export function monthLabel(value: string): string {
  const m = /^(\d{4})-(\d{2})$/.exec(value);
  return m ? `${MONTHS[Number(m[2]) - 1] ?? m[2]} ${m[1]}` : value;
}

export function dateRange(start: string, end: string): string {
  if (!start && !end) return '';
  return `${start ? monthLabel(start) : ''} – ${end ? monthLabel(end) : 'Present'}`.trim();
}

const paragraphs = (text: string) => text.split(/\n+/).map((s) => s.trim()).filter(Boolean);
export const skillList = (skills: string) => skills.split(',').map((s) => s.trim()).filter(Boolean);

export function layoutCv(d: CvDraft): CvLayout {
  const p = d.personalInfo;
  const sections: CvSection[] = [];
  if (d.summary.trim()) sections.push({ id: 'profile', title: 'Profile', entries: [{ heading: '', subheading: '', dates: '', paragraphs: paragraphs(d.summary) }] });
  const jobs = d.experience.filter((e) => e.title.trim() || e.company.trim() || e.description.trim());
  if (jobs.length)
    sections.push({
      id: 'experience',
      title: 'Experience',
      entries: jobs.map((e) => ({ heading: e.title.trim(), subheading: e.company.trim(), dates: dateRange(e.startDate, e.endDate), paragraphs: paragraphs(e.description) })),
    });
  const schools = d.education.filter((e) => e.degree.trim() || e.institution.trim());
  if (schools.length)
    sections.push({
      id: 'education',
      title: 'Education',
      entries: schools.map((e) => ({ heading: e.degree.trim(), subheading: e.institution.trim(), dates: e.year.trim(), paragraphs: [] })),
    });
  const skills = skillList(d.skills);
  if (skills.length) sections.push({ id: 'skills', title: 'Skills', entries: [{ heading: '', subheading: '', dates: '', paragraphs: [skills.join(', ')] }] });
  return { name: p.fullName.trim(), contact: [p.email, p.phone, p.location].map((s) => s.trim()).filter(Boolean), sections };
}
