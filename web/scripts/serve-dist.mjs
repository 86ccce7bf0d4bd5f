// A small static server for dist/ that follows the site serving contract (TEAM.md) without a database: prerendered
// pages, files, `_site.json` SPA prefixes → app.html, dynamic job pages → the template with a 404 'Job Not Found'
// body (no data API here), data pages at an exact path (/jobs) → their template with status 503, 404.html with status 404, the gateway's security headers. For tests and Lighthouse
// without the gateway; `<!--runtime-config-->` stays empty, so the app runs without an API.
//   node scripts/serve-dist.mjs [port]     (or import { serveDist })
import { createReadStream, existsSync, readFileSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import { extname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createGzip } from 'node:zlib';

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.json': 'application/json',
  '.txt': 'text/plain; charset=utf-8',
  '.xml': 'application/xml; charset=utf-8',
  '.ico': 'image/x-icon',
  '.webp': 'image/webp',
};
const CSP =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self'; connect-src 'self'; frame-ancestors 'none'; base-uri 'self'; form-action 'self'";

export function serveDist(dist, port = 0) {
  const manifest = JSON.parse(readFileSync(join(dist, '_site.json'), 'utf8'));
  const isFile = (p) => existsSync(p) && statSync(p).isFile();
  const server = createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url, 'http://x').pathname);
    const send = (status, file, body) => {
      const type = TYPES[extname(file)] ?? 'application/octet-stream';
      const headers = { 'content-type': type, 'x-content-type-options': 'nosniff' };
      if (type.startsWith('text/html')) Object.assign(headers, { 'cache-control': 'no-cache', 'content-security-policy': CSP, 'x-frame-options': 'DENY', 'referrer-policy': 'strict-origin-when-cross-origin' });
      else if (path.startsWith('/assets/')) headers['cache-control'] = 'public, max-age=31536000, immutable';
      const gzip = /gzip/.test(req.headers['accept-encoding'] ?? '') && /text|javascript|json|svg|xml/.test(type);
      if (gzip) headers['content-encoding'] = 'gzip';
      res.writeHead(status, headers);
      const stream = body !== undefined ? null : createReadStream(file);
      if (gzip) {
        const z = createGzip();
        z.pipe(res);
        if (stream) stream.pipe(z);
        else z.end(body);
      } else if (stream) stream.pipe(res);
      else res.end(body);
    };
    const html = (status, file, replace = (s) => s) => send(status, file, replace(readFileSync(file, 'utf8')).replace('<!--runtime-config-->', ''));
    if (normalize(path) !== path || path.includes('..')) return html(404, join(dist, '404.html'));
    if (path.length > 1 && path.endsWith('/')) {
      res.writeHead(308, { location: path.replace(/\/+$/, '') });
      return res.end();
    }
    const rel = path.slice(1);
    if (extname(path)) {
      const file = join(dist, rel);
      return !rel.startsWith('_') && isFile(file) ? send(200, file) : html(404, join(dist, '404.html'));
    }
    const page = join(dist, rel, 'index.html');
    if (isFile(page)) return html(200, page);
    for (const d of manifest.dynamic ?? []) {
      // A page at an exact path (the job search): its template with an empty body; the app shows no data here.
      if (d.path && path === d.path) {
        return html(503, join(dist, d.file), (s) =>
          s.replace('<!--ssr-head-->', '<title>Unavailable</title><meta data-head name="robots" content="noindex">').replace('<!--ssr-body-->', ''),
        );
      }
      const rest = d.prefix && path.startsWith(d.prefix) ? path.slice(d.prefix.length) : '';
      if (rest && !rest.includes('/')) {
        const id = rest.replace(/[&<>"']/g, '');
        return html(404, join(dist, d.file), (s) =>
          s
            .replace('<!--ssr-head-->', '<title>Job Not Found</title><meta data-head name="robots" content="noindex">')
            .replace('<!--ssr-body-->', `<div data-ssr-job-id="${id}" data-ssr-status="404"></div>`),
        );
      }
    }
    for (const s of manifest.spa ?? []) {
      if (path === s.prefix || path.startsWith(`${s.prefix}/`)) return html(200, join(dist, s.file));
    }
    return html(404, join(dist, '404.html'));
  });
  return new Promise((resolve) => server.listen(port, '127.0.0.1', () => resolve(server)));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const dist = join(fileURLToPath(new URL('..', import.meta.url)), 'dist');
  const server = await serveDist(dist, Number(process.argv[2] ?? 4173));
  console.log(`serving ${dist} at http://127.0.0.1:${server.address().port}`);
}
