// The CV draft: a stored draft made whole, the required-field check behind Complete, and reordering entries.
import { describe, expect, it } from 'vitest';
import { emptyDraft, fieldId, findProblems, move, normaliseDraft, STEP_COUNT, type CvDraft } from './model';

const complete = (): CvDraft => ({
  ...emptyDraft(),
  personalInfo: { fullName: 'Alex Morgan', email: 'alex@example.com', phone: '', location: '' },
  experience: [{ id: 'e1', title: 'Surveyor', company: 'Acme', startDate: '2019-04', endDate: '2021-01', description: '' }],
  education: [{ id: 'd1', degree: 'BSc', institution: 'Reading', year: '2015' }],
});

describe('findProblems', () => {
  it('finds nothing in a complete draft', () => {
    expect(findProblems(complete())).toEqual([]);
  });

  it('lists every missing starred field in wizard order, with the field to focus', () => {
    const problems = findProblems(emptyDraft());
    expect(problems.map((p) => p.step)).toEqual([0, 0, 2, 2, 3, 3]);
    expect(problems[0]).toEqual({ step: 0, fieldId: fieldId.fullName, message: 'Enter your full name' });
    expect(problems.map((p) => p.message)).toContain('Enter the job title of position 1');
  });

  it('refuses an e-mail without an @ or a domain', () => {
    for (const email of ['alex', 'alex@example', 'alex @example.com']) {
      const d = complete();
      d.personalInfo.email = email;
      expect(findProblems(d)).toEqual([{ step: 0, fieldId: 'cv-email', message: 'Enter an email address like name@example.com' }]);
    }
  });

  it('refuses an end date before the start date, and a year that is not four digits', () => {
    const d = complete();
    d.experience[0].endDate = '2018-12';
    d.education[0].year = '15';
    expect(findProblems(d).map((p) => p.fieldId)).toEqual(['cv-exp-e1-endDate', 'cv-edu-d1-year']);
  });

  it('allows an open end date (a current role) and no education year', () => {
    const d = complete();
    d.experience[0].endDate = '';
    d.education[0].year = '';
    expect(findProblems(d)).toEqual([]);
  });
});

describe('normaliseDraft', () => {
  it('fills a missing or broken stored draft with empty fields', () => {
    for (const data of [null, 'text', [], { personalInfo: 'x', experience: 'y' }]) {
      const d = normaliseDraft(data);
      expect(d.personalInfo).toEqual({ fullName: '', email: '', phone: '', location: '' });
      expect(d.experience).toEqual([]);
      expect(d.template).toBe('professional');
      expect(d.step).toBe(0);
    }
  });

  it('keeps the step within the wizard (spec §4: bounded at both ends)', () => {
    expect(normaliseDraft({ step: -3 }).step).toBe(0);
    expect(normaliseDraft({ step: 99 }).step).toBe(STEP_COUNT - 1);
    expect(normaliseDraft({ step: 2.4 }).step).toBe(2);
    expect(normaliseDraft({ step: '3' }).step).toBe(0);
  });

  it('keeps ids, gives entries without one a new id, and turns numbers into text', () => {
    const d = normaliseDraft({ experience: [{ id: 'keep', title: 'A' }, { title: 'B' }], education: [{ year: 2015 }], template: 'minimalist' });
    expect(d.experience[0].id).toBe('keep');
    expect(d.experience[1].id).toMatch(/^[0-9a-f-]{36}$/);
    expect(d.education[0].year).toBe('2015');
    expect(d.template).toBe('minimalist');
  });

  it('keeps extras only when there are some', () => {
    expect(normaliseDraft({ extras: {} }).extras).toBeUndefined();
    expect(normaliseDraft({ extras: { awards: [] } }).extras).toEqual({ awards: [] });
  });
});

describe('move', () => {
  it('swaps an entry with its neighbour and leaves the input alone', () => {
    const items = ['a', 'b', 'c'];
    expect(move(items, 0, 1)).toEqual(['b', 'a', 'c']);
    expect(move(items, 2, -1)).toEqual(['a', 'c', 'b']);
    expect(items).toEqual(['a', 'b', 'c']);
  });

  it('does nothing past either end', () => {
    const items = ['a', 'b'];
    expect(move(items, 0, -1)).toBe(items);
    expect(move(items, 1, 1)).toBe(items);
  });
});
