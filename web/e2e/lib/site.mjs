// Starts the built site for the end-to-end suites. Under scripts/with-test-db.sh (TEST_PGPORT and GATEWAY_BIN set)
// the real gateway serves web/dist with a fresh database (the serving contract: prerendered pages, job pages from
// SQL, 404s, the APIs). Otherwise `vite preview` serves web/dist without any API (data sections fall back as the spec
// says; gateway-only tests skip).
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const webDir = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const repoDir = join(webDir, '..');
export const distDir = join(webDir, 'dist');

function freePort() {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
    srv.on('error', reject);
  });
}

export function gatewayAvailable() {
  return Boolean(process.env.TEST_PGPORT && process.env.GATEWAY_BIN && existsSync(process.env.GATEWAY_BIN));
}

/**
 * Returns { url, mode: 'gateway' | 'preview', sql(q)?, anonKey?, serviceKey?, restAvailable, stop() }.
 * `sql` (gateway mode) runs as superuser on the site's fresh database before and during the tests.
 */
export async function startSite({ sql = null } = {}) {
  if (!existsSync(join(distDir, 'index.html'))) throw new Error('web/dist is missing: run `npm run build` in web/ first');
  if (gatewayAvailable()) {
    const { startGateway } = await import(pathToFileURL(join(repoDir, 'tests', 'js', 'lib', 'gateway.mjs')).href);
    const gw = await startGateway({ env: { GATEWAY_SITE_DIR: distDir }, sql });
    const probe = await fetch(`${gw.url}/rest/v1/jobs?select=id&limit=1`, {
      headers: { apikey: gw.anonKey, authorization: `Bearer ${gw.anonKey}` },
    }).catch(() => null);
    const restAvailable = probe !== null && probe.status === 200;
    return { ...gw, mode: 'gateway', restAvailable };
  }
  const port = await freePort();
  const child = spawn(join(webDir, 'node_modules', '.bin', 'vite'), ['preview', '--port', String(port), '--strictPort', '--host', '127.0.0.1'], {
    cwd: webDir,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 100; i++) {
    const ok = await fetch(url).then((r) => r.ok).catch(() => false);
    if (ok) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    url,
    mode: 'preview',
    restAvailable: false,
    stop: async () => {
      child.kill('SIGTERM');
      await new Promise((r) => (child.exitCode !== null ? r() : child.on('exit', r)));
    },
  };
}
