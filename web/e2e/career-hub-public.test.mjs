// Public pages carry nothing of the Career Hub (issue 11): no script only the Career Hub pages use (the builder, the
// PDF code with pdfmake, the preview, JSON Resume, the dashboard, the login pages), no CV font, and none of their
// styles in the stylesheet every prerendered page inlines. The Career Hub's files are read from the build's
// manifest: what its pages reach (imports and dynamic imports) and no other page reaches.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { MOBILE, launch } from './lib/browser.mjs';
import { publicRoutes } from './lib/routes.mjs';
import { ACTIVE_JOB, seedFeaturedSql, seedJobsSql } from './lib/seed.mjs';
import { distDir, startSite } from './lib/site.mjs';

const HUB_PAGES = ['career-hub-login', 'career-hub-dashboard', 'cv-builder', 'cv-templates', 'career-hub-reset-password'].map(
  (f) => `src/features/${f}/page.tsx`,
);
/** Selectors and fonts of the Career Hub stylesheets (cv.css, cv-builder.css, dashboard.css, login.css, ...). */
const HUB_CSS = ['.cv-paper', '.wizard', '.builder', '.month-field', '.dash-list', '.auth-card', '.auth-tabs', '.form-error', '.template-card', 'CV Roboto'];

const manifest = JSON.parse(readFileSync(join(distDir, '.vite', 'manifest.json'), 'utf8'));

/** The files a set of manifest keys load, following imports and dynamic imports. */
function reach(keys, skip = new Set()) {
  const files = new Set();
  const seen = new Set();
  const visit = (key) => {
    if (seen.has(key) || skip.has(key)) return;
    seen.add(key);
    const chunk = manifest[key];
    files.add(`/${chunk.file}`);
    for (const asset of chunk.assets ?? []) files.add(`/${asset}`);
    for (const k of [...(chunk.imports ?? []), ...(chunk.dynamicImports ?? [])]) visit(k);
  };
  keys.forEach(visit);
  return files;
}

function hubOnlyFiles() {
  for (const key of HUB_PAGES) assert.ok(manifest[key], `${key} in the build manifest`);
  const hub = reach(HUB_PAGES, new Set(['index.html']));
  const others = Object.keys(manifest).filter((k) => manifest[k].isDynamicEntry && k.startsWith('src/features/') && k.endsWith('page.tsx') && !HUB_PAGES.includes(k));
  const elsewhere = reach(['index.html', ...others], new Set(HUB_PAGES));
  return [...hub].filter((f) => !elsewhere.has(f));
}

let site;
before(async () => {
  site = await startSite({ sql: seedJobsSql + seedFeaturedSql });
});
after(() => site?.stop());

test('the Career Hub has files of its own: the builder, the PDF code and its fonts', () => {
  const files = hubOnlyFiles();
  const pdf = manifest['src/lib/cv/cv-pdf.ts'];
  assert.ok(pdf, 'cv-pdf is a chunk of its own');
  for (const f of [`/${pdf.file}`, `/${manifest['src/features/cv-builder/page.tsx'].file}`]) assert.ok(files.includes(f), `${f} is the Career Hub's alone`);
  assert.ok(files.some((f) => f.endsWith('.ttf')), 'the CV fonts');
});

test('public pages load no Career Hub script, font or style (fresh profile, after scrolling to the bottom)', async () => {
  const hubOnly = new Set(hubOnlyFiles());
  const paths = [...publicRoutes.map((r) => r.path), '/vacancies', ...(site.mode === 'gateway' ? [`/jobs/${ACTIVE_JOB}`] : [])];
  const browser = await launch();
  const problems = [];
  try {
    for (const path of paths) {
      const page = await browser.page(MOBILE);
      const loaded = [];
      page.on('request', (req) => loaded.push(new URL(req.url()).pathname));
      const res = await page.goto(site.url + path, { waitUntil: 'networkidle' });
      const html = await res.text();
      await page.evaluate(async () => {
        for (let y = 0; y < document.documentElement.scrollHeight; y += 400) {
          window.scrollTo(0, y);
          await new Promise((r) => setTimeout(r, 30));
        }
      });
      await page.waitForLoadState('networkidle');
      const css = [...html.matchAll(/<style[^>]*>([\s\S]*?)<\/style>/g)].map((m) => m[1]).join('') + (await page.evaluate(() => [...document.querySelectorAll('style')].map((s) => s.textContent).join('')));
      for (const f of loaded.filter((p) => hubOnly.has(p) || p.endsWith('.ttf'))) problems.push(`${path} loaded ${f}`);
      for (const s of HUB_CSS.filter((s) => css.includes(s))) problems.push(`${path} has the Career Hub style ${s}`);
      assert.ok(loaded.some((p) => p.endsWith('.js')), `${path} loaded its scripts`);
      await page.close();
    }
  } finally {
    await browser.close();
  }
  assert.deepEqual(problems, []);
});
