// Display helpers shared by job cards, the job page and its JobPosting: text split into paragraphs and requirements,
// dates, client types and the agency line every advert carries (reg. 27).
import { describe, expect, it } from 'vitest';
import { advertiserText, clientTypeLabel, descriptionParagraphs, jobReference, postedText, requirementList } from './format';

describe('descriptionParagraphs and requirementList', () => {
  it('splits a description on blank lines (any line ends) and drops empty ones', () => {
    expect(descriptionParagraphs('One.\r\n\r\nTwo\nstill two.\n \n\n')).toEqual(['One.', 'Two\nstill two.']);
    expect(descriptionParagraphs(null)).toEqual([]);
  });

  it('reads requirements from a list or from lines, without their bullets', () => {
    expect(requirementList('- MRICS\n* 8 years\n• Driving licence\n\n  plain')).toEqual(['MRICS', '8 years', 'Driving licence', 'plain']);
    expect(requirementList([' - a', '', 'b'])).toEqual(['a', 'b']);
    expect(requirementList(null)).toEqual([]);
  });
});

describe('postedText', () => {
  it("prefers a sample job's relative text, else writes the UTC date in words", () => {
    expect(postedText({ posted: '2 days ago', posted_date: '2026-01-01' })).toBe('2 days ago');
    expect(postedText({ posted_date: '2026-01-05T23:30:00Z' })).toBe('5 January 2026');
  });

  it('gives null with no date or a date that does not parse', () => {
    expect(postedText({ posted_date: null })).toBeNull();
    expect(postedText({ posted_date: 'soon' })).toBeNull();
  });
});

describe('labels', () => {
  it('names the client type', () => {
    expect(clientTypeLabel(null)).toBe('Not specified');
    expect(clientTypeLabel('CONFIDENTIAL')).toBe('Confidential');
    expect(clientTypeLabel('named')).toBe('Named client');
    expect(clientTypeLabel('retained')).toBe('Retained');
  });

  it('uses the job reference, else the id', () => {
    expect(jobReference({ job_id: 'PPR-1', id: 'uuid' })).toBe('PPR-1');
    expect(jobReference({ job_id: null, id: 'uuid' })).toBe('uuid');
  });

  it('says whether the firm acts as an employment agency or business (reg. 27)', () => {
    expect(advertiserText('permanent', 'Firm')).toBe('Advertised by Firm, acting as an employment agency (permanent role).');
    for (const t of ['fixed-term', 'contract', 'interim', 'temporary'] as const)
      expect(advertiserText(t, 'Firm')).toBe('Advertised by Firm, acting as an employment business (temporary role).');
    expect(advertiserText(null, 'Firm')).toBe('Advertised by Firm.');
  });
});
