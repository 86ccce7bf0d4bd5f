// The CSV import's parsing and preview: the header checked, each cell converted to its column's type, the problems
// found per row and per file (before anything is sent to the database).
import { describe, expect, it } from 'vitest';
import { IMPORT_COLUMNS, MAX_IMPORT_ROWS, templateCsv, type ImportColumn } from './columns';
import { convertCell, parseJobsCsv, parseUkDate } from './parse';

const column = (name: string): ImportColumn => {
  const found = IMPORT_COLUMNS.find((c) => c.name === name);
  if (!found) throw new Error(`no column ${name}`);
  return found;
};

describe('parseUkDate', () => {
  it('reads DD/MM/YYYY and YYYY-MM-DD', () => {
    expect(parseUkDate('31/01/2027')).toBe('2027-01-31');
    expect(parseUkDate('1/2/2027')).toBe('2027-02-01');
    expect(parseUkDate('2027-01-31')).toBe('2027-01-31');
  });

  it('refuses dates that do not exist and other formats', () => {
    for (const text of ['31/02/2027', '29/02/2027', '2027-13-01', '00/01/2027', '01/31/2027', '2027/01/31', '31-01-2027', '2027-1-31', 'tomorrow', ''])
      expect(parseUkDate(text), text).toBeNull();
    expect(parseUkDate('29/02/2028')).toBe('2028-02-29');
  });
});

describe('convertCell', () => {
  it('reads pounds with £, commas and spaces as whole numbers', () => {
    expect(convertCell(column('salary_min'), ' £85,000 ')).toEqual({ value: 85000, error: null });
    expect(convertCell(column('salary_max'), '85k')).toEqual({ value: null, error: 'salary_max must be whole pounds (not "85k")' });
    expect(convertCell(column('salary_max'), '85000.50').error).not.toBeNull();
  });

  it('reads a vocabulary case-insensitively with spaces as dashes, and names the allowed values otherwise', () => {
    expect(convertCell(column('employment_type'), 'Fixed Term')).toEqual({ value: 'fixed-term', error: null });
    expect(convertCell(column('work_arrangement'), 'ON-SITE').value).toBe('on-site');
    expect(convertCell(column('status'), 'published')).toEqual({ value: null, error: 'status must be one of draft, active, closed (not "published")' });
    expect(convertCell(column('client_type'), 'Confidential').value).toBe('confidential');
  });

  it('splits lists on ; and line breaks; an empty cell clears the field', () => {
    expect(convertCell(column('benefits'), 'Car; Bonus\r\nHealthcare;').value).toEqual(['Car', 'Bonus', 'Healthcare']);
    expect(convertCell(column('benefits'), '  ').value).toEqual([]);
    expect(convertCell(column('title'), '  ').value).toBeNull();
    expect(convertCell(column('closing_date'), '').value).toBeNull();
  });

  it('keeps Markdown exactly as written, and trims plain text', () => {
    expect(convertCell(column('description'), '  - one\n- two ').value).toBe('  - one\n- two ');
    expect(convertCell(column('title'), '  Head of Estates ').value).toBe('Head of Estates');
  });
});

describe('parseJobsCsv', () => {
  it("reads the downloadable template's example without a problem", () => {
    const { rows, fileErrors } = parseJobsCsv(templateCsv());
    expect(fileErrors).toEqual([]);
    expect(rows).toHaveLength(1);
    expect(rows[0].errors).toEqual([]);
    expect(rows[0].values).toMatchObject({
      external_id: 'CRM-1001',
      status: 'draft',
      salary_min: 85000,
      closing_date: '2027-01-31',
      benefits: ['Car allowance', 'Bonus', 'Private healthcare'],
      hero_image: null,
      description_html: '<p>Lead <strong>mixed-use</strong> schemes from acquisition to completion.</p>\n<p>You will report to the Development Director.</p>',
    });
  });

  it('accepts columns in any order, any case, with a BOM and blank lines; rows are numbered as the file is', () => {
    const { rows, fileErrors } = parseJobsCsv('\uFEFFTitle, EXTERNAL_ID \r\n\r\nSurveyor,A1\r\nPlanner,A2\r\n\r\n');
    expect(fileErrors).toEqual([]);
    expect(rows.map((r) => [r.line, r.values.external_id, r.values.title])).toEqual([
      [2, 'A1', 'Surveyor'],
      [3, 'A2', 'Planner'],
    ]);
  });

  it("lists each row's problems without stopping the others", () => {
    const { rows } = parseJobsCsv('external_id,salary_min,closing_date\nA1,lots,31/02/2027\n,1000,\nA3,2000\n');
    expect(rows.map((r) => r.errors)).toEqual([
      ['salary_min must be whole pounds (not "lots")', 'closing_date must be a date as YYYY-MM-DD or DD/MM/YYYY (not "31/02/2027")'],
      ['external_id is required'],
      ['the row has 2 cells; the header has 3'],
    ]);
  });

  it('stops at file problems: unknown or doubled columns, no external_id, no rows', () => {
    expect(parseJobsCsv('external_id,salary,colour\nA1,1,red\n')).toEqual({ rows: [], fileErrors: ['Unknown columns: colour (see the column list and the template)'] });
    expect(parseJobsCsv('external_id,title,Title\nA1,a,b\n').fileErrors).toEqual(['Columns named twice: title']);
    expect(parseJobsCsv('title\nSurveyor\n').fileErrors).toEqual(['The header has no external_id column (the key the import updates by)']);
    expect(parseJobsCsv('external_id\n').fileErrors).toEqual(['The file has no rows under its header']);
    expect(parseJobsCsv('').fileErrors).toContain('The file has no rows under its header');
  });

  it(`refuses more than ${MAX_IMPORT_ROWS} rows at a time`, () => {
    const body = Array.from({ length: MAX_IMPORT_ROWS + 1 }, (_, i) => `J${i}`).join('\n');
    expect(parseJobsCsv(`external_id\n${body}\n`).fileErrors).toEqual([`The file has ${MAX_IMPORT_ROWS + 1} rows; import at most ${MAX_IMPORT_ROWS} at a time`]);
    expect(parseJobsCsv(`external_id\n${body.split('\n').slice(1).join('\n')}\n`).rows).toHaveLength(MAX_IMPORT_ROWS);
  });

  it('reports a broken quote with its line', () => {
    const { fileErrors } = parseJobsCsv('external_id,title\nA1,"unclosed\n');
    expect(fileErrors[0]).toMatch(/^Line 2: /);
  });

  it('renders Markdown with the one renderer, never passing raw HTML or script links through', () => {
    const { rows } = parseJobsCsv('external_id,description\nA1,"<script>alert(1)</script> [x](javascript:alert(1))"\n');
    const html = rows[0].values.description_html as string;
    expect(html).not.toContain('<script');
    expect(html).not.toContain('href="javascript:');
    expect(html).toContain('&lt;script&gt;');
  });
});
