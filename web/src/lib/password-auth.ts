// The site's one password sign-in and sign-up (the admin login and the Career Hub): supabase-js Auth, errors as text.
import type { SupabaseClient } from '@supabase/supabase-js';

export type AuthResult = { error: string | null };
type Connect = () => Promise<SupabaseClient>;

export const errorText = (e: unknown): string => (e instanceof Error ? e.message : String(e));

/** Runs one Auth call on the site's client; a refusal or an unreachable API comes back as `error`, never thrown. */
export async function authCall(connect: Connect, action: (c: SupabaseClient) => Promise<{ error: { message: string } | null }>): Promise<AuthResult> {
  try {
    const { error } = await action(await connect());
    return { error: error ? error.message : null };
  } catch (e) {
    return { error: errorText(e) };
  }
}

export function signInWithPassword(connect: Connect, email: string, password: string): Promise<AuthResult> {
  return authCall(connect, (c) => c.auth.signInWithPassword({ email, password }));
}

/** Signs up; `data` is the user metadata (the Career Hub's full_name), `redirectTo` where the confirmation link leads. */
export function signUpWithPassword(connect: Connect, email: string, password: string, redirectTo: string, data?: Record<string, string>): Promise<AuthResult> {
  const options = data ? { data, emailRedirectTo: redirectTo } : { emailRedirectTo: redirectTo };
  return authCall(connect, (c) => c.auth.signUp({ email, password, options }));
}
