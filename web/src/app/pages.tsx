// Page components for the route table, code-split per route. A page loads through `preload()` before the first
// render (client) or before prerendering (server), so hydration renders it synchronously, exactly like the server.
import { lazy, type ComponentType } from 'react';
import { routes, type AppRoute } from './route-table';

type PageModule = { default: ComponentType };

const modules = import.meta.glob<PageModule>([
  '../features/**/page.tsx',
  '../features/**/*-page.tsx',
  '!../features/not-found/**',
]);

export type LoadedRoute = AppRoute & { Component: ComponentType; preload: () => Promise<void> };

function pageFor(route: AppRoute): LoadedRoute {
  const load = modules[`../features/${route.module}`];
  if (!load) {
    // every route of the spec has its page: a missing module is a mistake in the route table, caught at build time
    throw new Error(`route ${route.path}: no page module at features/${route.module}`);
  }
  let Loaded: ComponentType | null = null;
  const preload = () =>
    load().then((m) => {
      Loaded = m.default;
    });
  const Lazy = lazy(() => load());
  function RoutePage() {
    return Loaded ? <Loaded /> : <Lazy />;
  }
  RoutePage.displayName = `Route(${route.path})`;
  return { ...route, Component: RoutePage, preload };
}

export const loadedRoutes: LoadedRoute[] = routes.map(pageFor);
