// /career-hub/templates, 'The CV Shed' (spec §2): a link to the builder, the free Essential Tools (Professional,
// Executive, Minimalist) with real previews and 'Use this template', and the locked Premium Toolkit.
import { Link } from 'react-router';
import { CvPreview } from '@/components/cv/cv-preview';
import { FREE_TEMPLATES, PREMIUM_TEMPLATES } from '@/lib/cv/templates';
import { Seo } from '@/lib/seo';
import { SAMPLE_CV } from './sample-cv';
import { injectStyle } from '@/lib/inject-style';
import templatesCss from './cv-templates.css?inline';

injectStyle('cv-templates', templatesCss);

export default function CvTemplatesPage() {
  return (
    <>
      <Seo title="The CV Shed: CV Templates" description="Free, recruiter-friendly CV templates for property professionals." path="/career-hub/templates" noindex />
      <section className="page-hero on-dark">
        <div className="container">
          <p className="eyebrow">Career Hub</p>
          <h1>The CV Shed</h1>
          <p>Recruiter-friendly templates that applicant-tracking systems read cleanly: one column, standard headings, real text.</p>
          <Link to="/career-hub/cv-builder" className="btn btn--accent" style={{ marginTop: 'var(--sp-4)' }}>
            Open the CV Builder
          </Link>
        </div>
      </section>
      <section className="section" aria-labelledby="essential-tools">
        <div className="container">
          <div className="section-head">
            <p className="eyebrow">Free</p>
            <h2 id="essential-tools">Essential Tools</h2>
          </div>
          <div className="grid grid--3">
            {FREE_TEMPLATES.map((t) => (
              <article key={t.id} className="card template-card" aria-labelledby={`tpl-${t.id}`}>
                <CvPreview draft={{ ...SAMPLE_CV, template: t.id }} label={`${t.name} template preview`} />
                <h3 id={`tpl-${t.id}`} className="card__title">
                  {t.name} {t.popular && <span className="badge badge--accent">Popular</span>}
                </h3>
                <p className="muted">{t.description}</p>
                <Link to={`/career-hub/cv-builder?template=${t.id}`} className="btn btn--primary btn--block" aria-label={`Use the ${t.name} template`}>
                  Use this template
                </Link>
              </article>
            ))}
          </div>
        </div>
      </section>
      <section className="section section--white" aria-labelledby="premium-toolkit">
        <div className="container">
          <div className="section-head">
            <p className="eyebrow">Premium</p>
            <h2 id="premium-toolkit">Premium Toolkit</h2>
            <p className="lead">15+ templates, LinkedIn optimisation and AI suggestions.</p>
          </div>
          <div className="grid grid--3">
            {PREMIUM_TEMPLATES.map((t) => (
              <article key={t.id} className="card template-card template-card--locked">
                <h3 className="card__title">
                  <span aria-hidden="true">🔒 </span>
                  {t.name}
                </h3>
                <p className="muted">{t.description}</p>
                <button type="button" className="btn btn--outline btn--block" disabled>
                  Premium Coming Soon
                </button>
              </article>
            ))}
          </div>
        </div>
      </section>
    </>
  );
}
