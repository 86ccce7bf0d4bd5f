// The frame of every page: skip link, progress bar, header, main content, footer, floating contact buttons.
import type { ReactNode } from 'react';
import { Footer } from './footer';
import { Header } from './header';
import { FloatingContact, ScrollProgress, ScrollToTop } from './scroll-chrome';

export function SiteLayout({ children }: { children: ReactNode }) {
  return (
    <>
      <a href="#main" className="skip-link">
        Skip to content
      </a>
      <ScrollToTop />
      <ScrollProgress />
      <Header />
      <main id="main" tabIndex={-1}>
        {children}
      </main>
      <Footer />
      <FloatingContact />
    </>
  );
}
