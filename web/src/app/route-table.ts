// Every route of the site (spec §2), how it is served, and which page module renders it. Page modules live in
// src/features/<feature>/**/…page.tsx and export the page component as default; they are code-split per route.
// `render`: 'static' = prerendered to dist/<path>/index.html at build (indexable); 'spa' = client-rendered from
// dist/app.html (noindex areas); 'job' = dist/_templates/job.html filled by the SQL function render_job_page;
// 'data' = dist/_templates/<data.template>.html filled by the SQL function data.function (a `dynamic` route of
// _site.json: at the exact path, or one segment under data.prefix; with the query string when data.query; a POST to
// the page calls data.post).

export type RenderMode = 'static' | 'spa' | 'job' | 'data';

export type DataPage = { template: string; function: string; prefix?: string; query?: boolean; post?: string };

export type AppRoute = {
  /** react-router path pattern. */
  path: string;
  /** Key of the page module under src/features (as in import.meta.glob). */
  module: string;
  render: RenderMode;
  /** Concrete paths to prerender for patterns with parameters. */
  prerenderPaths?: string[];
  /** For render 'data': the template and the SQL functions that fill it. */
  data?: DataPage;
};

export const INSIGHT_ARTICLE_SLUGS = ['evolving-asset-manager-2025', 'hybrid-working-property'];

export const routes: AppRoute[] = [
  { path: '/', module: 'home/page.tsx', render: 'static' },
  { path: '/services', module: 'services/page.tsx', render: 'static' },
  { path: '/contact', module: 'contact/page.tsx', render: 'static' },
  { path: '/clients/developer-investor', module: 'clients/developer-investor-page.tsx', render: 'static' },
  { path: '/clients/service-provider', module: 'clients/service-provider-page.tsx', render: 'static' },
  { path: '/clients/corporate-in-house', module: 'clients/corporate-in-house-page.tsx', render: 'static' },
  { path: '/candidates', module: 'candidates/page.tsx', render: 'static' },
  { path: '/career-support', module: 'career-support/page.tsx', render: 'static' },
  { path: '/career-hub', module: 'career-hub/page.tsx', render: 'static' },
  { path: '/insights', module: 'insights/page.tsx', render: 'static' },
  {
    path: '/insights/:slug',
    module: 'insights/article-page.tsx',
    render: 'static',
    prerenderPaths: INSIGHT_ARTICLE_SLUGS.map((s) => `/insights/${s}`),
  },
  { path: '/about', module: 'about/page.tsx', render: 'static' },
  { path: '/privacy', module: 'privacy/page.tsx', render: 'static' },
  { path: '/privacy/choice', module: 'privacy/choice-page.tsx', render: 'spa' },
  { path: '/terms', module: 'terms/page.tsx', render: 'static' },
  { path: '/our-work', module: 'our-work/page.tsx', render: 'static' },
  { path: '/jobs/:jobId', module: 'jobs/page.tsx', render: 'job' },
  { path: '/jobs', module: 'jobs-search/page.tsx', render: 'data', data: { template: 'jobs', function: 'public.render_jobs_page', query: true, post: 'public.post_jobs_page' } },
  {
    path: '/alerts/:action',
    module: 'job-alerts/alert-page.tsx',
    render: 'data',
    data: { template: 'alert', prefix: '/alerts/', function: 'public.render_alert_page', query: true, post: 'public.post_alert_page' },
  },
  { path: '/vacancies', module: 'vacancies/page.tsx', render: 'spa' },
  { path: '/career-hub/login', module: 'career-hub-login/page.tsx', render: 'spa' },
  { path: '/career-hub/dashboard', module: 'career-hub-dashboard/page.tsx', render: 'spa' },
  { path: '/career-hub/cv-builder', module: 'cv-builder/page.tsx', render: 'spa' },
  { path: '/career-hub/templates', module: 'cv-templates/page.tsx', render: 'spa' },
  { path: '/career-hub/reset-password', module: 'career-hub-reset-password/page.tsx', render: 'spa' },
  { path: '/profile/:slug', module: 'profiles/page.tsx', render: 'spa' },
  { path: '/admin-login', module: 'admin-login/page.tsx', render: 'spa' },
  { path: '/admin', module: 'admin-dashboard/page.tsx', render: 'spa' },
  { path: '/admin/jobs', module: 'admin-featured-jobs/page.tsx', render: 'spa' },
  { path: '/admin/candidates', module: 'admin-candidates/page.tsx', render: 'spa' },
  { path: '/admin/candidates/analytics', module: 'admin-analytics/page.tsx', render: 'spa' },
  { path: '/admin/vacancies', module: 'admin-vacancies/page.tsx', render: 'spa' },
  { path: '/admin/vacancies/new', module: 'admin-vacancies/editor-page.tsx', render: 'spa' },
  { path: '/admin/vacancies/import', module: 'admin-vacancies/import-page.tsx', render: 'spa' },
  { path: '/admin/vacancies/:jobId', module: 'admin-vacancies/editor-page.tsx', render: 'spa' },
  // The firm's desk (issue 25): applications, enquiries, and a profile's link for one named client.
  { path: '/admin/applications', module: 'admin-applications/page.tsx', render: 'spa' },
  { path: '/admin/applications/templates', module: 'admin-applications/templates-page.tsx', render: 'spa' },
  { path: '/admin/applications/:applicationId', module: 'admin-applications/application-page.tsx', render: 'spa' },
  { path: '/admin/enquiries', module: 'admin-enquiries/page.tsx', render: 'spa' },
  { path: '/admin/enquiries/:enquiryId', module: 'admin-enquiries/enquiry-page.tsx', render: 'spa' },
  { path: '/profile/client', module: 'profiles/client-link-page.tsx', render: 'spa' },
];

/** Prefixes served from the SPA shell (dist/_site.json "spa": the prefix itself and anything under prefix/). */
export const SPA_PREFIXES = [
  '/vacancies',
  '/career-hub/login',
  '/career-hub/dashboard',
  '/career-hub/cv-builder',
  '/career-hub/templates',
  '/career-hub/reset-password',
  '/profile',
  '/admin-login',
  '/admin',
  '/privacy/choice',
];
