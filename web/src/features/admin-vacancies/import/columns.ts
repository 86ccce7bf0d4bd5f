// The CSV import's documented column set (also in sql/README.md "CSV import of jobs" and the downloadable template):
// the header row names the columns, in any order; only external_id is required on every row, and title and company
// for a new job. A column left out of the file leaves that field of an existing job as it is; an empty cell clears it.
import { EMPLOYMENT_TYPES, SALARY_PERIODS, WORK_ARRANGEMENTS } from '../job-model';

export type ColumnKind = 'text' | 'markdown' | 'status' | 'employment_type' | 'work_arrangement' | 'salary_period' | 'money' | 'date' | 'list' | 'client_type';

export type ImportColumn = { name: string; kind: ColumnKind; required?: boolean; help: string };

export const IMPORT_COLUMNS: ImportColumn[] = [
  { name: 'external_id', kind: 'text', required: true, help: "Your CRM's id for the job: a row with a known external_id updates that job, a new one adds a job" },
  { name: 'job_id', kind: 'text', help: 'The reference shown as Job ID, e.g. PPR-1042' },
  { name: 'status', kind: 'status', help: 'draft (default for new jobs), active (published: must meet reg. 27) or closed' },
  { name: 'title', kind: 'text', help: 'Job title (required for a new job)' },
  { name: 'company', kind: 'text', help: 'Hiring organisation, or Confidential (required for a new job)' },
  { name: 'client_type', kind: 'client_type', help: 'named or confidential' },
  { name: 'location', kind: 'text', help: 'Town or area, e.g. Canary Wharf, London' },
  { name: 'sector', kind: 'text', help: 'e.g. Property Company' },
  { name: 'type', kind: 'text', help: "The job page's badge, e.g. Senior Leadership" },
  { name: 'employment_type', kind: 'employment_type', help: `${EMPLOYMENT_TYPES.join(', ')} (required to publish)` },
  { name: 'work_arrangement', kind: 'work_arrangement', help: WORK_ARRANGEMENTS.join(', ') },
  { name: 'salary', kind: 'text', help: 'As shown, e.g. £85,000 - £95,000 or Competitive' },
  { name: 'salary_min', kind: 'money', help: 'Whole pounds, e.g. 85000 (£ and commas allowed)' },
  { name: 'salary_max', kind: 'money', help: 'Whole pounds' },
  { name: 'salary_period', kind: 'salary_period', help: `${SALARY_PERIODS.join(', ')} (default year)` },
  { name: 'closing_date', kind: 'date', help: 'YYYY-MM-DD or DD/MM/YYYY (UK)' },
  { name: 'description', kind: 'markdown', help: 'Markdown; the nature of the work' },
  { name: 'requirements', kind: 'markdown', help: 'Markdown; minimum experience, training or qualifications' },
  { name: 'benefits', kind: 'list', help: 'Separated by ; or line breaks' },
  { name: 'consultant_name', kind: 'text', help: "Shown as 'Reach out to …'" },
  { name: 'consultant_email', kind: 'text', help: 'E-mail address' },
  { name: 'hero_image', kind: 'text', help: 'https:// address or /path on this site' },
];

export const MAX_IMPORT_ROWS = 500;

/** The template: the header row and one example job. */
export function templateCsv(): string {
  const example: Record<string, string> = {
    external_id: 'CRM-1001',
    job_id: 'PPR-2001',
    status: 'draft',
    title: 'Senior Development Manager',
    company: 'Northbank Estates',
    client_type: 'named',
    location: 'Manchester',
    sector: 'Property Company',
    type: 'Senior Executive',
    employment_type: 'permanent',
    work_arrangement: 'hybrid',
    salary: '£85,000 - £95,000',
    salary_min: '85000',
    salary_max: '95000',
    salary_period: 'year',
    closing_date: '2027-01-31',
    description: 'Lead **mixed-use** schemes from acquisition to completion.\n\nYou will report to the Development Director.',
    requirements: '- 8+ years in development\n- MRICS or working towards it',
    benefits: 'Car allowance; Bonus; Private healthcare',
    consultant_name: 'Sarah Whitfield',
    consultant_email: 'sarah@example.com',
    hero_image: '',
  };
  const cell = (s: string) => (/[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s);
  const names = IMPORT_COLUMNS.map((c) => c.name);
  return `${names.join(',')}\r\n${names.map((n) => cell(example[n] ?? '')).join(',')}\r\n`;
}
