// Prerender entry (Vite SSR build, used only by scripts/prerender.mjs): renders a route to HTML and returns the
// page's head collected from its <Seo>.
import { StrictMode } from 'react';
import { renderToString } from 'react-dom/server';
import { StaticRouter } from 'react-router';
import { renderHeadHtml, HeadProvider, type HeadCollector, type HeadData } from '@/lib/seo';
import { App } from './app';
import { loadedRoutes } from './pages';
import { INSIGHT_ARTICLE_SLUGS, SPA_PREFIXES, routes } from './route-table';

export { routes, SPA_PREFIXES, INSIGHT_ARTICLE_SLUGS };
export { site } from '@/content/site';

export async function preloadAll(): Promise<void> {
  await Promise.all(loadedRoutes.map((r) => r.preload()));
}

export type Rendered = { html: string; head: string; headData: HeadData | null };

export function render(url: string, opts: { slot?: boolean; fallbackHead?: HeadData } = {}): Rendered {
  const collector: HeadCollector = { head: null };
  const html = renderToString(
    <StrictMode>
      <HeadProvider collector={collector}>
        <StaticRouter location={url}>
          <App slot={opts.slot} />
        </StaticRouter>
      </HeadProvider>
    </StrictMode>,
  );
  const headData = collector.head ?? opts.fallbackHead ?? null;
  return { html, head: headData ? renderHeadHtml(headData) : '', headData };
}
