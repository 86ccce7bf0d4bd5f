// Every public page loads at most 120 KB of JavaScript (compressed, nothing cached) at 390 px before the visitor
// scrolls: sections below the fold fetch their data, and any part of supabase-js beyond the data client, only later.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { PUBLIC_JS_BUDGET, pageJs } from './lib/page-js.mjs';
import { publicRoutes } from './lib/routes.mjs';
import { ACTIVE_JOB, seedFeaturedSql, seedJobsSql } from './lib/seed.mjs';
import { startSite } from './lib/site.mjs';

let site;
before(async () => {
  site = await startSite({ sql: seedJobsSql + seedFeaturedSql });
});
after(() => site?.stop());

test('every public page stays within the JavaScript budget on load', async () => {
  const paths = [...publicRoutes.map((r) => r.path), ...(site.mode === 'gateway' ? [`/jobs/${ACTIVE_JOB}`, '/jobs'] : [])];
  const over = [];
  for (const path of paths) {
    const { initial, files } = await pageJs(site.url + path);
    if (initial > PUBLIC_JS_BUDGET) over.push(`${path}: ${(initial / 1024).toFixed(1)} KB (${files.join(', ')})`);
  }
  assert.deepEqual(over, [], `over ${PUBLIC_JS_BUDGET / 1024} KB on load`);
});
