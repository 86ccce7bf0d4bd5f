// The single supabase-js client. Import it only through `getSupabase()` (a dynamic import) so pages that never query
// the API do not download supabase-js.
import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import { ApiUnavailableError } from './api-unavailable';
import type { Database } from './database.types';
import { readRuntimeConfig } from './runtime-config';

export { ApiUnavailableError };

/** The client typed with the `Database` generated from the migrations (`scripts/gen-types.sh`). */
export type TypedClient = SupabaseClient<Database>;

let client: TypedClient | null = null;

export function supabase(): TypedClient {
  if (client) return client;
  const config = readRuntimeConfig();
  if (!config) throw new ApiUnavailableError();
  client = createClient<Database>(config.supabaseUrl, config.supabaseAnonKey, {
    auth: { persistSession: true, autoRefreshToken: true, detectSessionInUrl: true },
  });
  return client;
}
