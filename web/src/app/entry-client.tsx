// Browser entry: loads the current route's page chunk, then hydrates the prerendered HTML (or renders from scratch
// for the SPA shell and database-rendered job pages, whose HTML React did not produce).
import { StrictMode } from 'react';
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
  if (document.documentElement.dataset.render === 'client' || !container.hasChildNodes()) {
    createRoot(container).render(tree);
  } else {
    hydrateRoot(container, tree);
  }
}

void start();
