// A client link's end as the page states it: '3 January 2027' (UK).
export function formatLinkExpiry(iso: string): string {
  return new Date(iso).toLocaleDateString('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'Europe/London' });
}
