// Scrolls to the element named by the URL hash 100 ms after the page renders or the hash changes (spec §9: scroll-to-anchor
// delay), after the layout's scroll-to-top on navigation.
import { useEffect } from 'react';
import { useLocation } from 'react-router';

export function useHashScroll(): void {
  const { hash } = useLocation();
  useEffect(() => {
    if (!hash) return;
    const timer = window.setTimeout(() => {
      const el = document.getElementById(decodeURIComponent(hash.slice(1)));
      if (!el) return;
      const reduce = window.matchMedia('(prefers-reduced-motion: reduce)').matches;
      el.scrollIntoView({ behavior: reduce ? 'auto' : 'smooth', block: 'start' });
    }, 100);
    return () => window.clearTimeout(timer);
  }, [hash]);
}
