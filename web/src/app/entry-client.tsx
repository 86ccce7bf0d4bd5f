// Browser entry: loads the current route's page chunk, then hydrates the prerendered HTML (or renders from scratch
// for the SPA shell and database-rendered job pages, whose HTML React did not produce).
import { StrictMode, startTransition } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { BrowserRouter, matchPath } from 'react-router';
import '@/components/styles/index.css';
import { App } from './app';
import { loadedRoutes } from './pages';

async function start() {
  const route = loadedRoutes.find((r) => matchPath(r.path, window.location.pathname));
  await route?.preload();
  const container = document.getElementById('root')!;
  const tree = (
    <StrictMode>
      <BrowserRouter>
        <App />
      </BrowserRouter>
    </StrictMode>
  );
  // Hydrate only HTML prerendered for this address (or the 404 page for an unknown one); render anything else.
  const served = document.documentElement.dataset.path;
  const matches = served === window.location.pathname || (served === '404' && !route);
  // In a transition, so the first render yields to the browser every few milliseconds (no long task).
  startTransition(() => {
    if (matches && container.hasChildNodes()) hydrateRoot(container, tree);
    else createRoot(container).render(tree);
  });
}

void start();
