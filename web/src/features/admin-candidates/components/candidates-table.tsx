// The candidate profiles table (spec §2): Name, Candidate ID, Job Title, Candidate Reference, Status, Views (counted:
// no admin views, no bots), and the row actions Edit Profile, Copy Share Link, View Profile (new tab),
// Deactivate/Activate and Delete; and Share with a client (consent, then a link per client), with the clients whose
// links were viewed under the Views.
import { EyeIcon, LinkIcon, PencilIcon, PowerIcon, ShareIcon, TrashIcon } from '@/components/admin/row-icons';
import type { CandidateProfile } from '../api/candidate-profiles';
import type { ProfileClient } from '../api/sharing';

type Props = {
  profiles: CandidateProfile[];
  busy: boolean;
  onEdit: (p: CandidateProfile) => void;
  onCopy: (p: CandidateProfile) => void;
  onToggle: (p: CandidateProfile) => void;
  onDelete: (p: CandidateProfile) => void;
  onShare: (p: CandidateProfile) => void;
  clients: Map<string, ProfileClient[]>;
};

function ClientViews({ clients }: { clients: ProfileClient[] | undefined }) {
  if (!clients?.length) return null;
  return (
    <ul className="client-views" aria-label="Clients who viewed" data-testid="profile-clients">
      {clients.map((c) => (
        <li key={c.link_id}>
          {c.client_company} ({c.views})
        </li>
      ))}
    </ul>
  );
}

export function CandidatesTable({ profiles, busy, onEdit, onCopy, onToggle, onDelete, onShare, clients }: Props) {
  if (profiles.length === 0) return <p className="empty-state">No candidates found</p>;
  return (
    <div className="table-scroll" role="region" aria-label="Candidate profiles" tabIndex={0}>
      <table className="admin-table admin-table--stack" data-testid="candidates-table">
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Candidate ID</th>
            <th scope="col">Job Title</th>
            <th scope="col">Candidate Reference</th>
            <th scope="col">Status</th>
            <th scope="col" className="num">Views</th>
            <th scope="col">Actions</th>
          </tr>
        </thead>
        <tbody>
          {profiles.map((p) => (
            <tr key={p.id} data-testid="candidate-row" data-candidate-id={p.candidate_id}>
              <td data-label="Name">
                <div>
                  <strong>{p.name}</strong>
                  {(p.email || p.location) && <div className="muted-small">{[p.email, p.location].filter(Boolean).join(' · ')}</div>}
                </div>
              </td>
              <td data-label="Candidate ID" className="nowrap">{p.candidate_id}</td>
              <td data-label="Job Title">{p.job_title ?? '—'}</td>
              <td data-label="Candidate Reference">{p.candidate_reference ?? '—'}</td>
              <td data-label="Status">
                <span className={`badge status-badge--${p.status}`} data-testid="candidate-status">
                  {p.status === 'active' ? 'Active' : 'Inactive'}
                </span>
              </td>
              <td data-label="Views" className="num">
                <div>
                  <span data-testid="candidate-views">{p.views}</span>
                  <ClientViews clients={clients.get(p.id)} />
                </div>
              </td>
              <td data-label="Actions">
                <div className="row-actions">
                  <button type="button" className="icon-btn" title="Edit Profile" aria-label={`Edit Profile ${p.candidate_id}`} onClick={() => onEdit(p)} disabled={busy}>
                    <PencilIcon />
                  </button>
                  <button type="button" className="icon-btn" title="Copy Share Link" aria-label={`Copy Share Link ${p.candidate_id}`} onClick={() => onCopy(p)}>
                    <LinkIcon />
                  </button>
                  <button type="button" className="icon-btn" title="Share with a client" aria-label={`Share ${p.candidate_id} with a client`} onClick={() => onShare(p)}>
                    <ShareIcon />
                  </button>
                  {p.status === 'active' ? (
                    <a className="icon-btn" title="View Profile" aria-label={`View Profile ${p.candidate_id} (opens in a new tab)`} href={`/profile/${p.slug}`} target="_blank" rel="noopener">
                      <EyeIcon />
                    </a>
                  ) : (
                    // An inactive profile's link shows 'Profile Not Found': nothing to view until it is activated.
                    <button type="button" className="icon-btn" title="Activate the profile to view it" aria-label={`View Profile ${p.candidate_id} (inactive: activate it to view)`} disabled>
                      <EyeIcon />
                    </button>
                  )}
                  <button
                    type="button"
                    className="icon-btn"
                    title={p.status === 'active' ? 'Deactivate' : 'Activate'}
                    aria-label={`${p.status === 'active' ? 'Deactivate' : 'Activate'} ${p.candidate_id}`}
                    onClick={() => onToggle(p)}
                    disabled={busy}
                  >
                    <PowerIcon />
                  </button>
                  <button type="button" className="icon-btn icon-btn--danger" title="Delete" aria-label={`Delete ${p.candidate_id}`} onClick={() => onDelete(p)} disabled={busy}>
                    <TrashIcon />
                  </button>
                </div>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
