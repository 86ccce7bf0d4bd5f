// /profile/{slug}: the anonymised profile a client opens from a shared link (spec §2): candidate ID badge, headline
// (job title, else 'Professional Profile {candidate_id}'), reference, 'Available for opportunities', Print Profile
// (the print stylesheet prints the profile alone), details with whitespace kept, 'Interested in this candidate?',
// the phone sticky bar after 400 px, Other Profiles (5), a back link. noindex, nofollow. One view per page load.
import { useEffect, useState } from 'react';
import { Link, useParams } from 'react-router';
import { ArrowLeftIcon, CheckIcon } from '@/components/ui/icons';
import { ButtonLink, Button } from '@/components/ui/button';
import { useScroll } from '@/components/layout/use-scroll';
import { Seo } from '@/lib/seo';
import { getOtherProfiles, getProfileBySlug, type OtherProfile, type PublicProfile } from './api/public-profile';
import { useRecordView } from './use-record-view';
import { injectStyle } from '@/lib/inject-style';
import profileCss from './profile.css?inline';

injectStyle('profile', profileCss);

export const STICKY_BAR_AFTER = 400;

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

function StickyBar() {
  const { y } = useScroll();
  const visible = y > STICKY_BAR_AFTER;
  return (
    <div className={`profile-sticky${visible ? ' profile-sticky--visible' : ''}`} hidden={!visible} data-testid="profile-sticky">
      <ButtonLink to="/contact" variant="accent" block>
        Get in Touch About This Candidate
      </ButtonLink>
    </div>
  );
}

function ProfileView({ profile }: { profile: PublicProfile }) {
  const headline = profile.job_title || `Professional Profile ${profile.candidate_id}`;
  return (
    <>
      <Seo title={headline} description="A candidate profile shared by our consultants." path={`/profile/${profile.slug}`} noindex nofollow />
      <section className="page-hero profile-hero">
        <div className="container">
          <Link to="/candidates" className="profile-back">
            <ArrowLeftIcon size={16} /> Back to Candidates
          </Link>
        </div>
      </section>
      <div className="container profile-layout">
        <article className="card profile-sheet" data-print-root data-testid="profile-sheet">
          <span className="badge badge--accent" data-testid="profile-badge">
            {profile.candidate_id}
          </span>
          <h1>{headline}</h1>
          {profile.candidate_reference && <p className="profile-reference">Reference: {profile.candidate_reference}</p>}
          <p className="profile-available">
            <CheckIcon size={18} /> Available for opportunities
          </p>
          <div className="profile-actions">
            <Button variant="outline" size="sm" onClick={() => window.print()}>
              Print Profile
            </Button>
          </div>
          <h2>Profile Details</h2>
          <div className="profile-details" data-testid="profile-details">
            {profile.details || 'Details are available on request.'}
          </div>
        </article>
        <aside className="profile-aside">
          <div className="card card--navy profile-aside__card profile-contact">
            <h2>Interested in this candidate?</h2>
            <p>Tell us about your role and we will arrange an introduction, with the candidate&apos;s consent.</p>
            <ButtonLink to="/contact" variant="accent" block>
              Get in Touch
            </ButtonLink>
          </div>
          <OtherProfiles profileId={profile.id} />
        </aside>
      </div>
      <StickyBar />
    </>
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

  if (state.kind === 'ready') return <ProfileView profile={state.profile} />;
  return (
    <>
      <Seo title={state.kind === 'loading' ? 'Candidate profile' : 'Profile Not Found'} description="A candidate profile shared by our consultants." path={`/profile/${slug}`} noindex nofollow />
      <section className="page-hero profile-hero">
        <div className="container">
          {state.kind === 'loading' ? (
            <p aria-busy="true">Loading profile...</p>
          ) : (
            <div data-testid="profile-not-found">
              <h1>Profile Not Found</h1>
              <p>This profile link is invalid or has been deactivated.</p>
              <ButtonLink to="/candidates" variant="outline-light">
                Back to Candidates
              </ButtonLink>
            </div>
          )}
        </div>
      </section>
      <div className="container section" />
    </>
  );
}
