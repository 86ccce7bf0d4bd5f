// What a CV shows (the preview's and the PDF's one source): sections in order, empty ones left out, dates in words.
import { describe, expect, it } from 'vitest';
import { dateRange, layoutCv, monthLabel, skillList } from './layout';
import { emptyDraft } from './model';

describe('monthLabel and dateRange', () => {
  it('writes YYYY-MM as a short month and year', () => {
    expect(monthLabel('2019-04')).toBe('Apr 2019');
    expect(monthLabel('2019-12')).toBe('Dec 2019');
  });

  it('shows anything else as given', () => {
    expect(monthLabel('2019')).toBe('2019');
    expect(monthLabel('2019-13')).toBe('13 2019');
  });

  it('says Present for an open end and nothing without dates', () => {
    expect(dateRange('2019-04', '')).toBe('Apr 2019 – Present');
    expect(dateRange('', '2020-01')).toBe('– Jan 2020');
    expect(dateRange('', '')).toBe('');
  });
});

describe('skillList', () => {
  it('splits on commas and drops blanks', () => {
    expect(skillList(' Argus, ,BIM,, ')).toEqual(['Argus', 'BIM']);
  });
});

describe('layoutCv', () => {
  it('shows only the name and contact lines of an empty draft', () => {
    const d = emptyDraft();
    d.personalInfo = { fullName: ' Alex ', email: 'a@example.com', phone: ' ', location: 'Leeds' };
    expect(layoutCv(d)).toEqual({ name: 'Alex', contact: ['a@example.com', 'Leeds'], sections: [] });
  });

  it('orders profile, experience, education, skills and splits paragraphs on line breaks', () => {
    const d = emptyDraft();
    d.summary = 'First.\n\nSecond.';
    d.experience = [
      { id: '1', title: 'PM', company: 'Acme', startDate: '2020-01', endDate: '', description: 'Did a.\nDid b.' },
      { id: '2', title: ' ', company: '', startDate: '2010-01', endDate: '', description: '' },
    ];
    d.education = [{ id: '3', degree: 'BSc', institution: '', year: '2015' }];
    d.skills = 'Argus, BIM';
    const { sections } = layoutCv(d);
    expect(sections.map((s) => s.id)).toEqual(['profile', 'experience', 'education', 'skills']);
    expect(sections[0].entries[0].paragraphs).toEqual(['First.', 'Second.']);
    expect(sections[1].entries).toEqual([{ heading: 'PM', subheading: 'Acme', dates: 'Jan 2020 – Present', paragraphs: ['Did a.', 'Did b.'] }]);
    expect(sections[2].entries[0]).toMatchObject({ heading: 'BSc', dates: '2015' });
    expect(sections[3].entries[0].paragraphs).toEqual(['Argus, BIM']);
  });
});
