// The single supabase-js client. Import it only through `getSupabase()` (a dynamic import) so pages that never query
// the API do not download supabase-js.
import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import { ApiUnavailableError } from './api-unavailable';
import { readRuntimeConfig } from './runtime-config';

export { ApiUnavailableError };

let client: SupabaseClient | null = null;

export function supabase(): SupabaseClient {
  if (client) return client;
  const config = readRuntimeConfig();
  if (!config) throw new ApiUnavailableError();
  client = createClient(config.supabaseUrl, config.supabaseAnonKey, {
    auth: { persistSession: true, autoRefreshToken: true, detectSessionInUrl: true },
  });
  return client;
}
