// /career-hub landing (spec §2): three feature cards and 'Get Started Free' → /career-hub/login.
import { Link } from 'react-router';
import { ButtonLink } from '@/components/ui/button';
import { Seo } from '@/lib/seo';

const FEATURES = [
  { title: 'CV Builder Wizard', text: 'Five simple steps, from personal details to skills, with tips at every stage to help you write a CV that gets read.' },
  { title: 'Professional Templates', text: 'Clean, recruiter-friendly templates designed for property and built-environment roles.' },
  { title: 'Expert Guidance', text: 'Advice from consultants who read property CVs every day: what to include, what to leave out and how to stand out.' },
];

export default function CareerHubPage() {
  return (
    <>
      <Seo
        title="Career Hub: Free CV Builder"
        description="Build a professional property CV for free with our five-step CV builder, recruiter-friendly templates and expert guidance."
        path="/career-hub"
      />
      <section className="page-hero on-dark">
        <div className="container">
          <p className="eyebrow">Career Hub</p>
          <h1>Build a CV that opens doors in property</h1>
          <p>Free tools and guidance for property professionals. Using the Career Hub is optional and never a condition of applying for a role with us.</p>
          <div className="btn-row" style={{ marginTop: 'var(--sp-5)' }}>
            <ButtonLink to="/career-hub/login" variant="accent" size="lg">
              Get Started Free
            </ButtonLink>
            <ButtonLink to="/career-hub/templates" variant="outline-light" size="lg">
              Browse templates
            </ButtonLink>
          </div>
        </div>
      </section>
      <section className="section" aria-labelledby="career-hub-features">
        <div className="container">
          <div className="section-head">
            <p className="eyebrow">What's inside</p>
            <h2 id="career-hub-features">Everything you need to present your experience well</h2>
          </div>
          <div className="grid grid--3">
            {FEATURES.map((f) => (
              <article key={f.title} className="card">
                <h3 className="card__title">{f.title}</h3>
                <p className="muted">{f.text}</p>
              </article>
            ))}
          </div>
          <p style={{ marginTop: 'var(--sp-6)' }}>
            Already have an account? <Link to="/career-hub/login">Log in to your dashboard</Link>.
          </p>
        </div>
      </section>
    </>
  );
}
