// Scroll-driven chrome: the thin progress bar (visible past 5 %), the floating call / e-mail / book buttons (after
// 400 px), and scroll-to-top on every route change.
import { useEffect, useLayoutEffect } from 'react';
import { useLocation } from 'react-router';
import { CalendarIcon, MailIcon, PhoneIcon } from '@/components/ui/icons';
import { site } from '@/content/site';
import { useScroll } from './use-scroll';

export const PROGRESS_VISIBLE_AFTER_PERCENT = 5;
export const FLOATING_AFTER = 400;

const useIsoLayoutEffect = typeof window === 'undefined' ? useEffect : useLayoutEffect;

export function ScrollToTop() {
  const { pathname } = useLocation();
  useIsoLayoutEffect(() => {
    window.scrollTo(0, 0);
  }, [pathname]);
  return null;
}

export function ScrollProgress() {
  const { percent } = useScroll();
  const visible = percent > PROGRESS_VISIBLE_AFTER_PERCENT;
  return (
    <div
      className={`scroll-progress${visible ? ' scroll-progress--visible' : ''}`}
      aria-hidden="true"
      data-testid="scroll-progress"
      data-percent={Math.round(percent)}
    >
      <div className="scroll-progress__bar" style={{ transform: `scaleX(${percent / 100})` }} />
    </div>
  );
}

export function FloatingContact() {
  const { y } = useScroll();
  const visible = y > FLOATING_AFTER;
  return (
    <aside aria-label="Quick contact" className={`floating-contact${visible ? ' floating-contact--visible' : ''}`} data-testid="floating-contact" hidden={!visible}>
      <a href={site.phone.href} className="floating-contact__btn" aria-label={`Call us on ${site.phone.display}`}>
        <PhoneIcon size={20} />
      </a>
      <a href={`mailto:${site.email}`} className="floating-contact__btn" aria-label={`E-mail ${site.email}`}>
        <MailIcon size={20} />
      </a>
      <a
        href={site.scheduling.url}
        className="floating-contact__btn floating-contact__btn--accent"
        target="_blank"
        rel="noopener noreferrer"
        aria-label="Book a call (opens in a new tab)"
      >
        <CalendarIcon size={20} />
      </a>
    </aside>
  );
}
