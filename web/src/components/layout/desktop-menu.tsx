// Desktop (xl and up) navigation: disclosure menus that open on hover after 200 ms (immediately when moving from one
// open menu to another within the 300 ms skip window) and close 150 ms after the pointer leaves; click, Enter/Space
// toggle them, Escape closes and returns focus to the trigger.
import { useCallback, useEffect, useRef, useState } from 'react';
import { Link, NavLink as RouterNavLink, useLocation } from 'react-router';
import { ChevronDownIcon, ExternalIcon } from '@/components/ui/icons';
import type { NavGroup, NavLink } from './navigation';

export const MENU_OPEN_DELAY = 200;
export const MENU_SKIP_DELAY = 300;
export const MENU_CLOSE_DELAY = 150;

export function MenuLink({ link, onNavigate }: { link: NavLink; onNavigate?: () => void }) {
  if (link.kind === 'disabled') {
    return (
      <span className="menu-link menu-link--disabled" aria-disabled="true">
        <span className="menu-link__label">{link.label}</span>
        <span className="menu-link__desc">{link.note}</span>
      </span>
    );
  }
  if (link.kind === 'external') {
    return (
      <a className="menu-link" href={link.href} target="_blank" rel="noopener noreferrer" onClick={onNavigate}>
        <span className="menu-link__label">
          {link.label} <ExternalIcon size={14} />
          <span className="visually-hidden"> (opens in a new tab)</span>
        </span>
        {link.description && <span className="menu-link__desc">{link.description}</span>}
      </a>
    );
  }
  return (
    <Link className="menu-link" to={link.to} onClick={onNavigate}>
      <span className="menu-link__label">{link.label}</span>
      {link.description && <span className="menu-link__desc">{link.description}</span>}
    </Link>
  );
}

export function DesktopMenu({ groups }: { groups: NavGroup[] }) {
  const [openId, setOpenId] = useState<string | null>(null);
  const openTimer = useRef(0);
  const closeTimer = useRef(0);
  const lastClosedAt = useRef(0);
  const openIdRef = useRef<string | null>(null);
  const navRef = useRef<HTMLElement>(null);
  const location = useLocation();

  const set = useCallback((id: string | null) => {
    if (id === null && openIdRef.current !== null) lastClosedAt.current = Date.now();
    openIdRef.current = id;
    setOpenId(id);
  }, []);

  const clearTimers = () => {
    window.clearTimeout(openTimer.current);
    window.clearTimeout(closeTimer.current);
  };

  useEffect(() => () => clearTimers(), []);
  useEffect(() => set(null), [location.pathname, location.hash, set]);

  useEffect(() => {
    if (!openId) return;
    const onDown = (e: PointerEvent) => {
      if (navRef.current && !navRef.current.contains(e.target as Node)) set(null);
    };
    document.addEventListener('pointerdown', onDown);
    return () => document.removeEventListener('pointerdown', onDown);
  }, [openId, set]);

  const pointerEnter = (id: string) => {
    clearTimers();
    if (openIdRef.current === id) return;
    const skip = openIdRef.current !== null || Date.now() - lastClosedAt.current < MENU_SKIP_DELAY;
    if (skip) set(id);
    else openTimer.current = window.setTimeout(() => set(id), MENU_OPEN_DELAY);
  };
  const pointerLeave = () => {
    clearTimers();
    closeTimer.current = window.setTimeout(() => set(null), MENU_CLOSE_DELAY);
  };

  return (
    <nav ref={navRef} className="desktop-nav" aria-label="Main">
      <ul className="desktop-nav__list">
        {groups.map((g) =>
          'to' in g ? (
            <li key={g.id}>
              <RouterNavLink to={g.to} className="desktop-nav__trigger">
                {g.label}
              </RouterNavLink>
            </li>
          ) : (
            <li
              key={g.id}
              className="desktop-nav__item"
              onPointerEnter={(e) => e.pointerType === 'mouse' && pointerEnter(g.id)}
              onPointerLeave={(e) => e.pointerType === 'mouse' && pointerLeave()}
              onKeyDown={(e) => {
                if (e.key === 'Escape' && openId === g.id) {
                  set(null);
                  (e.currentTarget.querySelector('button') as HTMLButtonElement | null)?.focus();
                }
              }}
              onBlur={(e) => {
                if (!e.currentTarget.contains(e.relatedTarget as Node | null) && openIdRef.current === g.id) set(null);
              }}
            >
              <button
                type="button"
                className="desktop-nav__trigger"
                aria-expanded={openId === g.id}
                aria-controls={`menu-${g.id}`}
                onClick={() => {
                  clearTimers();
                  set(openIdRef.current === g.id ? null : g.id);
                }}
              >
                {g.label}
                <ChevronDownIcon size={16} className="desktop-nav__chevron" />
              </button>
              <div id={`menu-${g.id}`} className="desktop-nav__panel" hidden={openId !== g.id} data-testid={`menu-${g.id}`}>
                <ul>
                  {g.links.map((l) => (
                    <li key={l.label}>
                      <MenuLink link={l} onNavigate={() => set(null)} />
                    </li>
                  ))}
                </ul>
              </div>
            </li>
          ),
        )}
      </ul>
    </nav>
  );
}
