// The job editor's model: the vocabularies the form offers, the form's values and the row they become, and the
// validation that names each missing field — for saving (what the table requires) and for publishing (reg. 27 and the
// closing date, the same rule as the database's public.job_publish_problems). Pure: no React, no network.
import { Constants, type Database, type Tables } from '@/lib/database.types';
import { renderJobMarkdown } from '@/lib/job-markdown';

type Enums = Database['public']['Enums'];
export type EmploymentType = Enums['employment_type'];
export type WorkArrangement = Enums['work_arrangement'];
export type SalaryPeriod = Enums['salary_period'];
export type UkRegion = Enums['uk_region'];
export type JobStatus = 'draft' | 'active' | 'closed';

export const EMPLOYMENT_TYPES = Constants.public.Enums.employment_type;
export const WORK_ARRANGEMENTS = Constants.public.Enums.work_arrangement;
export const SALARY_PERIODS = Constants.public.Enums.salary_period;
export const UK_REGIONS = Constants.public.Enums.uk_region;
export const JOB_STATUSES: readonly JobStatus[] = ['draft', 'active', 'closed'];

export const EMPLOYMENT_TYPE_LABELS: Record<EmploymentType, string> = {
  permanent: 'Permanent',
  'fixed-term': 'Fixed-term contract (temporary)',
  contract: 'Contract (temporary)',
  interim: 'Interim (temporary)',
  temporary: 'Temporary',
};
export const WORK_ARRANGEMENT_LABELS: Record<WorkArrangement, string> = { 'on-site': 'On-site', hybrid: 'Hybrid', remote: 'Remote' };
export const SALARY_PERIOD_LABELS: Record<SalaryPeriod, string> = { year: 'per year', month: 'per month', week: 'per week', day: 'per day', hour: 'per hour' };
export const STATUS_LABELS: Record<JobStatus, string> = { draft: 'Draft', active: 'Live', closed: 'Closed' };
/** The spec's job types (§3) for the badge; free text is allowed too. */
export const JOB_TYPES = ['Management', 'Senior Executive', 'Professional', 'Graduate', 'Permanent', 'C-Suite', 'Board-Level', 'Partnership', 'Senior Leadership'];
/** The spec's sectors (§5 featured-job options). */
export const SECTORS = ['Communications & Data', 'Property Company', 'Consultancy', 'Not for Profit', 'Supply Chain', 'Retail & Consumer', 'Hospitality', 'Public Authority'];
export const CLIENT_TYPES = [
  { value: 'named', label: 'Named client' },
  { value: 'confidential', label: 'Confidential' },
];

/** Every jobs column the editor reads and writes. */
export const EDITOR_COLUMNS =
  'id,job_id,status,posted_date,closing_date,title,company,location,region,salary,salary_min,salary_max,salary_period,type,employment_type,work_arrangement,sector,description,requirements,benefits,client_type,external_id,hero_image,consultant_name,consultant_email,updated_at,published_at,description_html,requirements_html';

/** A row of EDITOR_COLUMNS as the generated schema types it. */
export type EditorRow = Pick<
  Tables<'jobs'>,
  | 'id'
  | 'job_id'
  | 'status'
  | 'posted_date'
  | 'closing_date'
  | 'title'
  | 'company'
  | 'location'
  | 'region'
  | 'salary'
  | 'salary_min'
  | 'salary_max'
  | 'salary_period'
  | 'type'
  | 'employment_type'
  | 'work_arrangement'
  | 'sector'
  | 'description'
  | 'requirements'
  | 'benefits'
  | 'client_type'
  | 'external_id'
  | 'hero_image'
  | 'consultant_name'
  | 'consultant_email'
  | 'updated_at'
  | 'published_at'
  | 'description_html'
  | 'requirements_html'
>;
/** The row with its status narrowed to the three the table's check allows. */
export type EditorJob = Omit<EditorRow, 'status'> & { status: JobStatus };

export function isJobStatus(value: string): value is JobStatus {
  return (JOB_STATUSES as readonly string[]).includes(value);
}

/** Narrows a read row; a status outside the vocabulary is a broken contract, reported rather than cast. */
export function editorJob(row: EditorRow): EditorJob {
  const { status } = row;
  if (!isJobStatus(status)) throw new Error(`Unexpected job status: ${status}`);
  return { ...row, status };
}

/** The form: every field a string, as the inputs hold them. */
export type JobValues = {
  title: string;
  company: string;
  client_type: string;
  job_id: string;
  location: string;
  region: string;
  sector: string;
  type: string;
  employment_type: string;
  work_arrangement: string;
  salary: string;
  salary_min: string;
  salary_max: string;
  salary_period: string;
  closing_date: string;
  description: string;
  requirements: string;
  benefits: string;
  consultant_name: string;
  consultant_email: string;
  hero_image: string;
};
export type FieldName = keyof JobValues;
export type FieldErrors = Partial<Record<FieldName, string>>;

