// The shared profile itself (spec §2 /profile/{slug}), for the public slug and a client's own link alike: candidate
// ID badge, headline (job title, else 'Professional Profile {candidate_id}'), reference, 'Available for
// opportunities', Print Profile, details with whitespace kept, 'Interested in this candidate?', the phone sticky bar
// after 400 px, and what the page adds beside it (`aside`) or under the reference (`note`). noindex, nofollow.
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { ArrowLeftIcon, CheckIcon } from '@/components/ui/icons';
import { ButtonLink, Button } from '@/components/ui/button';
import { useScroll } from '@/components/layout/use-scroll';
import { Seo } from '@/lib/seo';
import { injectStyle } from '@/lib/inject-style';
import profileCss from '../profile.css?inline';

injectStyle('profile', profileCss);

export const STICKY_BAR_AFTER = 400;

/** The public fields of a profile. */
export type ProfileFields = { candidate_id: string; job_title: string | null; candidate_reference: string | null; details: string | null };

type Props = { profile: ProfileFields; path: string; aside?: ReactNode; note?: ReactNode };

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

export function ProfileView({ profile, path, aside, note }: Props) {
  const headline = profile.job_title || `Professional Profile ${profile.candidate_id}`;
  return (
    <>
      <Seo title={headline} description="A candidate profile shared by our consultants." path={path} noindex nofollow />
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
          {note}
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
          {aside}
        </aside>
      </div>
      <StickyBar />
    </>
  );
}

