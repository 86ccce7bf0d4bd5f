// "Views per client": which client looked at which profile through their own link, how often and when last, with
// the link's state; viewed links first. Paged on the server; reloaded with the rest of the page.
import { useState } from 'react';
import { formatDateTime } from '@/lib/admin/format';
import { Pager } from '@/components/admin/pager';
import { useQuery } from '@/lib/use-query';
import { LINK_STATE_LABELS } from '@/lib/admin/client-link';
import { CLIENT_PAGE_SIZE, getClientViews } from '../api/client-views';
import { injectStyle } from '@/lib/inject-style';
import deskCss from '@/components/admin/desk.css?inline';

injectStyle('desk', deskCss);

export function ClientViews({ version }: { version: unknown }) {
  const [offset, setOffset] = useState(0);
  const query = useQuery(() => getClientViews(offset), [offset, version]);
  const data = query.data;
  return (
    <section className="admin-panel" aria-labelledby="client-views-title" data-testid="client-views">
      <div className="admin-panel__head">
        <h2 id="client-views-title">Views per client</h2>
        {data && (
          <p className="muted-small">
            {data.viewed_links} of {data.total_links} client {data.total_links === 1 ? 'link' : 'links'} viewed
          </p>
        )}
      </div>
      {query.error && <p role="alert" className="field__error">{query.error}</p>}
      {!data ? (
        <p className="muted">Loading...</p>
      ) : data.links.length === 0 ? (
        <p className="empty-state">No profile has been shared with a named client yet. Use “Share with a client” on Candidate Profiles.</p>
      ) : (
        <div className="table-scroll" role="region" aria-label="Table of views per client" tabIndex={0}>
          <table className="admin-table admin-table--stack" data-testid="client-views-table">
            <thead>
              <tr>
                <th scope="col">Client</th>
                <th scope="col">Profile</th>
                <th scope="col" className="num">Views</th>
                <th scope="col">Last Viewed</th>
                <th scope="col">Link</th>
              </tr>
            </thead>
            <tbody>
              {data.links.map((l) => (
                <tr key={l.id} className={l.views === 0 ? 'is-dimmed' : undefined} data-testid="client-views-row" data-client={l.client_company}>
                  <td data-label="Client">
                    <div>
                      <strong>{l.client_company}</strong>
                      <div className="muted-small">{l.client_name}</div>
                    </div>
                  </td>
                  <td data-label="Profile">
                    <div>
                      {l.profile_name}
                      <div className="muted-small">{l.candidate_id}</div>
                    </div>
                  </td>
                  <td data-label="Views" className="num" data-testid="client-views-count">
                    {l.views}
                  </td>
                  <td data-label="Last Viewed" className="nowrap">
                    {l.last_viewed ? formatDateTime(l.last_viewed) : '—'}
                  </td>
                  <td data-label="Link">
                    <span className={`badge link-state link-state--${l.state}`}>{LINK_STATE_LABELS[l.state]}</span>
                    <div className="muted-small">{l.state === 'revoked' ? `revoked ${formatDateTime(l.revoked_at)}` : `until ${formatDateTime(l.expires_at)}`}</div>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {data && <Pager total={data.total_links} offset={data.page_offset} pageSize={CLIENT_PAGE_SIZE} onOffset={setOffset} label="Pages of client views" />}
    </section>
  );
}
