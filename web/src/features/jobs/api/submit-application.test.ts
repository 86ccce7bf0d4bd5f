// The application form's CV check (PDF or Word, at most 10 MB, before anything is uploaded) and the storage-safe
// name the file is stored under. The upload itself is tested in the browser (web/e2e/data.test.mjs).
import { describe, expect, it } from 'vitest';
import { checkCv, CV_MAX_BYTES, safeFileName } from './submit-application';

const file = (name: string, type: string, size = 1000) => new File([new Uint8Array(size)], name, { type });

describe('checkCv', () => {
  it('accepts PDF and Word files, with or without a type from the browser', () => {
    expect(checkCv(file('cv.pdf', 'application/pdf'))).toBeNull();
    expect(checkCv(file('CV.DOCX', 'application/vnd.openxmlformats-officedocument.wordprocessingml.document'))).toBeNull();
    expect(checkCv(file('old.doc', 'application/msword'))).toBeNull();
    expect(checkCv(file('cv.pdf', ''))).toBeNull();
  });

  it('refuses other extensions, and a known extension with another type', () => {
    expect(checkCv(file('cv.txt', 'text/plain'))).toBe('type');
    expect(checkCv(file('cv', ''))).toBe('type');
    expect(checkCv(file('cv.pdf.exe', 'application/pdf'))).toBe('type');
    expect(checkCv(file('cv.pdf', 'text/html'))).toBe('type');
  });

  it('allows exactly 10 MB and refuses a byte more', () => {
    expect(checkCv(file('cv.pdf', 'application/pdf', CV_MAX_BYTES))).toBeNull();
    expect(checkCv(file('cv.pdf', 'application/pdf', CV_MAX_BYTES + 1))).toBe('size');
  });
});

describe('safeFileName', () => {
  it('keeps letters, digits, dots, dashes and underscores, folding the rest into one dash', () => {
    expect(safeFileName('Jo Smith CV (2026).pdf')).toBe('Jo-Smith-CV-2026-.pdf');
    expect(safeFileName('Zoë Brontë.docx')).toMatch(/^Zoe-Bronte-?\.docx$/);
  });

  it('never starts with a dot or a dash and cannot climb folders', () => {
    expect(safeFileName('../../etc/passwd')).toBe('etc-passwd');
    expect(safeFileName('.hidden.pdf')).toBe('hidden.pdf');
  });

  it('names a file with nothing usable cv, and keeps the last 100 characters (the extension)', () => {
    expect(safeFileName('履歴書')).toBe('cv');
    const long = safeFileName(`${'a'.repeat(300)}.pdf`);
    expect(long).toHaveLength(100);
    expect(long.endsWith('.pdf')).toBe(true);
  });
});
