// The applications list as CSV: its columns, in order, with the admin's words for the status.
import Papa from 'papaparse';
import { describe, expect, it } from 'vitest';
import type { ExportRow } from './api/applications';
import { applicationsCsv, CSV_HEADER } from './csv';

const row: ExportRow = {
  applied_at: '2026-07-01T08:05:00Z',
  first_name: 'Jo',
  last_name: '=cmd|calc',
  email: 'jo@example.com',
  phone: '+44 7700 900123',
  job_title: 'Head of Development',
  job_ref: null,
  pipeline_status: 'not_progressed',
  candidate_sees: 'Not progressed',
  consultant: null,
  cv_file: 'cv.pdf',
  notes: 2,
};

describe('applicationsCsv', () => {
  it('writes one line per application under the header, in UK time, formula cells inert', () => {
    const [header, line, ...rest] = Papa.parse<string[]>(applicationsCsv([row]), { skipEmptyLines: true }).data;
    expect(header).toEqual(CSV_HEADER);
    expect(rest).toEqual([]);
    expect(line).toEqual(['01 Jul 2026 09:05', 'Jo', "'=cmd|calc", 'jo@example.com', "'+44 7700 900123", 'Head of Development', '', 'Not progressed', 'Not progressed', '', 'cv.pdf', '2']);
  });
});
