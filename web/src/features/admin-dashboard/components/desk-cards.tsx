// The desk on the dashboard: Applications (new since the admin's last visit to the list, and awaiting review) and
// Enquiries (unhandled), each a card leading to its list.
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { formatDateTime } from '@/lib/admin/format';
import { useQuery } from '@/lib/use-query';
import { getDeskSummary } from '../api/get-desk-summary';
import { injectStyle } from '@/lib/inject-style';
import deskCss from '@/components/admin/desk.css?inline';

injectStyle('desk', deskCss);

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

function DeskCard({ to, title, figure, testId, children }: { to: string; title: string; figure: string; testId: string; children: ReactNode }) {
  return (
    <article className="card card--interactive link-card">
      <h2>
        <Link to={to} className="card__stretched">
          {title}
        </Link>
      </h2>
      <p className="desk-figure" data-testid={testId}>
        {figure}
      </p>
      {children}
    </article>
  );
}

export function DeskCards() {
  const { data, error } = useQuery(getDeskSummary, []);
  return (
    <div className="link-cards" data-testid="desk-cards">
      <DeskCard to="/admin/applications" title="Applications" testId="new-applications" figure={data ? plural(data.new_since_last_visit, 'new application', 'new applications') : '…'}>
        {data && <p className="muted-small">{data.last_seen_at ? `Since your last visit, ${formatDateTime(data.last_seen_at)}` : 'You have not opened the list yet'}</p>}
        <p className="muted">{data ? `${data.awaiting_review} awaiting review` : 'Review, shortlist and track every application.'}</p>
      </DeskCard>
      <DeskCard to="/admin/enquiries" title="Enquiries" testId="unhandled-enquiries" figure={data ? plural(data.unhandled_enquiries, 'unhandled enquiry', 'unhandled enquiries') : '…'}>
        <p className="muted">From the contact and client pages.</p>
      </DeskCard>
      {error && <p role="alert" className="field__error">{error}</p>}
    </div>
  );
}
