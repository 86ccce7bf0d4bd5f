// The error a page gets when it was served without the API's runtime config (e.g. `vite preview` with no gateway).

export class ApiUnavailableError extends Error {
  constructor() {
    super('The API is not configured for this page (missing supabase-url / supabase-anon-key meta tags).');
    this.name = 'ApiUnavailableError';
  }
}
