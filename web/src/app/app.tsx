// The application tree shared by the browser entry and the prerender: providers, layout, routes.
import { Suspense, type ReactNode } from 'react';
import { Route, Routes } from 'react-router';
import { SiteLayout } from '@/components/layout/site-layout';
import { ToastProvider } from '@/components/ui/toast';
import NotFoundPage from '@/features/not-found/page';
import { AuthProvider } from '@/lib/auth';
import { loadedRoutes } from './pages';

export function AppProviders({ children }: { children: ReactNode }) {
  return (
    <AuthProvider>
      <ToastProvider>{children}</ToastProvider>
    </AuthProvider>
  );
}

function PageLoading() {
  return (
    <div className="container section" aria-busy="true">
      <p className="muted">Loading...</p>
    </div>
  );
}

/** `slot` renders the layout with an empty marker element in place of the page (templates for the SPA shell and jobs). */
export function App({ slot = false }: { slot?: boolean }) {
  return (
    <AppProviders>
      <SiteLayout>
        {slot ? (
          <div id="ssr-slot" />
        ) : (
          <Suspense fallback={<PageLoading />}>
            <Routes>
              {loadedRoutes.map((r) => (
                <Route key={r.path} path={r.path} element={<r.Component />} />
              ))}
              <Route path="*" element={<NotFoundPage />} />
            </Routes>
          </Suspense>
        )}
      </SiteLayout>
    </AppProviders>
  );
}
