// The job editor's model: what saving and publishing need (reg. 27, as public.job_publish_problems), the row the form
// writes, and the database's refusal read back as field errors.
import { describe, expect, it } from 'vitest';
import {
  EMPTY_VALUES,
  parseBenefits,
  publishErrorsFromDetail,
  publishProblems,
  rowFromValues,
  saveErrors,
  statesPay,
  ukToday,
  validate,
  valuesFromJob,
  type EditorJob,
  type JobValues,
} from './job-model';

const values = (over: Partial<JobValues> = {}): JobValues => ({
  ...EMPTY_VALUES,
  title: 'Senior Development Manager',
  company: 'Northbank Estates',
  employment_type: 'permanent',
  location: 'Manchester',
  salary_min: '85000',
  salary_max: '95,000',
  description: 'Lead **mixed-use** schemes.',
  requirements: '- 8+ years',
  closing_date: '2027-01-31',
  ...over,
});

const stored = (over: Partial<EditorJob> = {}): EditorJob => ({
  id: 'f3c1', job_id: null, status: 'draft', posted_date: '2026-11-01', closing_date: null, title: 'T', company: 'C', location: null,
  region: null, salary: null, salary_min: null, salary_max: null, salary_period: 'year', type: null, employment_type: null,
  work_arrangement: null, sector: null, description: null, requirements: null, benefits: [], client_type: null, external_id: null,
  hero_image: null, consultant_name: null, consultant_email: null, updated_at: '2026-11-01T09:00:00Z', published_at: null,
  description_html: null, requirements_html: null,
  ...over,
});

describe('saveErrors', () => {
  it('passes a complete job', () => {
    expect(saveErrors(values())).toEqual({});
  });

  it('needs a title, and a company unless the client is confidential', () => {
    expect(saveErrors(values({ title: ' ', company: '' }))).toEqual({ title: 'Job title is required', company: 'Company is required (or mark the client confidential)' });
    expect(saveErrors(values({ company: '', client_type: 'Confidential' }))).toEqual({});
  });

  it('holds the title to 300 characters', () => {
    expect(saveErrors(values({ title: 't'.repeat(300) })).title).toBeUndefined();
    expect(saveErrors(values({ title: 't'.repeat(301) })).title).toBe('Job title must be at most 300 characters');
  });

  it('wants whole pounds (£ and commas allowed) with the maximum not below the minimum', () => {
    expect(saveErrors(values({ salary_min: '£85,000', salary_max: '£ 95 000' }))).toEqual({});
    expect(saveErrors(values({ salary_min: '85k' })).salary_min).toBe('Minimum salary must be a whole number of pounds');
    expect(saveErrors(values({ salary_max: '95000.50' })).salary_max).toBe('Maximum salary must be a whole number of pounds');
    expect(saveErrors(values({ salary_min: '-1' })).salary_min).toBeDefined();
    expect(saveErrors(values({ salary_min: '96000', salary_max: '95000' })).salary_max).toBe('Maximum salary must not be below the minimum');
  });

  it('checks the consultant e-mail and the hero image address', () => {
    expect(saveErrors(values({ consultant_email: 'sarah@example' })).consultant_email).toBeDefined();
    expect(saveErrors(values({ consultant_email: 'sarah@example.com' })).consultant_email).toBeUndefined();
    for (const hero_image of ['https://cdn.example.com/a.jpg', '/images/a.jpg']) expect(saveErrors(values({ hero_image }))).toEqual({});
    for (const hero_image of ['http://cdn.example.com/a.jpg', '//evil.example/a.jpg', 'javascript:alert(1)', '/a.jpg" onerror="x'])
      expect(saveErrors(values({ hero_image })).hero_image).toMatch(/^Hero image must be/);
  });

  it('holds description and requirements to their lengths', () => {
    expect(saveErrors(values({ description: 'd'.repeat(20001), requirements: 'r'.repeat(10001) }))).toEqual({
      description: 'Description must be at most 20,000 characters',
      requirements: 'Requirements must be at most 10,000 characters',
    });
  });
});

