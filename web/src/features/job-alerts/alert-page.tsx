// /alerts/confirm and /alerts/unsubscribe: the pages the job alert e-mails link to. The gateway serves them rendered by
// public.render_alert_page (sql/migrations/0405) for the link's token; their button POSTs back to the same address
// (public.post_alert_page), so they work without JavaScript and without signing in. The browser renders the same
// from the page's data (data-ssr-alert).
import { useState } from 'react';
import { Link } from 'react-router';
import { Seo } from '@/lib/seo';

type AlertPageData = { title: string; message: string; button: string | null };

function readServerAlert(): AlertPageData | null {
  if (typeof document === 'undefined') return null;
  const el = document.querySelector<HTMLElement>('[data-ssr-alert]');
  if (!el?.dataset.ssrAlert) return null;
  try {
    return JSON.parse(el.dataset.ssrAlert) as AlertPageData;
  } catch {
    return null;
  }
}

const FALLBACK: AlertPageData = {
  title: 'Job alerts',
  message: 'Open this page from the link in your job alert e-mail to confirm or stop the alert.',
  button: null,
};

export default function AlertPage() {
  const [data] = useState(() => readServerAlert() ?? FALLBACK);
  return (
    <div className="alert-page" data-testid="alert-page">
      <Seo title={data.title} description="Confirm or stop a job alert." path="/alerts" noindex nofollow />
      <section className="page-hero">
        <div className="container">
          <p className="eyebrow">Job alerts</p>
          <h1>{data.title}</h1>
        </div>
      </section>
      <div className="container section">
        <div className="card alert-page__card">
          <p>{data.message}</p>
          {data.button && (
            <form method="post">
              <button type="submit" className="btn btn--accent">
                {data.button}
              </button>
            </form>
          )}
          <p className="alert-page__links">
            <Link to="/jobs">Search live roles</Link> · <Link to="/privacy#job-alerts">How we use your data</Link>
          </p>
        </div>
      </div>
    </div>
  );
}
