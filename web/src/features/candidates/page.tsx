// /candidates (spec §2): 'Support That Grows With You', the vacancies section, three stage cards linking to the
// matching /career-support sections, a Career Workspace block and a closing call to action.
import { Link } from 'react-router';
import { ButtonLink } from '@/components/ui/button';
import { site } from '@/content/site';
import { VacanciesSection } from '@/components/vacancies/vacancies-section';
import { Seo } from '@/lib/seo';
import './candidates.css';

const STAGES = [
  {
    id: 'entry-level',
    title: 'Entry-Level Support',
    text: 'Graduates and early-career professionals: finding the right first role, building your CV and preparing for assessment days.',
    to: '/career-support#early-career',
    cta: 'Early career support',
  },
  {
    id: 'mid-career',
    title: 'Mid-Career Support',
    text: 'Chartered and experienced professionals: stepping up, changing sector or specialism, and negotiating your package.',
    to: '/career-support#mid-career',
    cta: 'Mid-career support',
  },
  {
    id: 'senior',
    title: 'Senior Career Support',
    text: 'Senior and executive leaders: confidential moves, board appointments and planning the next chapter of your career.',
    to: '/career-support#senior-executive',
    cta: 'Senior and executive support',
  },
];

export default function CandidatesPage() {
  return (
    <>
      <Seo
        title="Candidates"
        description="Career support for property professionals at every stage: the latest vacancies, career advice, and a free CV builder in the Career Hub."
        path="/candidates"
      />
      <section className="page-hero on-dark">
        <div className="container">
          <p className="eyebrow">Getting Hired</p>
          <h1>Support That Grows With You</h1>
          <p>From your first role in property to your first board seat, we offer advice, opportunities and tools for every stage of your career.</p>
          <div className="btn-row candidates-hero__actions">
            <ButtonLink to="/#vacancies" variant="accent" size="lg">
              See the latest vacancies
            </ButtonLink>
            <a className="btn btn--outline-light btn--lg" href={`mailto:${site.email}?subject=CV`}>
              Send Your CV
            </a>
          </div>
        </div>
      </section>
      <VacanciesSection />
      <section className="section" aria-labelledby="career-stages">
        <div className="container">
          <div className="section-head">
            <p className="eyebrow">Career stages</p>
            <h2 id="career-stages">Advice for where you are now</h2>
          </div>
          <div className="grid grid--3">
            {STAGES.map((s) => (
              <article key={s.id} className="card card--interactive candidates-stage" data-testid={`stage-${s.id}`}>
                <h3 className="card__title">{s.title}</h3>
                <p className="muted">{s.text}</p>
                <div className="card__footer">
                  <Link to={s.to} className="candidates-stage__link">
                    {s.cta} <span aria-hidden="true">→</span>
                  </Link>
                </div>
              </article>
            ))}
          </div>
        </div>
      </section>
      <section className="section section--white" aria-labelledby="career-workspace">
        <div className="container candidates-workspace">
          <div>
            <p className="eyebrow">Career Workspace</p>
            <h2 id="career-workspace">Your Career Workspace</h2>
            <p className="lead">
              Build a professional CV step by step, choose a template that suits your sector and keep your drafts in one place in the Career Hub. It is free, and you never need it to apply for a role with us.
            </p>
          </div>
          <ButtonLink to="/career-hub" size="lg">
            Open the Career Hub
          </ButtonLink>
        </div>
      </section>
      <section className="section section--navy" aria-labelledby="candidates-cta">
        <div className="container section-head section-head--center">
          <h2 id="candidates-cta">Ready for your next move?</h2>
          <p className="lead">Send us your CV or book a confidential conversation with a consultant who knows your market.</p>
          <div className="btn-row candidates-cta__actions">
            <a className="btn btn--accent btn--lg" href={`mailto:${site.email}?subject=CV`}>
              Send Your CV
            </a>
            <ButtonLink to="/contact?kind=candidate#enquiry" variant="outline-light" size="lg">
              Talk to a consultant
            </ButtonLink>
          </div>
        </div>
      </section>
    </>
  );
}
