// Helpers for the desk suite: a real one-page PDF with text (for the CV viewer), a browser context signed in as a
// demo user, waiting for the database to reach a value, and axe's violations.
import { AxeBuilder } from '@axe-core/playwright';
import { launch } from './browser.mjs';
import { signInSession, startSignedIn } from './sign-in.mjs';

export const AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'];

/** A valid PDF (catalog, one A4 page, Helvetica text, exact xref offsets) whose lines pdf.js and pdftotext extract. */
export function pdfWithText(lines) {
  const text = lines.map((l, i) => `${i === 0 ? '' : '0 -26 Td '}(${l.replace(/[()\\]/g, '\\$&')}) Tj`).join(' ');
  const content = `BT /F1 16 Tf 72 770 Td ${text} ET`;
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 5 0 R >> >> /Contents 4 0 R >>',
    `<< /Length ${content.length} >>\nstream\n${content}\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>',
  ];
  let out = '%PDF-1.4\n';
  const offsets = objects.map((o, i) => {
    const at = out.length;
    out += `${i + 1} 0 obj\n${o}\nendobj\n`;
    return at;
  });
  const xref = out.length;
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  out += offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('');
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
}

/** A browser whose pages start signed in as `user` (a session made with supabase-js, as the site stores it). */
export async function signedInBrowser(site, user, options = {}) {
  const browser = await launch(options);
  await startSignedIn(browser.context, await signInSession(site.url, site.anonKey, user));
  return browser;
}

/** Waits (up to 10 s) until `read()` returns `want`; returns the last value read. */
export async function eventually(read, want) {
  let value;
  for (let i = 0; i < 100; i++) {
    value = await read();
    if (value === want) return value;
    await new Promise((r) => setTimeout(r, 100));
  }
  return value;
}

export async function axeViolations(page) {
  const result = await new AxeBuilder({ page }).withTags(AXE_TAGS).analyze();
  return result.violations.map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).slice(0, 3).join(', ')}`);
}
