// Scroll position hooks shared by the header, progress bar and floating buttons. Start at 0 on the server and on the
// first client render (so hydration matches), then follow the window, at most once per animation frame.
import { useEffect, useState } from 'react';

type ScrollInfo = { y: number; percent: number; direction: 'up' | 'down' };

const listeners = new Set<(s: ScrollInfo) => void>();
let last: ScrollInfo = { y: 0, percent: 0, direction: 'up' };
let frame = 0;

function measure(): ScrollInfo {
  const y = window.scrollY;
  const max = document.documentElement.scrollHeight - window.innerHeight;
  const percent = max > 0 ? Math.min(100, Math.max(0, (y / max) * 100)) : 0;
  const direction = y > last.y ? 'down' : y < last.y ? 'up' : last.direction;
  return { y, percent, direction };
}

function onScroll() {
  if (frame) return;
  frame = window.requestAnimationFrame(() => {
    frame = 0;
    last = measure();
    listeners.forEach((l) => l(last));
  });
}

export function useScroll(): ScrollInfo {
  const [info, setInfo] = useState<ScrollInfo>({ y: 0, percent: 0, direction: 'up' });
  useEffect(() => {
    if (listeners.size === 0) {
      window.addEventListener('scroll', onScroll, { passive: true });
      window.addEventListener('resize', onScroll, { passive: true });
    }
    listeners.add(setInfo);
    last = measure();
    setInfo(last);
    return () => {
      listeners.delete(setInfo);
      if (listeners.size === 0) {
        window.removeEventListener('scroll', onScroll);
        window.removeEventListener('resize', onScroll);
      }
    };
  }, []);
  return info;
}

/** True once scrolled past `px` (spec: 50 px header background, 100 px header hide, 400 px floating buttons). */
export function useScrolledPast(px: number): boolean {
  return useScroll().y > px;
}
