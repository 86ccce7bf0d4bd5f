// Signs a demo user in with supabase-js (the same client and storage format the site uses) and returns the session as
// the browser would store it, so a browser context can start signed in: { storageKey, value, userId }.
import { createClient } from '@supabase/supabase-js';

/** Demo users of sql/seed/01_demo_users.sql. */
export const DEMO_USERS = {
  admin: { email: 'admin@example.com', password: 'demo-admin-2025' },
  candidate: { email: 'candidate@example.com', password: 'demo-candidate-2025' },
};

export async function signInSession(url, anonKey, { email, password }) {
  const stored = new Map();
  const storage = {
    getItem: (k) => stored.get(k) ?? null,
    setItem: (k, v) => void stored.set(k, v),
    removeItem: (k) => void stored.delete(k),
  };
  // No realtime here: an inert transport keeps supabase-js from asking for a WebSocket implementation on Node 20.
  const client = createClient(url, anonKey, {
    auth: { storage, persistSession: true, autoRefreshToken: false, detectSessionInUrl: false },
    realtime: { transport: class NoWebSocket {} },
  });
  const { data, error } = await client.auth.signInWithPassword({ email, password });
  if (error) throw new Error(`sign-in as ${email} failed: ${error.message}`);
  const entry = [...stored].find(([k]) => k.endsWith('-auth-token'));
  if (!entry) throw new Error('supabase-js stored no session');
  return { storageKey: entry[0], value: entry[1], userId: data.user.id };
}

/** Makes every page of `context` start with the session in localStorage (kept if the app has refreshed it since). */
export async function startSignedIn(context, session) {
  await context.addInitScript(
    ([key, value]) => {
      try {
        if (window.localStorage.getItem(key) === null) window.localStorage.setItem(key, value);
      } catch {
        // about:blank and other opaque origins have no storage.
      }
    },
    [session.storageKey, session.value],
  );
}
