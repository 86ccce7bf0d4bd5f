// Display formats for the admin area: 'dd MMM yyyy HH:mm' (spec §9) in UK time, and short relative times.
const PARTS = new Intl.DateTimeFormat('en-GB', {
  timeZone: 'Europe/London',
  day: '2-digit',
  month: 'short',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
});

/** '05 Jan 2026 09:30' (UK time). */
export function formatDateTime(iso: string | null | undefined): string {
  if (!iso) return '';
  const parts = Object.fromEntries(PARTS.formatToParts(new Date(iso)).map((p) => [p.type, p.value]));
  return `${parts.day} ${parts.month} ${parts.year} ${parts.hour}:${parts.minute}`;
}

/** '05 Jan 2026' (UK). */
export function formatDate(iso: string | null | undefined): string {
  return formatDateTime(iso).slice(0, 11);
}

/** '5 Jan' style day label for chart axes (UK). */
export function formatDay(day: string): string {
  const [y, m, d] = day.split('-').map(Number);
  return new Date(Date.UTC(y, m - 1, d)).toLocaleDateString('en-GB', { day: 'numeric', month: 'short', timeZone: 'UTC' });
}

/** 'just now', '5 min ago', '3 h ago', else the date and time. */
export function formatRelative(iso: string, now = Date.now()): string {
  const seconds = Math.round((now - new Date(iso).getTime()) / 1000);
  if (seconds < 60) return 'just now';
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min ago`;
  if (seconds < 86400) return `${Math.floor(seconds / 3600)} h ago`;
  return formatDateTime(iso);
}
