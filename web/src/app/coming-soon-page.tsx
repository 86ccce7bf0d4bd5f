// Shown for a route whose page module has not been written yet (development only: every route has a page at release).
import { useLocation } from 'react-router';
import { Seo } from '@/lib/seo';

export function ComingSoonPage() {
  const { pathname } = useLocation();
  return (
    <>
      <Seo title="Coming soon" description="This page is being prepared." path={pathname} noindex />
      <section className="page-hero">
        <div className="container">
          <h1>Coming soon</h1>
          <p>This page is being prepared.</p>
        </div>
      </section>
    </>
  );
}