describe('publishing (reg. 27)', () => {
  const today = '2026-12-01';

  it('states pay with a figure or a number in the salary text', () => {
    expect(statesPay({ salary: 'Competitive', salary_min: '', salary_max: '' })).toBe(false);
    expect(statesPay({ salary: 'Up to £60k', salary_min: '', salary_max: '' })).toBe(true);
    expect(statesPay({ salary: '', salary_min: '', salary_max: '50000' })).toBe(true);
  });

  it('needs the employment type always, and description, location and requirements when pay is stated', () => {
    expect(publishProblems(values(), today)).toEqual([]);
    expect(publishProblems(values({ employment_type: '', description: ' ', location: '', requirements: '' }), today)).toEqual([
      'employment_type',
      'description',
      'location',
      'requirements',
    ]);
    const noPay = values({ salary_min: '', salary_max: '', salary: 'Competitive', description: '', location: '', requirements: '' });
    expect(publishProblems(noPay, today)).toEqual([]);
  });

  it('refuses a closing date before today, not today itself', () => {
    expect(publishProblems(values({ closing_date: '2026-11-30' }), today)).toEqual(['closing_date']);
    expect(publishProblems(values({ closing_date: today }), today)).toEqual([]);
  });

  it('adds the publishing rules only for a live job, without hiding a save error', () => {
    const v = values({ employment_type: '', description: 'd'.repeat(20001) });
    expect(validate(v, 'draft', today)).toEqual({ description: 'Description must be at most 20,000 characters' });
    expect(validate(v, 'active', today)).toEqual({
      employment_type: 'Employment type is required to publish: say whether the role is permanent or temporary (reg. 27)',
      description: 'Description must be at most 20,000 characters',
    });
  });

  it('reads the database refusal as field errors and general messages', () => {
    expect(publishErrorsFromDetail('["location","agency_name","something_new"]')).toEqual({
      fields: { location: 'Location is required to publish when pay is stated (reg. 27)' },
      general: ["The agency's full name is not set in the site settings", 'something_new'],
    });
    for (const detail of [null, undefined, '', 'not json', '{"location":true}']) expect(publishErrorsFromDetail(detail)).toBeNull();
  });

  it("takes today's date in the UK, not in UTC", () => {
    expect(ukToday(new Date('2026-06-30T23:30:00Z'))).toBe('2026-07-01');
    expect(ukToday(new Date('2026-12-31T23:30:00Z'))).toBe('2026-12-31');
  });
});

describe('the row the form writes', () => {
  it('trims, turns blanks into null, pounds into numbers and renders the Markdown', () => {
    const row = rowFromValues(values({ location: '  ', benefits: 'Car allowance; Bonus\n\n Healthcare ' }));
    expect(row).toMatchObject({
      title: 'Senior Development Manager',
      location: null,
      salary_min: 85000,
      salary_max: 95000,
      salary_period: 'year',
      benefits: ['Car allowance', 'Bonus', 'Healthcare'],
      description_html: '<p>Lead <strong>mixed-use</strong> schemes.</p>',
      requirements_html: '<ul>\n<li>8+ years</li>\n</ul>',
    });
  });

  it('names a confidential client without a company Confidential', () => {
    expect(rowFromValues(values({ client_type: 'confidential', company: '' })).company).toBe('Confidential');
  });

  it("leaves out text the admin did not touch, keeping the job's stored rendering", () => {
    const job = stored({ description: 'Stored text', description_html: '<p>Stored <em>by the CRM</em></p>' });
    const row = rowFromValues(values({ description: 'Stored text', requirements: '' }), job);
    expect(row).not.toHaveProperty('description');
    expect(row).not.toHaveProperty('description_html');
    expect(row).not.toHaveProperty('requirements');
    expect(rowFromValues(values({ description: 'Edited' }), job).description).toBe('Edited');
  });

  it('reads a stored job back into the form', () => {
    const job = stored({ salary_min: 50000, benefits: ['A', 'B'], salary_period: 'day' });
    expect(valuesFromJob(job)).toMatchObject({ title: 'T', salary_min: '50000', salary_max: '', benefits: 'A\nB', salary_period: 'day', client_type: '' });
  });

  it('splits benefits on lines and semicolons, dropping blanks', () => {
    expect(parseBenefits('a;b\r\nc;;\n ')).toEqual(['a', 'b', 'c']);
    expect(parseBenefits('')).toEqual([]);
  });
});
