// API location and anon key, read at run time from the meta tags the gateway writes in place of <!--runtime-config-->
// (never from build-time env). Without them (e.g. `vite preview` with no gateway) the API is treated as unavailable.

export type RuntimeConfig = { supabaseUrl: string; supabaseAnonKey: string };

function meta(name: string): string | null {
  if (typeof document === 'undefined') return null;
  const value = document.querySelector<HTMLMetaElement>(`meta[name="${name}"]`)?.content?.trim();
  return value ? value : null;
}

export function readRuntimeConfig(): RuntimeConfig | null {
  const url = meta('supabase-url');
  const key = meta('supabase-anon-key');
  if (!url || !key) return null;
  return { supabaseUrl: new URL(url, window.location.origin).toString().replace(/\/$/, ''), supabaseAnonKey: key };
}

/** localStorage key supabase-js uses for the session: `sb-<first host label>-auth-token`. */
export function authStorageKey(config: RuntimeConfig): string {
  return `sb-${new URL(config.supabaseUrl).hostname.split('.')[0]}-auth-token`;
}
