// What a profile link shows instead of the profile: 'Loading profile...', or a clear message (an unknown or
// deactivated profile, a client link that expired or was revoked) with a way back. Carries data-not-found.
import { ButtonLink } from '@/components/ui/button';
import { Seo } from '@/lib/seo';
import { injectStyle } from '@/lib/inject-style';
import profileCss from '../profile.css?inline';

injectStyle('profile', profileCss);

type Props = { seoTitle: string; path: string; loading?: boolean; title?: string; text?: string; testId?: string };

export function ProfileMessage({ seoTitle, path, loading = false, title, text, testId = 'profile-not-found' }: Props) {
  return (
    <>
      <Seo title={seoTitle} description="A candidate profile shared by our consultants." path={path} noindex nofollow />
      <section className="page-hero profile-hero">
        <div className="container">
          {loading ? (
            <p aria-busy="true">Loading profile...</p>
          ) : (
            <div data-testid={testId} data-not-found>
              <h1>{title}</h1>
              <p>{text}</p>
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
