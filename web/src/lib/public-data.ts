// Anonymous reads of public rows (active jobs) through postgrest-js alone, the data API client inside supabase-js:
// public pages that only list public data do not download the rest of supabase-js (auth, storage, realtime).
import type { PostgrestClient } from '@supabase/postgrest-js';
import { ApiUnavailableError } from './api-unavailable';
import type { Database } from './database.types';
import { readRuntimeConfig } from './runtime-config';

let client: Promise<PostgrestClient<Database>> | null = null;

/** The anon role's data API client, headers as supabase-js sends them without a session. */
export function getPublicData(): Promise<PostgrestClient<Database>> {
  client ??= (async () => {
    const config = readRuntimeConfig();
    if (!config) throw new ApiUnavailableError();
    const { PostgrestClient } = await import('@supabase/postgrest-js');
    const key = config.supabaseAnonKey;
    return new PostgrestClient<Database>(`${config.supabaseUrl}/rest/v1`, { headers: { apikey: key, Authorization: `Bearer ${key}` } });
  })();
  return client;
}
