// Renders the default Open Graph image (public/images/og-default.png, 1200×630) from site.ts with Debian Chromium.
//   node scripts/make-og-image.mjs   (after `npm run build:ssr`-independent: reads the firm name from src/content/site.ts)
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS } from '../e2e/lib/browser.mjs';

const web = join(dirname(fileURLToPath(import.meta.url)), '..');
const siteTs = readFileSync(join(web, 'src/content/site.ts'), 'utf8');
const name = siteTs.match(/name: '([^']+)'/)[1];
const tagline = siteTs.match(/tagline: '([^']+)'/)[1];
const html = `<!doctype html><html><body style="margin:0">
<div style="width:1200px;height:630px;box-sizing:border-box;padding:80px;display:flex;flex-direction:column;justify-content:space-between;
 background:radial-gradient(120% 90% at 85% 10%,#24446b 0%,#10233d 45%,#0b192c 100%);color:#fff;font-family:Georgia,serif;position:relative;overflow:hidden">
 <svg width="700" height="420" viewBox="0 0 720 480" style="position:absolute;right:-60px;bottom:0"><g fill="none" stroke="#d9b265" stroke-opacity=".3" stroke-width="2">
 <path d="M40 440V250h90v190M150 440V170h110v270M280 440V90h120v350M420 440V210h100v230M540 440V300h120v140"/></g><path d="M0 440h720" stroke="#d9b265" stroke-opacity=".5" stroke-width="3"/></svg>
 <div style="display:flex;align-items:center;gap:24px"><svg width="72" height="72" viewBox="0 0 32 32"><rect width="32" height="32" rx="6" fill="#1b3556"/><path d="M9 23V9h7.5a4.5 4.5 0 0 1 0 9H13v5z" fill="none" stroke="#d9b265" stroke-width="2.6" stroke-linejoin="round"/></svg>
 <div style="font-family:Arial,sans-serif;letter-spacing:6px;color:#d9b265;font-size:22px;font-weight:700">PROPERTY &amp; BUILT ENVIRONMENT</div></div>
 <div><div style="font-size:76px;font-weight:700;line-height:1.05;max-width:900px">${name}</div>
 <div style="font-family:Arial,sans-serif;font-size:30px;color:#d3dae6;margin-top:24px;max-width:760px">${tagline}</div></div></div></body></html>`;
const dir = mkdtempSync(join(tmpdir(), 'og-'));
const ctx = await chromium.launchPersistentContext(dir, { executablePath: '/usr/bin/chromium', headless: true, args: CHROMIUM_ARGS, viewport: { width: 1200, height: 630 } });
const page = ctx.pages()[0] ?? (await ctx.newPage());
await page.setContent(html);
await page.screenshot({ path: join(web, 'public/images/og-default.png') });
await ctx.close();
rmSync(dir, { recursive: true, force: true });
console.log('wrote public/images/og-default.png');
