// JSON Resume export and import (jsonresume.org v1.0.0): the mapping both ways, what is kept aside, and the reason a
// bad file is refused.
import { describe, expect, it } from 'vitest';
import { fromJsonResume, InvalidResumeError, JSON_RESUME_SCHEMA, toJsonResume } from './json-resume';
import { emptyDraft, LIMITS, type CvDraft } from './model';

const draft = (): CvDraft => ({
  ...emptyDraft('executive'),
  personalInfo: { fullName: 'Alex Morgan', email: 'alex@example.com', phone: '07700 900123', location: 'Leeds' },
  summary: 'Chartered surveyor.',
  experience: [{ id: 'e1', title: 'Asset Manager', company: 'Northbank Estates', startDate: '2019-04', endDate: '', description: 'Ran a £200m portfolio.' }],
  education: [{ id: 'd1', degree: 'BSc Real Estate', institution: 'University of Reading', year: '2015' }],
  skills: 'Valuation, Argus ,, Lease negotiation',
});

const refusal = (raw: string) => {
  try {
    fromJsonResume(raw);
  } catch (e) {
    expect(e).toBeInstanceOf(InvalidResumeError);
    return (e as Error).message;
  }
  throw new Error('the file was accepted');
};

describe('toJsonResume', () => {
  it('maps the draft to basics, work, education, skills and meta, leaving out empty fields', () => {
    const out = toJsonResume(draft(), 'Asset CV');
    expect(out.$schema).toBe(JSON_RESUME_SCHEMA);
    expect(out.basics).toEqual({ name: 'Alex Morgan', email: 'alex@example.com', phone: '07700 900123', summary: 'Chartered surveyor.', location: { city: 'Leeds' } });
    expect(out.work).toEqual([{ position: 'Asset Manager', name: 'Northbank Estates', startDate: '2019-04', summary: 'Ran a £200m portfolio.' }]);
    expect(out.education).toEqual([{ area: 'BSc Real Estate', institution: 'University of Reading', endDate: '2015' }]);
    expect(out.skills).toEqual([{ name: 'Valuation' }, { name: 'Argus' }, { name: 'Lease negotiation' }]);
    expect(out.meta).toMatchObject({ version: 'v1.0.0', template: 'executive', title: 'Asset CV' });
  });

  it('puts back the sections and basics kept aside from an import', () => {
    const d = { ...draft(), extras: { awards: [{ title: 'RICS Young Surveyor' }], basics: { url: 'https://alex.example', name: 'stale' } } };
    const out = toJsonResume(d, 'CV');
    expect(out.awards).toEqual([{ title: 'RICS Young Surveyor' }]);
    expect(out.basics).toMatchObject({ url: 'https://alex.example', name: 'Alex Morgan' });
  });
});

describe('fromJsonResume', () => {
  it('round-trips what the builder edits', () => {
    const { draft: back, title } = fromJsonResume(JSON.stringify(toJsonResume(draft(), 'Asset CV')));
    expect(title).toBe('Asset CV');
    expect(back.personalInfo).toEqual(draft().personalInfo);
    expect(back.template).toBe('executive');
    expect(back.experience.map(({ id: _id, ...e }) => e)).toEqual([{ title: 'Asset Manager', company: 'Northbank Estates', startDate: '2019-04', endDate: '', description: 'Ran a £200m portfolio.' }]);
    expect(back.education.map(({ id: _id, ...e }) => e)).toEqual([{ degree: 'BSc Real Estate', institution: 'University of Reading', year: '2015' }]);
    expect(back.skills).toBe('Valuation, Argus, Lease negotiation');
    expect(back.extras).toBeUndefined();
  });

  it('reads a typical file from another tool: highlights, keywords, full dates, a location object', () => {
    const { draft: d, title } = fromJsonResume(
      JSON.stringify({
        basics: { name: ' Jo Lee ', location: { address: '1 High St', city: 'York', countryCode: 'GB' }, profiles: [{ network: 'LinkedIn' }] },
        work: [{ company: 'Acme', position: 'PM', startDate: '2020', endDate: '2022-03-15', summary: 'Led fit-outs.', highlights: ['Won bid', 7] }],
        education: [{ studyType: 'MSc', area: 'Planning', startDate: '2012-09' }],
        skills: [{ name: 'BIM', keywords: ['Revit', 3, 'Navisworks'] }],
        projects: [{ name: 'Tower' }],
        meta: { template: 'no-such-template' },
      }),
    );
    expect(title).toBe('Jo Lee CV');
    expect(d.personalInfo).toEqual({ fullName: 'Jo Lee', email: '', phone: '', location: '1 High St, York, GB' });
    expect(d.experience[0]).toMatchObject({ title: 'PM', company: 'Acme', startDate: '2020-01', endDate: '2022-03', description: 'Led fit-outs.\n• Won bid' });
    expect(d.education[0]).toMatchObject({ degree: 'MSc Planning', year: '2012' });
    expect(d.skills).toBe('BIM, Revit, Navisworks');
    expect(d.template).toBe('professional');
    expect(d.extras).toEqual({ projects: [{ name: 'Tower' }], basics: { profiles: [{ network: 'LinkedIn' }] } });
  });

  it('accepts an empty resume (every field is optional)', () => {
    const { draft: d, title } = fromJsonResume('{}');
    expect(title).toBe('Imported CV');
    expect(d.experience).toEqual([]);
    expect(d.personalInfo.fullName).toBe('');
  });

  it('cuts long text and long lists to the limits the database enforces', () => {
    const { draft: d } = fromJsonResume(JSON.stringify({ basics: { name: 'n'.repeat(500), summary: 's'.repeat(9000) }, work: Array.from({ length: 40 }, () => ({})) }));
    expect(d.personalInfo.fullName).toHaveLength(LIMITS.short);
    expect(d.summary).toHaveLength(LIMITS.long);
    expect(d.experience).toHaveLength(LIMITS.entries);
  });

  it.each([
    ['not JSON', '{"basics":', 'This file is not valid JSON.'],
    ['a list', '[]', 'A JSON Resume file holds one object with sections such as "basics" and "work".'],
    ['a string', '"cv"', 'A JSON Resume file holds one object with sections such as "basics" and "work".'],
    ['basics as text', '{"basics":"me"}', '"basics" must be an object.'],
    ['work as an object', '{"work":{"name":"Acme"}}', '"work" must be a list of entries.'],
    ['work entries as text', '{"work":["Acme"]}', '"work" must be a list of entries.'],
    ['a number for a name', '{"basics":{"name":42}}', 'basics.name must be text.'],
    ['a bad date', '{"work":[{"startDate":"April 2019"}]}', 'Work entry 1 startDate must be a date like 2019, 2019-04 or 2019-04-01.'],
    ['month 13', '{"education":[{"endDate":"2019-13"}]}', 'Education entry 1 endDate must be a date like 2019, 2019-04 or 2019-04-01.'],
  ])('refuses %s with a readable reason', (_case, raw, message) => {
    expect(refusal(raw)).toBe(message);
  });

  it('refuses a file over 200 kB before parsing it', () => {
    expect(refusal(' '.repeat(200_001))).toBe('This file is larger than 200 kB; a CV file is much smaller.');
  });
});
