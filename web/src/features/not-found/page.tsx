// Not-found page for any unknown path (served by the gateway from dist/404.html with status 404). `data-not-found`
// marks it for the site-wide link crawl (e2e/links.test.mjs); any other not-found view should carry it too.
import { useEffect } from 'react';
import { Link, useLocation } from 'react-router';
import { Seo } from '@/lib/seo';

export default function NotFoundPage() {
  const { pathname } = useLocation();
  useEffect(() => {
    console.warn('404 Error: User attempted to access non-existent route:', pathname);
  }, [pathname]);
  return (
    <>
      <Seo title="Page not found" description="The page you are looking for does not exist." path={pathname} noindex />
      <section className="page-hero not-found" data-not-found>
        <div className="container">
          <p className="eyebrow">Error</p>
          <h1>
            404 <span className="not-found__oops">Oops! Page not found</span>
          </h1>
          <p>The page you were looking for has moved or never existed.</p>
          <Link to="/" className="btn btn--accent btn--lg">
            Return to Home
          </Link>
        </div>
      </section>
    </>
  );
}
