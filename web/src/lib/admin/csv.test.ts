// The admin area's CSV files: RFC 4180 quoting, and cells a spreadsheet would run as a formula made inert.
import { afterEach, describe, expect, it, vi } from 'vitest';
import Papa from 'papaparse';
import { csvCell, datedFileName, toCsv } from './csv';

describe('csvCell', () => {
  it('writes plain values as they are and null or undefined as empty', () => {
    expect(csvCell('Leeds')).toBe('Leeds');
    expect(csvCell(42)).toBe('42');
    expect(csvCell(false)).toBe('false');
    expect(csvCell(null)).toBe('');
    expect(csvCell(undefined)).toBe('');
  });

  it('quotes commas, quotes, line breaks and edge spaces, doubling inner quotes', () => {
    expect(csvCell('Smith, Jo')).toBe('"Smith, Jo"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('line 1\nline 2')).toBe('"line 1\nline 2"');
    expect(csvCell('a\r\nb')).toBe('"a\r\nb"');
    expect(csvCell(' padded ')).toBe('" padded "');
  });

  it.each(['=HYPERLINK("http://evil.example")', '+44 20 7946 0958', '-2+3', '@SUM(A1)', '\tcmd', '\rcmd'])('makes %j inert with a leading quote', (text) => {
    const cell = csvCell(text);
    const [[parsed]] = Papa.parse<string[]>(cell, { delimiter: ',' }).data;
    expect(parsed).toBe(`'${text}`);
  });

  it('leaves negative numbers given as numbers prefixed too (a spreadsheet would not run them, but the rule is one)', () => {
    expect(csvCell(-5)).toBe("'-5");
  });
});

describe('toCsv', () => {
  it('writes the header and rows with CRLF line ends, read back the same by a CSV parser', () => {
    const csv = toCsv(['Name', 'Notes'], [['Jo', 'likes "tea", coffee'], ['Sam', null]]);
    expect(csv).toBe('Name,Notes\r\nJo,"likes ""tea"", coffee"\r\nSam,\r\n');
    expect(Papa.parse<string[]>(csv, { skipEmptyLines: true }).data).toEqual([['Name', 'Notes'], ['Jo', 'likes "tea", coffee'], ['Sam', '']]);
  });

  it('writes only the header for no rows', () => {
    expect(toCsv(['A', 'B'], [])).toBe('A,B\r\n');
  });
});

describe('datedFileName', () => {
  afterEach(() => vi.useRealTimers());

  it("names the file with today's date (UTC)", () => {
    vi.useFakeTimers();
    vi.setSystemTime(new Date('2026-12-03T23:59:00Z'));
    expect(datedFileName('applications')).toBe('applications-2026-12-03.csv');
  });
});
