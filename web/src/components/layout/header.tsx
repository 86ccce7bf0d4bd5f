// Site header: brand, four menu groups (desktop menus from xl, side drawer below), Let's Talk, admin links for admins.
// Hides when scrolling down past 100 px and comes back on scroll up (never while it holds focus); more opaque from 50 px.
import { useRef, useState } from 'react';
import { Link } from 'react-router';
import { site } from '@/content/site';
import { useAuth } from '@/lib/auth';
import { DesktopMenu } from './desktop-menu';
import { adminLinks, headerGroups } from './navigation';
import { SideDrawer } from './side-drawer';
import { useScroll } from './use-scroll';

export const HEADER_HIDE_AFTER = 100;
export const HEADER_SOLID_AFTER = 50;

export function Header() {
  const { y, direction } = useScroll();
  const { isAdmin } = useAuth();
  const [hasFocus, setHasFocus] = useState(false);
  const ref = useRef<HTMLElement>(null);
  const hidden = y > HEADER_HIDE_AFTER && direction === 'down' && !hasFocus;
  const solid = y > HEADER_SOLID_AFTER;
  const extra = isAdmin ? adminLinks : [];
  return (
    <header
      ref={ref}
      className={`site-header on-dark${solid ? ' site-header--solid' : ''}${hidden ? ' site-header--hidden' : ''}`}
      data-testid="site-header"
      data-state={hidden ? 'hidden' : solid ? 'solid' : 'top'}
      onFocus={() => setHasFocus(true)}
      onBlur={(e) => {
        if (!ref.current?.contains(e.relatedTarget as Node | null)) setHasFocus(false);
      }}
    >
      <div className="container site-header__bar">
        <Link to="/" className="brand" aria-label={`${site.name} home`}>
          <svg className="brand__mark" width="36" height="36" viewBox="0 0 32 32" aria-hidden="true">
            <rect width="32" height="32" rx="6" fill="#1b3556" />
            <path d="M9 23V9h7.5a4.5 4.5 0 0 1 0 9H13v5z" fill="none" stroke="#d9b265" strokeWidth="2.6" strokeLinejoin="round" />
          </svg>
          <span className="brand__text">
            <span className="brand__name">{site.shortName}</span>
            <span className="brand__sub">Property Search</span>
          </span>
        </Link>
        <div className="site-header__desktop">
          <DesktopMenu groups={headerGroups} />
          {extra.map((l) => (
            <Link key={l.to} to={l.to} className="desktop-nav__trigger">
              {l.label}
            </Link>
          ))}
          <Link to="/contact" className="btn btn--accent btn--sm">
            Let&apos;s Talk
          </Link>
        </div>
        <div className="site-header__mobile">
          <SideDrawer groups={headerGroups} extraLinks={extra} />
        </div>
      </div>
    </header>
  );
}
