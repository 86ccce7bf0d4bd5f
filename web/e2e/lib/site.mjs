// Starts the built site for the end-to-end suites. Under scripts/with-test-db.sh (TEST_PGPORT and GATEWAY_BIN set)
// the real gateway serves web/dist with a fresh database (the serving contract: prerendered pages, job pages from
// SQL, 404s, the APIs). Otherwise web/dist is served without any API (data sections fall back as the spec
// says; gateway-only tests skip) — served by scripts/serve-dist.mjs, which follows the same serving contract.
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const webDir = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const repoDir = join(webDir, '..');
/** The built site (WEB_DIST_DIR overrides, e.g. a copy that a parallel build cannot replace mid-run). */
export const distDir = process.env.WEB_DIST_DIR || join(webDir, 'dist');

export function gatewayAvailable() {
  return Boolean(process.env.TEST_PGPORT && process.env.GATEWAY_BIN && existsSync(process.env.GATEWAY_BIN));
}

/**
 * Returns { url, mode: 'gateway' | 'static', sql(q)?, anonKey?, serviceKey?, restAvailable, stop() }.
 * `sql` (gateway mode) runs as superuser on the site's fresh database before and during the tests; `env` adds
 * gateway variables.
 */
export async function startSite({ sql = null, env = {} } = {}) {
  if (!existsSync(join(distDir, 'index.html'))) throw new Error('web/dist is missing: run `npm run build` in web/ first');
  if (gatewayAvailable()) {
    const { startGateway } = await import(pathToFileURL(join(repoDir, 'tests', 'js', 'lib', 'gateway.mjs')).href);
    const gw = await startGateway({ env: { GATEWAY_SITE_DIR: distDir, ...env }, sql });
    const probe = await fetch(`${gw.url}/rest/v1/jobs?select=id&limit=1`, {
      headers: { apikey: gw.anonKey, authorization: `Bearer ${gw.anonKey}` },
    }).catch(() => null);
    const restAvailable = probe !== null && probe.status === 200;
    return { ...gw, mode: 'gateway', restAvailable };
  }
  const { serveDist } = await import(pathToFileURL(join(webDir, 'scripts', 'serve-dist.mjs')).href);
  const server = await serveDist(distDir, 0);
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    mode: 'static',
    restAvailable: false,
    stop: () => new Promise((resolve) => server.close(resolve)),
  };
}
