// The frame of every Career Hub page: the candidate auth provider, and for signed-in pages the spec's guard
// ("Loading..." while auth is pending, then nothing and a redirect to /career-hub/login when nobody is signed in).
import { useEffect, type ReactNode } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { CandidateAuthProvider, useCandidateAuth } from './candidate-auth';

function Guard({ children }: { children: ReactNode }) {
  const { ready, user } = useCandidateAuth();
  const navigate = useNavigate();
  const { pathname, search } = useLocation();
  useEffect(() => {
    if (ready && !user) navigate(`/career-hub/login?next=${encodeURIComponent(pathname + search)}`, { replace: true });
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