export const EMPTY_VALUES: JobValues = {
  title: '', company: '', client_type: 'named', job_id: '', location: '', region: '', sector: '', type: '', employment_type: '',
  work_arrangement: '', salary: '', salary_min: '', salary_max: '', salary_period: 'year', closing_date: '', description: '',
  requirements: '', benefits: '', consultant_name: '', consultant_email: '', hero_image: '',
};

export function valuesFromJob(job: EditorJob): JobValues {
  const text = (v: string | number | null | undefined) => (v == null ? '' : String(v));
  return {
    title: job.title,
    company: job.company,
    client_type: text(job.client_type),
    job_id: text(job.job_id),
    location: text(job.location),
    region: text(job.region),
    sector: text(job.sector),
    type: text(job.type),
    employment_type: text(job.employment_type),
    work_arrangement: text(job.work_arrangement),
    salary: text(job.salary),
    salary_min: text(job.salary_min),
    salary_max: text(job.salary_max),
    salary_period: job.salary_period ?? 'year',
    closing_date: text(job.closing_date),
    description: text(job.description),
    requirements: text(job.requirements),
    benefits: (job.benefits ?? []).join('\n'),
    consultant_name: text(job.consultant_name),
    consultant_email: text(job.consultant_email),
    hero_image: text(job.hero_image),
  };
}

const isConfidential = (v: Pick<JobValues, 'client_type'>) => v.client_type.toLowerCase() === 'confidential';
const opt = (s: string) => (s.trim() ? s.trim() : null);
const money = (s: string) => (s.trim() ? Number(s.replace(/[£,\s]/g, '')) : null);

/** Benefits: one per line (or separated by ";"), blanks dropped. */
export function parseBenefits(text: string): string[] {
  return text.split(/\r?\n|;/).map((b) => b.trim()).filter(Boolean);
}

/** Whether a Markdown field still holds the job's stored text (then its stored HTML stays as it is). */
export function unchangedText(v: JobValues, job: Pick<EditorJob, 'description' | 'requirements'> | null, name: 'description' | 'requirements'): boolean {
  return job !== null && v[name] === (job[name] ?? '');
}

/**
 * The row the form writes: jobs columns, with the Markdown rendered once into the stored HTML. Text the admin did not
 * touch is left out, so a job's stored rendering (e.g. a CRM's plain-text list) is kept until its text is edited.
 */
export function rowFromValues(v: JobValues, job: EditorJob | null = null) {
  const row = fullRow(v);
  if (unchangedText(v, job, 'description')) {
    delete row.description;
    delete row.description_html;
  }
  if (unchangedText(v, job, 'requirements')) {
    delete row.requirements;
    delete row.requirements_html;
  }
  return row;
}

function fullRow(v: JobValues) {
  return {
    title: v.title.trim(),
    company: isConfidential(v) && !v.company.trim() ? 'Confidential' : v.company.trim(),
    client_type: opt(v.client_type),
    job_id: opt(v.job_id),
    location: opt(v.location),
    region: (opt(v.region) as UkRegion | null) ?? null,
    sector: opt(v.sector),
    type: opt(v.type),
    employment_type: (opt(v.employment_type) as EmploymentType | null) ?? null,
    work_arrangement: (opt(v.work_arrangement) as WorkArrangement | null) ?? null,
    salary: opt(v.salary),
    salary_min: money(v.salary_min),
    salary_max: money(v.salary_max),
    salary_period: (v.salary_period || 'year') as SalaryPeriod,
    closing_date: opt(v.closing_date),
    description: opt(v.description) as string | null | undefined,
    description_html: renderJobMarkdown(v.description) as string | null | undefined,
    requirements: opt(v.requirements) as string | null | undefined,
    requirements_html: renderJobMarkdown(v.requirements) as string | null | undefined,
    benefits: parseBenefits(v.benefits),
    consultant_name: opt(v.consultant_name),
    consultant_email: opt(v.consultant_email),
    hero_image: opt(v.hero_image),
  };
}
export type JobRowInput = ReturnType<typeof fullRow>;

/** Today's date in the UK as YYYY-MM-DD (closing dates are UK dates). */
export function ukToday(now = new Date()): string {
  return now.toLocaleDateString('en-CA', { timeZone: 'Europe/London' });
}

