// Candidate accounts for the Career Hub (spec §4, §5, §8): sign up (full_name metadata, confirmation link back to
// the dashboard), sign in, sign out, password reset and the new password, on the site's one supabase-js client
// (the session AuthProvider restores and refreshes). Mounted by the Career Hub pages only, so public pages never
// load supabase-js for it. `ready` turns true once the client has read the stored session or the link in the URL.
import type { Session, SupabaseClient, User } from '@supabase/supabase-js';
import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import { useAuth } from './auth';
import { DASHBOARD_PATH } from './next-path';
import { authCall, errorText, signInWithPassword, signUpWithPassword, type AuthResult } from './password-auth';

export const RESET_PASSWORD_PATH = '/career-hub/reset-password';

type Result = AuthResult;

export type CandidateAuthState = {
  ready: boolean;
  user: User | null;
  session: Session | null;
  /** The user's full name from the sign-up metadata, or null. */
  fullName: string | null;
  /** Premium membership is not offered yet (spec §3: always false). */
  isPremium: false;
  /** True after arriving from a password-reset link (until the new password is set). */
  recovering: boolean;
  client: () => Promise<SupabaseClient>;
  signIn: (email: string, password: string) => Promise<Result>;
  signUp: (fullName: string, email: string, password: string) => Promise<Result>;
  /** 'local' forgets the session on this device only (after the account was deleted). */
  signOut: (scope?: 'global' | 'local') => Promise<void>;
  sendPasswordReset: (email: string) => Promise<Result>;
  updatePassword: (password: string) => Promise<Result>;
};

const CandidateAuthContext = createContext<CandidateAuthState | null>(null);

const here = (path: string) => `${window.location.origin}${path}`;

export function CandidateAuthProvider({ children }: { children: ReactNode }) {
  const { connect } = useAuth();
  const [state, setState] = useState<{ ready: boolean; session: Session | null; recovering: boolean }>({ ready: false, session: null, recovering: false });

  useEffect(() => {
    let live = true;
    let unsubscribe = () => undefined as void;
    connect()
      .then(async (client) => {
        const sub = client.auth.onAuthStateChange((event, session) => {
          if (!live) return;
          setState((s) => ({ ready: true, session, recovering: event === 'PASSWORD_RECOVERY' ? true : event === 'SIGNED_OUT' ? false : s.recovering }));
        });
        unsubscribe = () => sub.data.subscription.unsubscribe();
        const { data } = await client.auth.getSession(); // waits for a session in the URL to be read
        if (live) setState((s) => ({ ...s, ready: true, session: data.session }));
      })
      .catch((e) => {
        console.warn('Career Hub: the API is unavailable:', errorText(e));
        if (live) setState({ ready: true, session: null, recovering: false });
      });
    return () => {
      live = false;
      unsubscribe();
    };
  }, [connect]);

  const run = useCallback(
    (action: (c: SupabaseClient) => Promise<{ error: { message: string } | null }>): Promise<Result> => authCall(connect, action),
    [connect],
  );

  const value = useMemo<CandidateAuthState>(() => {
    const user = state.session?.user ?? null;
    const name = user?.user_metadata?.full_name;
    return {
      ready: state.ready,
      session: state.session,
      user,
      fullName: typeof name === 'string' && name.trim() ? name.trim() : null,
      isPremium: false,
      recovering: state.recovering,
      client: connect,
      signIn: (email, password) => signInWithPassword(connect, email, password),
      signUp: (fullName, email, password) => signUpWithPassword(connect, email, password, here(DASHBOARD_PATH), { full_name: fullName }),
      signOut: async (scope = 'global') => {
        await run((c) => c.auth.signOut({ scope }));
        setState({ ready: true, session: null, recovering: false });
      },
      sendPasswordReset: (email) => run((c) => c.auth.resetPasswordForEmail(email, { redirectTo: here(RESET_PASSWORD_PATH) })),
      updatePassword: async (password) => {
        const result = await run((c) => c.auth.updateUser({ password }));
        if (!result.error) setState((s) => ({ ...s, recovering: false }));
        return result;
      },
    };
  }, [state, connect, run]);

  return <CandidateAuthContext.Provider value={value}>{children}</CandidateAuthContext.Provider>;
}

export function useCandidateAuth(): CandidateAuthState {
  const ctx = useContext(CandidateAuthContext);
  if (!ctx) throw new Error('useCandidateAuth must be used within a CandidateAuthProvider');
  return ctx;
}
