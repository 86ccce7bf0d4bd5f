// schema.org JobPosting for a job page (Google for Jobs, design product.md §1.5). The database function
// public.job_posting_json (sql/migrations/0402) emits the same object for the server-rendered page;
// web/e2e/job-page-twin.test.mjs fails when the two differ in any field.
import { site } from '@/content/site';
import { advertiserText, descriptionParagraphs, requirementList } from '@/lib/jobs/format';
import type { EmploymentType, JobRow } from '@/lib/jobs/types';

function escapeHtml(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

const EMPLOYMENT: Record<EmploymentType, string> = {
  permanent: 'FULL_TIME',
  'fixed-term': 'TEMPORARY',
  contract: 'CONTRACTOR',
  interim: 'CONTRACTOR',
  temporary: 'TEMPORARY',
};

/** JobPosting employmentType: from the employment type when stated, else guessed from the type badge. */
export function employmentType(type: string | null, basis: EmploymentType | null = null): string {
  if (basis) return EMPLOYMENT[basis];
  const t = (type ?? '').toLowerCase();
  if (t.includes('contract')) return 'CONTRACTOR';
  if (t.includes('temp')) return 'TEMPORARY';
  if (t.includes('part')) return 'PART_TIME';
  if (t.includes('graduate') || t.includes('intern')) return 'FULL_TIME';
  return 'FULL_TIME';
}

/** Description and requirements for JobPosting, as public.job_full_html builds them from the stored rendering. */
export function jobDescriptionHtml(job: Pick<JobRow, 'description' | 'requirements' | 'title' | 'description_html' | 'requirements_html'>): string {
  if (job.description_html !== undefined || job.requirements_html !== undefined) {
    const description = job.description_html ? `<div class="job-text">${job.description_html}</div>` : '';
    const requirements = job.requirements_html ? `<p>Requirements:</p><div class="job-text job-reqs">${job.requirements_html}</div>` : '';
    return description + requirements || `<p>${escapeHtml(job.title)}</p>`;
  }
  const paragraphs = descriptionParagraphs(job.description).map((p) => `<p>${escapeHtml(p)}</p>`);
  const reqs = requirementList(job.requirements);
  const list = reqs.length ? `<p>Requirements:</p><ul>${reqs.map((r) => `<li>${escapeHtml(r)}</li>`).join('')}</ul>` : '';
  return paragraphs.join('') + list || `<p>${escapeHtml(job.title)}</p>`;
}

export function jobPostingJsonLd(job: JobRow, url: string): Record<string, unknown> {
  // The client is hiring organisation when named; otherwise the agency (Google accepts this for agencies).
  const named = (job.client_type ?? '').toLowerCase() !== 'confidential' && !!job.company && !['Unknown Company', 'Confidential'].includes(job.company);
  const data: Record<string, unknown> = {
    '@context': 'https://schema.org',
    '@type': 'JobPosting',
    title: job.title,
    description: `${jobDescriptionHtml(job)}<p>${escapeHtml(advertiserText(job.employment_type ?? null, site.name))}</p>`,
    datePosted: job.posted_date ?? job.created_at ?? undefined,
    hiringOrganization: named
      ? { '@type': 'Organization', name: job.company }
      : { '@type': 'Organization', name: site.name, sameAs: site.url, logo: `${site.url}${site.logo.src}` },
    jobLocation: {
      '@type': 'Place',
      address: { '@type': 'PostalAddress', addressLocality: job.location ?? undefined, addressRegion: job.region ?? undefined, addressCountry: 'GB' },
    },
    employmentType: employmentType(job.type, job.employment_type ?? null),
    directApply: true,
    url,
  };
  if (job.work_arrangement === 'remote') {
    data.jobLocationType = 'TELECOMMUTE';
    data.applicantLocationRequirements = { '@type': 'Country', name: 'United Kingdom' };
  }
  if (job.job_id) data.identifier = { '@type': 'PropertyValue', name: site.name, value: job.job_id };
  if (job.closing_date) data.validThrough = `${job.closing_date}T23:59:59Z`;
  if (job.salary_min != null || job.salary_max != null) {
    const value: Record<string, unknown> = { '@type': 'QuantitativeValue', unitText: (job.salary_period ?? 'year').toUpperCase() };
    if (job.salary_min != null) value.minValue = job.salary_min;
    if (job.salary_max != null) value.maxValue = job.salary_max;
    if (job.salary_min != null && job.salary_max == null) value.value = job.salary_min;
    data.baseSalary = { '@type': 'MonetaryAmount', currency: 'GBP', value };
  }
  return data;
}
