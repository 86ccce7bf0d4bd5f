// Drives the StrictMode page (src/main.jsx, served by Vite's dev server in development mode) in Chromium against a
// real gateway, RUNS times (default 20), each in a fresh browser context: a run passes when the channel reaches
// SUBSCRIBED without a TIMED_OUT or CHANNEL_ERROR on the way. Prints each run's statuses and the frames the page
// sent (StrictMode's join/leave/join burst), then `N/RUNS SUBSCRIBED`; exits 1 unless every run passed.
//   cd tests/js/realtime/strictmode && npm ci
//   GATEWAY_BIN=… scripts/with-test-db.sh node tests/js/realtime/strictmode/run.mjs   (from the repository root)
import { fileURLToPath } from 'node:url';
import { dirname } from 'node:path';
import { createServer } from 'vite';
import react from '@vitejs/plugin-react';
import { chromium } from 'playwright-core';
import { startGateway } from '../../lib/gateway.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const RUNS = Number(process.env.RUNS ?? 20);
const FAILED = ['TIMED_OUT', 'CHANNEL_ERROR'];

/** What a sent frame was, short: `phx_join#6` (event and join_ref), either framing (vsn 1.0.0 objects, 2.0.0 arrays). */
function brief(payload) {
  try {
    const m = JSON.parse(payload);
    const [joinRef, , topic, event] = Array.isArray(m) ? m : [m.join_ref, m.ref, m.topic, m.event];
    return topic === 'phoenix' ? null : `${event}#${joinRef}`;
  } catch {
    return 'binary';
  }
}

async function once(browser, base, i) {
  const context = await browser.newContext();
  const page = await context.newPage();
  const sent = [];
  page.on('websocket', (ws) => ws.on('framesent', (f) => sent.push(brief(f.payload))));
  await page.addInitScript(() => {
    window.statuses = [];
  });
  const started = Date.now();
  await page.goto(`${base}&topic=strict-${i}`);
  let outcome;
  try {
    await page.waitForFunction(
      () => {
        const s = document.getElementById('status')?.textContent;
        if (s && window.statuses.at(-1) !== s) window.statuses.push(s);
        return s === 'SUBSCRIBED' || ['TIMED_OUT', 'CHANNEL_ERROR'].includes(s);
      },
      null,
      { timeout: 20000, polling: 10 },
    );
    outcome = await page.evaluate(() => document.getElementById('status').textContent);
  } catch {
    outcome = 'no answer in 20 s';
  }
  const statuses = await page.evaluate(() => window.statuses);
  await context.close();
  const ok = outcome === 'SUBSCRIBED' && !statuses.some((s) => FAILED.includes(s));
  const ms = Date.now() - started;
  console.log(`run ${String(i).padStart(2)}: ${ok ? 'SUBSCRIBED' : 'FAILED'} in ${ms} ms; statuses ${statuses.join(' → ')}; sent ${sent.filter(Boolean).join(', ')}`);
  return ok;
}

const gw = await startGateway();
const vite = await createServer({
  root: here,
  configFile: false,
  mode: 'development',
  logLevel: 'warn',
  plugins: [react()],
  server: { host: '127.0.0.1', port: 5199, strictPort: false },
  optimizeDeps: { include: ['react', 'react-dom/client', 'react/jsx-dev-runtime', '@supabase/supabase-js'] },
});
await vite.listen();
const base = `${vite.resolvedUrls.local[0]}?url=${encodeURIComponent(gw.url)}&key=${encodeURIComponent(gw.anonKey)}`;
const browser = await chromium.launch({ executablePath: process.env.CHROME_PATH || '/usr/bin/chromium', headless: true });
let passed = 0;
try {
  // one load first so Vite has bundled the dependencies (its first load may reload the page once); not counted
  const warm = await browser.newPage();
  await warm.goto(`${base}&topic=warm-up`);
  await warm.waitForSelector('#status', { timeout: 60000 });
  await warm.close();
  for (let i = 1; i <= RUNS; i++) if (await once(browser, base, i)) passed++;
} finally {
  await browser.close();
  await vite.close();
  await gw.stop();
}
console.log(`${passed}/${RUNS} SUBSCRIBED (React ${(await import('react')).version}, Vite dev server, ${process.env.CHROME_PATH || '/usr/bin/chromium'})`);
process.exit(passed === RUNS ? 0 : 1);
