// /profile/{slug}: the anonymised profile a client opens from a shared link (spec §2): candidate ID badge, headline
// (job title, else 'Professional Profile {candidate_id}'), reference, 'Available for opportunities', Print Profile
// (the print stylesheet prints the profile alone), details with whitespace kept, 'Interested in this candidate?',
// the phone sticky bar after 400 px, Other Profiles (5), a back link. noindex, nofollow. One view per page load.
import { useEffect, useState } from 'react';
import { Link, useParams } from 'react-router';
import { getOtherProfiles, getProfileBySlug, type OtherProfile, type PublicProfile } from './api/public-profile';
import { ProfileMessage } from './components/profile-message';
import { ProfileView } from './components/profile-view';
import { useRecordView } from './use-record-view';

type State = { kind: 'loading' } | { kind: 'missing' } | { kind: 'ready'; profile: PublicProfile };

function OtherProfiles({ profileId }: { profileId: string }) {
  const [others, setOthers] = useState<OtherProfile[]>([]);
  useEffect(() => {
    let live = true;
    getOtherProfiles(profileId)
      .then((rows) => live && setOthers(rows))
      .catch(() => live && setOthers([]));
    return () => {
      live = false;
    };
  }, [profileId]);
  if (others.length === 0) return null;
  return (
    <nav className="card profile-aside__card" aria-labelledby="other-profiles-title" data-testid="other-profiles">
      <h2 id="other-profiles-title">Other Profiles</h2>
      <ul className="profile-others">
        {others.map((o) => (
          <li key={o.id}>
            <Link to={`/profile/${o.slug}`}>
              <span className="badge">{o.candidate_id}</span>
              <span>{o.job_title}</span>
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}

export default function ProfilePage() {
  const { slug = '' } = useParams();
  const [state, setState] = useState<State>({ kind: 'loading' });
  useEffect(() => {
    let live = true;
    setState({ kind: 'loading' });
    getProfileBySlug(slug)
      .then((profile) => live && setState(profile ? { kind: 'ready', profile } : { kind: 'missing' }))
      .catch(() => live && setState({ kind: 'missing' }));
    return () => {
      live = false;
    };
  }, [slug]);
  useRecordView(state.kind === 'ready' ? state.profile.id : null);

  if (state.kind === 'ready')
    return <ProfileView profile={state.profile} path={`/profile/${state.profile.slug}`} aside={<OtherProfiles profileId={state.profile.id} />} />;
  return state.kind === 'loading' ? (
    <ProfileMessage seoTitle="Candidate profile" path={`/profile/${slug}`} loading />
  ) : (
    <ProfileMessage seoTitle="Profile Not Found" path={`/profile/${slug}`} title="Profile Not Found" text="This profile link is invalid or has been deactivated." />
  );
}
