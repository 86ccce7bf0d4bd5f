// Lazy access to the supabase-js client: the library is fetched on first use, never on pages that don't query.
import type { TypedClient } from './supabase';
import { readRuntimeConfig } from './runtime-config';

export async function getSupabase(): Promise<TypedClient> {
  const mod = await import('./supabase');
  return mod.supabase();
}

/** True when the page was served with the API's runtime config (by the gateway). */
export function apiConfigured(): boolean {
  return readRuntimeConfig() !== null;
}

/** Throws an Error carrying the backend's message when a query failed (spec §8: failed queries throw). */
export function unwrap<T>(result: { data: T | null; error: { message: string } | null }): T {
  if (result.error) throw new Error(result.error.message);
  return result.data as T;
}
