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

type Answer = { data: unknown; error: { message: string } | null };
/** The data of a postgrest-js answer that succeeded (its `error: null` branch), typed as the query's select says. */
export type Answered<R extends Answer> = Extract<R, { error: null }>['data'];

/** Throws an Error carrying the backend's message when a query failed (spec §8: failed queries throw). */
export function unwrap<R extends Answer>(result: R): Answered<R> {
  if (result.error) throw new Error(result.error.message);
  return result.data as Answered<R>;
}
