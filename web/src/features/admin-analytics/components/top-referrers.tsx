// The top referrers (origins only; none = direct visits, apps and mail clients that send no referrer).
import type { ReferrerCount } from '../api/profile-analytics';

export function referrerLabel(referrer: string | null): string {
  if (!referrer) return 'Direct or unknown';
  try {
    return new URL(referrer).host;
  } catch {
    return referrer;
  }
}

export function TopReferrers({ referrers }: { referrers: ReferrerCount[] }) {
  return (
    <div className="top-referrers" data-testid="top-referrers">
      <h3>Top referrers</h3>
      {referrers.length === 0 ? (
        <p className="muted">No views yet.</p>
      ) : (
        <ol className="plain-list">
          {referrers.map((r) => (
            <li key={r.referrer ?? ''} className="top-referrers__row">
              <span>{referrerLabel(r.referrer)}</span>
              <strong>{r.views}</strong>
            </li>
          ))}
        </ol>
      )}
    </div>
  );
}
