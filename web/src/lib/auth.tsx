// Session state for the whole site. supabase-js is loaded only when a stored session exists (or a page asks for the
// client), so anonymous visitors of marketing pages never download it. On sign-in or session restore the admin flag is
// looked up in user_roles; with no user it is false (spec §4).
import type { Session, SupabaseClient, User } from '@supabase/supabase-js';
import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import { getSupabase } from './api';
import { authStorageKey, readRuntimeConfig } from './runtime-config';

export type AuthState = {
  loading: boolean;
  user: User | null;
  session: Session | null;
  isAdmin: boolean;
  /** Premium membership is not offered yet. */
  isPremium: false;
  /** Loads supabase-js and subscribes to auth changes (call before signing in on pages that sign in). */
  connect: () => Promise<SupabaseClient>;
  signOut: () => Promise<void>;
};

const AuthContext = createContext<AuthState | null>(null);

async function lookUpAdmin(client: SupabaseClient, userId: string): Promise<boolean> {
  const { data, error } = await client
    .from('user_roles')
    .select('role')
    .eq('user_id', userId)
    .eq('role', 'admin')
    .limit(1)
    .maybeSingle();
  if (error) {
    console.warn('Admin role check failed:', error.message);
    return false;
  }
  return data !== null;
}

function hasStoredSession(): boolean {
  const config = readRuntimeConfig();
  if (!config) return false;
  try {
    return window.localStorage.getItem(authStorageKey(config)) !== null;
  } catch {
    return false;
  }
}

export function AuthProvider({ children }: { children: ReactNode }) {
  const [state, setState] = useState<{ loading: boolean; session: Session | null; isAdmin: boolean }>({
    loading: true,
    session: null,
    isAdmin: false,
  });
  const [subscribed, setSubscribed] = useState<Promise<SupabaseClient> | null>(null);

  const connect = useCallback((): Promise<SupabaseClient> => {
    if (subscribed) return subscribed;
    const p = getSupabase().then((client) => {
      client.auth.onAuthStateChange((_event, session) => {
        // Never await other supabase calls inside this callback (it runs inside the auth lock).
        setTimeout(async () => {
          const isAdmin = session?.user ? await lookUpAdmin(client, session.user.id) : false;
          setState({ loading: false, session, isAdmin });
        }, 0);
      });
      return client;
    });
    p.catch(() => setState({ loading: false, session: null, isAdmin: false }));
    setSubscribed(p);
    return p;
  }, [subscribed]);

  useEffect(() => {
    if (hasStoredSession()) void connect().catch(() => undefined);
    else setState((s) => ({ ...s, loading: false }));
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  const signOut = useCallback(async () => {
    const client = await connect();
    await client.auth.signOut();
    setState({ loading: false, session: null, isAdmin: false });
  }, [connect]);

  const value = useMemo<AuthState>(
    () => ({
      loading: state.loading,
      session: state.session,
      user: state.session?.user ?? null,
      isAdmin: state.isAdmin,
      isPremium: false,
      connect,
      signOut,
    }),
    [state, connect, signOut],
  );
  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}

export function useAuth(): AuthState {
  const ctx = useContext(AuthContext);
  if (!ctx) throw new Error('useAuth must be used within an AuthProvider');
  return ctx;
}
