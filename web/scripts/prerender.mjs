// Build step 4 of 4: writes complete HTML for every public route, the SPA shell, the job template, the 404 page,
// robots.txt and _site.json into dist/ (the site serving contract in docs/site-serving.md / TEAM.md).
// Input: dist/ from `vite build` (client, with .vite/manifest.json) and dist-ssr/entry-server.js from the SSR build.
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const dist = join(root, 'dist');
const server = await import(pathToFileURL(join(root, 'dist-ssr', 'entry-server.js')).href);
const { site } = server;

// The one stylesheet is small (≈6 KB compressed): inline it so the first paint waits for no second request.
let template = await readFile(join(dist, 'index.html'), 'utf8');
const cssLink = template.match(/<link rel="stylesheet" crossorigin href="\/(assets\/[^"]+\.css)">/);
if (!cssLink) throw new Error('dist/index.html: stylesheet link not found');
const css = await readFile(join(dist, cssLink[1]), 'utf8');
template = template.replace(cssLink[0], () => `<style>${css.replace(/<\/style/gi, '<\\/style')}</style>`);
const manifest = JSON.parse(await readFile(join(dist, '.vite', 'manifest.json'), 'utf8'));
for (const marker of ['<!--runtime-config-->', '<!--app-head-->', '<!--app-html-->']) {
  if (!template.includes(marker)) throw new Error(`dist/index.html lacks ${marker}`);
}

/** modulepreload links for a page module's chunk and the chunks it imports (the entry is already loaded). */
function preloadLinks(moduleKey) {
  const key = `src/features/${moduleKey}`;
  if (!manifest[key]) return '';
  const seen = new Set();
  const walk = (k) => {
    const chunk = manifest[k];
    if (!chunk || seen.has(k) || chunk.isEntry) return;
    seen.add(k);
    for (const dep of chunk.imports ?? []) walk(dep);
  };
  walk(key);
  return [...seen].map((k) => `<link rel="modulepreload" crossorigin href="/${manifest[k].file}">`).join('\n    ');
}

function page({ head, html, preload = '', clientRender = false, path = null }) {
  let out = template
    .replace('<!--app-head-->', [head, preload].filter(Boolean).join('\n    '))
    .replace('<!--app-html-->', () => html);
  // data-render=client: React did not produce this HTML (render, don't hydrate). data-path: the route this HTML was
  // prerendered for; the browser hydrates only when it matches the address (a misrouted file is rendered afresh).
  if (clientRender) out = out.replace('<html lang="en-GB">', '<html lang="en-GB" data-render="client">');
  else out = out.replace('<html lang="en-GB">', `<html lang="en-GB" data-path="${path}">`);
  return out;
}

async function write(rel, content) {
  const file = join(dist, rel);
  await mkdir(dirname(file), { recursive: true });
  await writeFile(file, content);
}

await server.preloadAll();
const written = [];

// 1. Prerendered public routes.
for (const route of server.routes.filter((r) => r.render === 'static')) {
  for (const path of route.prerenderPaths ?? [route.path]) {
    const { html, head, headData } = server.render(path);
    if (!headData) throw new Error(`${path}: the page rendered no <Seo> (title, description, canonical)`);
    const rel = path === '/' ? 'index.html' : join(path.slice(1), 'index.html');
    await write(rel, page({ head, html, preload: preloadLinks(route.module), path }));
    written.push(path);
  }
}

// 2. 404 page (the gateway serves it with status 404 for unknown paths).
{
  const { html, head } = server.render('/404');
  await write('404.html', page({ head, html, path: '404' }));
}

// 3. SPA shell for noindex app areas: layout prerendered, page rendered in the browser.
{
  const fallbackHead = {
    title: site.name,
    exactTitle: true,
    description: 'Loading...',
    path: '/',
    noindex: true,
  };
  const { html, head } = server.render('/', { slot: true, fallbackHead });
  await write('app.html', page({ head, html, clientRender: true }));
}

// 4. Job page template: the gateway fills <!--ssr-head--> and <!--ssr-body--> from public.render_job_page(id).
{
  const { html } = server.render('/jobs/template', { slot: true });
  if (!html.includes('<div id="ssr-slot"></div>')) throw new Error('job template: slot marker missing');
  await write(
    '_templates/job.html',
    page({
      head: '<!--ssr-head-->',
      html: html.replace('<div id="ssr-slot"></div>', '<!--ssr-body-->'),
      preload: preloadLinks('jobs/page.tsx'),
      clientRender: true,
    }),
  );
}

// 4b. Templates of the other pages rendered from data (route-table render 'data'): the layout with the slot the
// gateway fills from the route's SQL function.
const dataRoutes = server.routes.filter((r) => r.render === 'data');
for (const route of dataRoutes) {
  const { html } = server.render(`/_data/${route.data.template}`, { slot: true });
  if (!html.includes('<div id="ssr-slot"></div>')) throw new Error(`${route.path} template: slot marker missing`);
  await write(
    `_templates/${route.data.template}.html`,
    page({
      head: '<!--ssr-head-->',
      html: html.replace('<div id="ssr-slot"></div>', '<!--ssr-body-->'),
      preload: preloadLinks(route.module),
      clientRender: true,
    }),
  );
}

// 5. Serving declarations, robots.txt.
const siteJson = {
  spa: server.SPA_PREFIXES.map((prefix) => ({ prefix, file: 'app.html' })),
  dynamic: [
    { prefix: '/jobs/', file: '_templates/job.html', function: 'public.render_job_page' },
    ...dataRoutes.map(({ path, data }) => ({
      ...(data.prefix ? { prefix: data.prefix } : { path }),
      file: `_templates/${data.template}.html`,
      function: data.function,
      query: Boolean(data.query),
      ...(data.post ? { post_function: data.post } : {}),
    })),
  ],
  generated: [
    { path: '/sitemap.xml', function: 'public.sitemap_xml', content_type: 'application/xml; charset=utf-8' },
    { path: '/feeds/indeed.xml', function: 'public.indeed_xml', content_type: 'application/xml; charset=utf-8' },
    { path: '/feeds/jobs.rss', function: 'public.jobs_rss', content_type: 'application/rss+xml; charset=utf-8' },
  ],
};
await write('_site.json', `${JSON.stringify(siteJson, null, 2)}\n`);

// /profile/* is deliberately not disallowed: crawlers must fetch it to see its noindex, nofollow.
const siteUrl = site.url;
await write(
  'robots.txt',
  [
    'User-agent: *',
    'Allow: /',
    'Disallow: /admin',
    'Disallow: /admin-login',
    'Disallow: /career-hub/login',
    'Disallow: /career-hub/dashboard',
    'Disallow: /career-hub/cv-builder',
    'Disallow: /career-hub/templates',
    'Disallow: /vacancies',
    'Disallow: /alerts/',
    '',
    `Sitemap: ${siteUrl}/sitemap.xml`,
    '',
  ].join('\n'),
);

// The SSR bundle is a build intermediate; the page list is handy for the sitemap function and tests.
await write('_routes.json', `${JSON.stringify(written, null, 2)}\n`);
await rm(join(root, 'dist-ssr'), { recursive: true, force: true });
console.log(
  `prerendered ${written.length} routes + 404.html, app.html, _templates/job.html, ${dataRoutes.length} data templates, _site.json, robots.txt`,
);
