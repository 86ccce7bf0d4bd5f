// CSV files from the admin area (RFC 4180: quoted fields, CRLF, a BOM for spreadsheets). Cells that a spreadsheet would
// run as a formula (starting with = + - @ or a tab/CR) are prefixed with ' so exported text can never execute.
export type CsvValue = string | number | boolean | null | undefined;

export function csvCell(value: CsvValue): string {
  let text = value === null || value === undefined ? '' : String(value);
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) || text !== text.trim() ? `"${text.replace(/"/g, '""')}"` : text;
}

/** A whole file: the header line, then one line per row. */
export function toCsv(header: string[], rows: CsvValue[][]): string {
  return [header, ...rows].map((cells) => cells.map(csvCell).join(',')).join('\r\n') + '\r\n';
}

export function downloadCsv(filename: string, csv: string): void {
  const url = URL.createObjectURL(new Blob(['\ufeff', csv], { type: 'text/csv;charset=utf-8' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = filename;
  document.body.appendChild(a);
  a.click();
  a.remove();
  window.setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** 'name-2026-12-03.csv' (today's date, UTC). */
export function datedFileName(name: string): string {
  return `${name}-${new Date().toISOString().slice(0, 10)}.csv`;
}
