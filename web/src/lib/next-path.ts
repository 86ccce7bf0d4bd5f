// Where the Career Hub continues after signing in: a same-site path from `?next=`, else the dashboard (no open redirect).
export const DASHBOARD_PATH = '/career-hub/dashboard';

/**
 * A same-site path to continue to after signing in, from `?next=`; anything else (another origin, `//host`,
 * backslashes, a scheme) gives the dashboard.
 */
export function safeNextPath(next: string | null, origin: string = window.location.origin): string {
  if (!next || !/^\/(?![/\\])[A-Za-z0-9\-._~/?=&%]*$/.test(next)) return DASHBOARD_PATH;
  try {
    const url = new URL(next, origin);
    return url.origin === origin ? `${url.pathname}${url.search}` : DASHBOARD_PATH;
  } catch {
    return DASHBOARD_PATH;
  }
}
