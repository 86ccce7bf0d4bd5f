// /profile/client#<token>: the profile as one named client's own link shows it (the token is in the fragment, so it
// never reaches a server log or a referrer). While the link is active: the profile (as /profile/{slug} shows it,
// without other profiles) and until when the link works; one view recorded per page load once visible, attributed
// to the link. An expired or revoked link, or a deactivated profile, gets a clear page without the profile, and no
// view is recorded.
import { useEffect, useState } from 'react';
import { useLocation } from 'react-router';
import { getClientProfile, recordClientLinkView, tokenFromHash, type ClientProfile } from './api/client-link';
import { formatLinkExpiry } from './link-expiry';
import { ProfileMessage } from './components/profile-message';
import { ProfileView } from './components/profile-view';
import { useRecordOnce } from './use-record-view';

const PATH = '/profile/client';

const DEAD: Record<Exclude<ClientProfile['status'], 'active'>, { title: string; text: string }> = {
  expired: { title: 'This Link Has Expired', text: 'The link to this candidate profile has expired. Please ask your consultant for a new one.' },
  revoked: { title: 'This Link Has Been Withdrawn', text: 'The link to this candidate profile is no longer available. Please contact your consultant.' },
  unavailable: { title: 'Profile Not Available', text: 'This candidate profile is no longer available. Please contact your consultant.' },
  unknown: { title: 'Profile Not Found', text: 'This profile link is invalid or has been deactivated.' },
};

type State = { kind: 'loading' } | { kind: 'done'; result: ClientProfile };

export default function ClientLinkPage() {
  const { hash } = useLocation();
  const token = tokenFromHash(hash);
  const [state, setState] = useState<State>({ kind: 'loading' });
  useEffect(() => {
    let live = true;
    setState({ kind: 'loading' });
    (token ? getClientProfile(token) : Promise.resolve<ClientProfile>({ status: 'unknown' }))
      .then((result) => live && setState({ kind: 'done', result }))
      .catch(() => live && setState({ kind: 'done', result: { status: 'unknown' } }));
    return () => {
      live = false;
    };
  }, [token]);
  const active = state.kind === 'done' && state.result.status === 'active';
  useRecordOnce(active ? `client:${token}` : null, () => recordClientLinkView(token));

  if (state.kind === 'loading') return <ProfileMessage seoTitle="Candidate profile" path={PATH} loading />;
  const result = state.result;
  if (result.status === 'active') {
    return (
      <ProfileView
        profile={result.profile}
        path={PATH}
        note={
          <p className="profile-reference" data-testid="client-link-expiry">
            Shared with you personally. This link works until {formatLinkExpiry(result.expires_at)}.
          </p>
        }
      />
    );
  }
  const dead = DEAD[result.status] ?? DEAD.unknown;
  return <ProfileMessage seoTitle={dead.title} path={PATH} title={dead.title} text={dead.text} testId={`client-link-${result.status}`} />;
}
