// The admin area's date formats: 'dd MMM yyyy HH:mm' (spec §9) in UK time, summer and winter, and relative times.
import { describe, expect, it } from 'vitest';
import { formatDate, formatDateTime, formatDay, formatRelative } from './format';

describe('formatDateTime and formatDate', () => {
  it('writes UK time: GMT in winter, BST in summer', () => {
    expect(formatDateTime('2026-01-05T09:30:00Z')).toBe('05 Jan 2026 09:30');
    expect(formatDateTime('2026-07-05T09:30:00Z')).toBe('05 Jul 2026 10:30');
    expect(formatDateTime('2026-03-29T00:59:00Z')).toBe('29 Mar 2026 00:59');
    expect(formatDateTime('2026-03-29T01:00:00Z')).toBe('29 Mar 2026 02:00');
  });

  it('turns the day over at UK midnight, not UTC midnight', () => {
    expect(formatDate('2026-06-30T23:30:00Z')).toBe('01 Jul 2026');
    expect(formatDateTime('2026-12-31T23:59:00Z')).toBe('31 Dec 2026 23:59');
  });

  it('is empty for no date', () => {
    expect(formatDateTime(null)).toBe('');
    expect(formatDate(undefined)).toBe('');
  });
});

describe('formatDay', () => {
  it('labels a chart day', () => {
    expect(formatDay('2026-01-05')).toBe('5 Jan');
    expect(formatDay('2026-12-31')).toBe('31 Dec');
  });
});

describe('formatRelative', () => {
  const now = Date.parse('2026-07-05T12:00:00Z');

  it('counts seconds, minutes and hours, then gives the date', () => {
    expect(formatRelative('2026-07-05T11:59:01Z', now)).toBe('just now');
    expect(formatRelative('2026-07-05T11:55:00Z', now)).toBe('5 min ago');
    expect(formatRelative('2026-07-05T09:00:00Z', now)).toBe('3 h ago');
    expect(formatRelative('2026-07-04T11:00:00Z', now)).toBe('04 Jul 2026 12:00');
  });

  it('says just now for a time slightly ahead of the clock', () => {
    expect(formatRelative('2026-07-05T12:00:30Z', now)).toBe('just now');
  });
});
