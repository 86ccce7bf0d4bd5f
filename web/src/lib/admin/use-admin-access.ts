// Who may see an admin page (spec §6): admins only. While the session loads the page shows 'Loading...'. Signed-out
// visitors of the dashboard see 'Admin Access Required'; signed-in non-admins of the dashboard go to /; non-admins of
// the other admin pages go to /admin-login (which itself sends signed-in users to /). Redirects replace history.
import { useEffect } from 'react';
import { useNavigate } from 'react-router';
import { useAuth } from '@/lib/auth';

export type AdminPolicy = 'dashboard' | 'staff';
export type AdminAccess = 'loading' | 'signed-out' | 'allowed' | 'redirecting';

export function adminAccess(loading: boolean, signedIn: boolean, isAdmin: boolean, policy: AdminPolicy): AdminAccess {
  if (loading) return 'loading';
  if (isAdmin) return 'allowed';
  if (policy === 'dashboard' && !signedIn) return 'signed-out';
  return 'redirecting';
}

export function redirectTarget(policy: AdminPolicy): string {
  return policy === 'dashboard' ? '/' : '/admin-login';
}

export function useAdminAccess(policy: AdminPolicy): AdminAccess {
  const { loading, user, isAdmin } = useAuth();
  const navigate = useNavigate();
  const access = adminAccess(loading, user !== null, isAdmin, policy);
  useEffect(() => {
    if (access === 'redirecting') navigate(redirectTarget(policy), { replace: true });
  }, [access, policy, navigate]);
  return access;
}
