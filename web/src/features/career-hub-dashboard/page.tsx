// /career-hub/dashboard (spec §2): requires login (noindex). Welcome with the full name (or 'there') and the
// membership, Sign Out to /career-hub, cards to the builder and templates, the Upgrade to Premium card, and the real
// lists: My CVs, Saved Jobs, Job alerts, My Applications, plus Your data (download, delete account).
import { Link, useNavigate } from 'react-router';
import { CandidatePage } from '@/lib/candidate-page';
import { useCandidateAuth } from '@/lib/candidate-auth';
import { Seo } from '@/lib/seo';
import { MyApplications } from './components/my-applications';
import { MyCvs } from './components/my-cvs';
import { MyJobAlerts } from './components/my-job-alerts';
import { SavedJobs } from './components/saved-jobs';
import { YourData } from './components/your-data';
import { injectStyle } from '@/lib/inject-style';
import dashboardCss from './dashboard.css?inline';

injectStyle('career-hub-dashboard', dashboardCss);

const PREMIUM_FEATURES = ['LinkedIn optimisation', 'AI suggestions', 'Unlimited CVs'];

function Dashboard() {
  const { fullName, isPremium, signOut } = useCandidateAuth();
  const navigate = useNavigate();
  const onSignOut = async () => {
    await signOut();
    navigate('/career-hub', { replace: true });
  };
  return (
    <>
      <section className="page-hero on-dark dash-hero">
        <div className="container dash-hero__inner">
          <div>
            <p className="eyebrow">Career Hub</p>
            <h1>Welcome back, {fullName ?? 'there'}!</h1>
            <p>
              <span className="badge badge--accent">{isPremium ? 'Premium Member' : 'Free Account'}</span>
            </p>
          </div>
          <button type="button" className="btn btn--outline-light" onClick={() => void onSignOut()}>
            Sign Out
          </button>
        </div>
      </section>
      <div className="container section dash">
        <div className="grid grid--2 dash-tools">
          <Link to="/career-hub/cv-builder" className="card card--interactive dash-tool">
            <h2 className="card__title">CV Builder</h2>
            <p className="muted">Create a professional CV in five guided steps, saved as you type.</p>
          </Link>
          <Link to="/career-hub/templates" className="card card--interactive dash-tool">
            <h2 className="card__title">CV Templates</h2>
            <p className="muted">Browse The CV Shed and start from a recruiter-friendly design.</p>
          </Link>
        </div>
        <div className="dash-columns">
          <div className="dash-main">
            <MyCvs />
            <SavedJobs />
            <MyJobAlerts />
            <MyApplications />
          </div>
          <aside className="dash-side" aria-label="Membership and your data">
            {!isPremium && (
              <section className="card card--navy dash-card" aria-labelledby="premium-heading">
                <h2 id="premium-heading">Upgrade to Premium</h2>
                <ul className="dash-premium">
                  {PREMIUM_FEATURES.map((f) => (
                    <li key={f}>{f}</li>
                  ))}
                </ul>
                <button type="button" className="btn btn--accent btn--block" disabled>
                  Coming Soon
                </button>
              </section>
            )}
            <YourData />
          </aside>
        </div>
      </div>
    </>
  );
}

export default function CareerHubDashboardPage() {
  return (
    <>
      <Seo title="My Dashboard" description="Your Career Hub: CVs, saved jobs and applications." path="/career-hub/dashboard" noindex />
      <CandidatePage requireLogin>
        <Dashboard />
      </CandidatePage>
    </>
  );
}
