// The frame of every Career Hub page: the candidate auth provider, and for signed-in pages the spec's guard
// ("Loading..." while auth is pending, then nothing and a redirect to /career-hub/login when nobody is signed in;
// to /career-hub when the session ends on the page, as after Sign Out).
import { useEffect, useRef, type ReactNode } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { CandidateAuthProvider, useCandidateAuth } from './candidate-auth';

function Guard({ children }: { children: ReactNode }) {
  const { ready, user } = useCandidateAuth();
  const navigate = useNavigate();
  const { pathname, search } = useLocation();
  // Signed out here (Sign Out, account deleted): to /career-hub (spec §4); never signed in: to the login page.
  const hadUser = useRef(false);
  if (user) hadUser.current = true;
  useEffect(() => {
    if (!ready || user) return;
    navigate(hadUser.current ? '/career-hub' : `/career-hub/login?next=${encodeURIComponent(pathname + search)}`, { replace: true });
  }, [ready, user, navigate, pathname, search]);
  if (!ready) {
    return (
      <div className="container section" aria-busy="true" style={{ paddingTop: 'calc(var(--header-h) + var(--sp-6))' }}>
        <p className="muted">Loading...</p>
      </div>
    );
  }
  return user ? <>{children}</> : null;
}

export function CandidatePage({ children, requireLogin = false }: { children: ReactNode; requireLogin?: boolean }) {
  return <CandidateAuthProvider>{requireLogin ? <Guard>{children}</Guard> : children}</CandidateAuthProvider>;
}