const EMAIL = /^[^@\s<>"]+@[^@\s<>"]+\.[^@\s<>"]+$/;
const IMAGE = /^(https:\/\/[^\s"<>]+|\/[^/\\\s"<>][^\s"<>]*)$/;
const WHOLE_POUNDS = /^\d{1,9}$/;

/** Whether the advert states pay (reg. 27(3)): a figure, or salary text with a number in it. */
export function statesPay(v: Pick<JobValues, 'salary' | 'salary_min' | 'salary_max'>): boolean {
  return Boolean(v.salary_min.trim() || v.salary_max.trim() || /\d/.test(v.salary));
}

/** What saving needs (any status): the table's own rules. */
export function saveErrors(v: JobValues): FieldErrors {
  const e: FieldErrors = {};
  if (!v.title.trim()) e.title = 'Job title is required';
  else if (v.title.length > 300) e.title = 'Job title must be at most 300 characters';
  if (!v.company.trim() && !isConfidential(v)) e.company = 'Company is required (or mark the client confidential)';
  const min = v.salary_min.replace(/[£,\s]/g, '');
  const max = v.salary_max.replace(/[£,\s]/g, '');
  if (min && !WHOLE_POUNDS.test(min)) e.salary_min = 'Minimum salary must be a whole number of pounds';
  if (max && !WHOLE_POUNDS.test(max)) e.salary_max = 'Maximum salary must be a whole number of pounds';
  if (!e.salary_min && !e.salary_max && min && max && Number(min) > Number(max)) e.salary_max = 'Maximum salary must not be below the minimum';
  if (v.consultant_email.trim() && !EMAIL.test(v.consultant_email.trim())) e.consultant_email = 'Consultant e-mail must be an e-mail address';
  if (v.hero_image.trim() && !IMAGE.test(v.hero_image.trim())) e.hero_image = 'Hero image must be an https:// address or a path on this site (/images/…)';
  if (v.closing_date && !/^\d{4}-\d{2}-\d{2}$/.test(v.closing_date)) e.closing_date = 'Closing date must be a date';
  if (v.description.length > 20000) e.description = 'Description must be at most 20,000 characters';
  if (v.requirements.length > 10000) e.requirements = 'Requirements must be at most 10,000 characters';
  return e;
}

/** The messages for what publishing needs; the keys are the database's vocabulary (job_publish_problems). */
export const PUBLISH_MESSAGES: Record<string, { field: FieldName | null; message: string }> = {
  agency_name: { field: null, message: "The agency's full name is not set in the site settings" },
  employment_type: { field: 'employment_type', message: 'Employment type is required to publish: say whether the role is permanent or temporary (reg. 27)' },
  description: { field: 'description', message: 'Description is required to publish when pay is stated: describe the nature of the work (reg. 27)' },
  location: { field: 'location', message: 'Location is required to publish when pay is stated (reg. 27)' },
  requirements: { field: 'requirements', message: 'Requirements are required to publish when pay is stated: the minimum experience, training or qualifications (reg. 27)' },
  closing_date: { field: 'closing_date', message: 'The closing date has passed: choose a later date or clear it to publish' },
};

/** What keeps the values from being published: the database's rule, checked before asking it. */
export function publishProblems(v: JobValues, today = ukToday()): string[] {
  const pay = statesPay(v);
  return [
    !v.employment_type && 'employment_type',
    pay && !v.description.trim() && 'description',
    pay && !v.location.trim() && 'location',
    pay && !v.requirements.trim() && 'requirements',
    v.closing_date && v.closing_date < today && 'closing_date',
  ].filter((p): p is string => Boolean(p));
}

/** Field errors for saving with the given status (publishing adds reg. 27). */
export function validate(v: JobValues, status: JobStatus, today = ukToday()): FieldErrors {
  const e = saveErrors(v);
  if (status !== 'active') return e;
  for (const p of publishProblems(v, today)) {
    const m = PUBLISH_MESSAGES[p];
    if (m?.field && !e[m.field]) e[m.field] = m.message;
  }
  return e;
}

/** The database's refusal (23514 with DETAIL = ["employment_type", …]) as field errors; null when it is not one. */
export function publishErrorsFromDetail(details: string | null | undefined): { fields: FieldErrors; general: string[] } | null {
  if (!details) return null;
  let names: unknown;
  try {
    names = JSON.parse(details);
  } catch {
    return null;
  }
  if (!Array.isArray(names)) return null;
  const fields: FieldErrors = {};
  const general: string[] = [];
  for (const n of names) {
    const m = PUBLISH_MESSAGES[String(n)];
    if (m?.field) fields[m.field] = m.message;
    else general.push(m?.message ?? String(n));
  }
  return { fields, general };
}

/** The labels the form shows, for the error summary. */
export const FIELD_LABELS: Record<FieldName, string> = {
  title: 'Job title', company: 'Company', client_type: 'Type of client', job_id: 'Job reference', location: 'Location',
  region: 'Region', sector: 'Sector', type: 'Job type (badge)', employment_type: 'Employment type', work_arrangement: 'Work arrangement',
  salary: 'Salary (as shown)', salary_min: 'Minimum salary (£)', salary_max: 'Maximum salary (£)', salary_period: 'Salary period',
  closing_date: 'Closing date', description: 'Description', requirements: 'Requirements', benefits: 'Benefits',
  consultant_name: 'Consultant name', consultant_email: 'Consultant e-mail', hero_image: 'Hero image',
};
