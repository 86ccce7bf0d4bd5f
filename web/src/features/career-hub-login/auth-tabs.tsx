// The Login / Sign Up tabs (WAI-ARIA tabs: arrow keys, Home and End move between them; the panel follows).
import { useRef, type KeyboardEvent, type ReactNode } from 'react';

export type AuthTab = 'login' | 'signup';
const TABS: { id: AuthTab; label: string }[] = [
  { id: 'login', label: 'Login' },
  { id: 'signup', label: 'Sign Up' },
];

export function AuthTabs({ tab, onChange, children }: { tab: AuthTab; onChange: (t: AuthTab) => void; children: ReactNode }) {
  const refs = useRef<Record<AuthTab, HTMLButtonElement | null>>({ login: null, signup: null });
  const onKey = (e: KeyboardEvent) => {
    const i = TABS.findIndex((t) => t.id === tab);
    const to = { ArrowRight: i + 1, ArrowLeft: i - 1, Home: 0, End: TABS.length - 1 }[e.key];
    if (to === undefined) return;
    e.preventDefault();
    const next = TABS[(to + TABS.length) % TABS.length].id;
    onChange(next);
    refs.current[next]?.focus();
  };
  return (
    <>
      <div className="auth-tabs" role="tablist" aria-label="Login or sign up" onKeyDown={onKey}>
        {TABS.map((t) => (
          <button
            key={t.id}
            ref={(el) => {
              refs.current[t.id] = el;
            }}
            type="button"
            role="tab"
            id={`auth-tab-${t.id}`}
            aria-selected={tab === t.id}
            aria-controls="auth-panel"
            tabIndex={tab === t.id ? 0 : -1}
            className="auth-tabs__tab"
            onClick={() => onChange(t.id)}
          >
            {t.label}
          </button>
        ))}
      </div>
      <div role="tabpanel" id="auth-panel" aria-labelledby={`auth-tab-${tab}`} className="auth-tabs__panel">
        {children}
      </div>
    </>
  );
}
