// Navigation below the xl breakpoint: a modal side drawer (native <dialog>: focus moves in, is trapped, Escape
// closes, focus returns to the menu button). Groups expand in place.
import { useEffect, useRef, useState } from 'react';
import { Link, useLocation } from 'react-router';
import { ChevronDownIcon, CloseIcon, MenuIcon } from '@/components/ui/icons';
import { site } from '@/content/site';
import { MenuLink } from './desktop-menu';
import type { NavGroup } from './navigation';

export function SideDrawer({ groups, extraLinks }: { groups: NavGroup[]; extraLinks: { label: string; to: string }[] }) {
  const [open, setOpen] = useState(false);
  const [expanded, setExpanded] = useState<string | null>(null);
  const ref = useRef<HTMLDialogElement>(null);
  const location = useLocation();

  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    if (open && !el.open) el.showModal();
    if (!open && el.open) el.close();
  }, [open]);
  useEffect(() => setOpen(false), [location.pathname, location.hash]);

  const close = () => setOpen(false);
  return (
    <>
      <button
        type="button"
        className="drawer-toggle"
        aria-label="Open menu"
        aria-haspopup="dialog"
        aria-expanded={open}
        onClick={() => setOpen(true)}
        data-testid="drawer-toggle"
      >
        <MenuIcon size={24} />
      </button>
      <dialog
        ref={ref}
        className="drawer"
        aria-label="Site menu"
        onClose={close}
        onCancel={(e) => {
          e.preventDefault();
          close();
        }}
        onClick={(e) => {
          if (e.target === e.currentTarget) close();
        }}
        data-testid="drawer"
      >
        {open && (
          <div className="drawer__inner">
            <div className="drawer__top">
              <span className="drawer__brand">{site.name}</span>
              <button type="button" className="drawer__close" aria-label="Close menu" onClick={close} autoFocus>
                <CloseIcon size={24} />
              </button>
            </div>
            <nav aria-label="Main">
              <ul className="drawer__groups">
                {groups.map((g) =>
                  'to' in g ? (
                    <li key={g.id}>
                      <Link to={g.to} className="drawer__group-link" onClick={close}>
                        {g.label}
                      </Link>
                    </li>
                  ) : (
                    <li key={g.id}>
                      <button
                        type="button"
                        className="drawer__group-link"
                        aria-expanded={expanded === g.id}
                        aria-controls={`drawer-${g.id}`}
                        onClick={() => setExpanded(expanded === g.id ? null : g.id)}
                      >
                        {g.label}
                        <ChevronDownIcon size={18} className="drawer__chevron" />
                      </button>
                      <ul id={`drawer-${g.id}`} className="drawer__links" hidden={expanded !== g.id}>
                        {g.links.map((l) => (
                          <li key={l.label}>
                            <MenuLink link={l} onNavigate={close} />
                          </li>
                        ))}
                      </ul>
                    </li>
                  ),
                )}
                {extraLinks.map((l) => (
                  <li key={l.to}>
                    <Link to={l.to} className="drawer__group-link" onClick={close}>
                      {l.label}
                    </Link>
                  </li>
                ))}
              </ul>
            </nav>
            <Link to="/contact" className="btn btn--accent btn--block" onClick={close}>
              Let&apos;s Talk
            </Link>
          </div>
        )}
      </dialog>
    </>
  );
}
