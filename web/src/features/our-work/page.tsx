// /our-work: the firm's placements and search assignments grouped by the four sectors, with calls to action to
// /contact and the vacancies. All of the content is in src/content/our-work.ts and src/content/sectors.ts.
import { Link } from 'react-router';
import { ButtonLink } from '@/components/ui/button';
import { assignments, ourWorkIntro } from '@/content/our-work';
import { sectors } from '@/content/sectors';
import { site } from '@/content/site';
import { Seo } from '@/lib/seo';
import { AssignmentCard } from './components/assignment-card';
import './our-work.css';

/** The page's two calls to action: a client enquiry and the current vacancies. */
function Actions({ className }: { className: string }) {
  return (
    <div className={`btn-row ${className}`}>
      <ButtonLink to="/contact?kind=client#enquiry" variant="accent" size="lg">
        Start a Conversation
      </ButtonLink>
      <ButtonLink to="/#vacancies" variant="outline-light" size="lg">
        View Current Opportunities
      </ButtonLink>
    </div>
  );
}

function SectorSection({ sector, shaded }: { sector: (typeof sectors)[number]; shaded: boolean }) {
  const work = assignments.filter((a) => a.sector === sector.id);
  if (work.length === 0) return null;
  return (
    <section id={sector.id} className={`section work-sector${shaded ? ' section--white' : ''}`} aria-labelledby={`${sector.id}-title`}>
      <div className="container">
        <div className="section-head">
          <p className="eyebrow">Sector</p>
          <h2 id={`${sector.id}-title`}>{sector.title}</h2>
          <p className="lead">{sector.text}</p>
        </div>
        <div className="work-grid">
          {work.map((a) => (
            <AssignmentCard key={a.id} assignment={a} />
          ))}
        </div>
        <p className="work-sector__more">
          <Link to={sector.to}>
            How we recruit in {sector.title} <span aria-hidden="true">→</span>
          </Link>
        </p>
      </div>
    </section>
  );
}

export default function OurWorkPage() {
  const shown = sectors.filter((s) => assignments.some((a) => a.sector === s.id));
  return (
    <>
      <Seo
        title="Our Work"
        description={`Placements and executive-search assignments by ${site.name} across development and investment, in-house property, real estate services and facilities management.`}
        path="/our-work"
        jsonLd={{
          '@context': 'https://schema.org',
          '@type': 'CollectionPage',
          name: `Our Work | ${site.name}`,
          url: `${site.url}/our-work`,
          about: { '@type': 'Organization', name: site.name, url: site.url },
        }}
      />
      <section className="page-hero on-dark">
        <div className="container">
          <p className="eyebrow">Our Work</p>
          <h1>{ourWorkIntro.title}</h1>
          <p>{ourWorkIntro.text}</p>
          <Actions className="work-hero__actions" />
        </div>
      </section>
      <nav className="work-nav" aria-label="Sectors on this page">
        <ul className="container work-nav__list">
          {shown.map((s) => (
            <li key={s.id}>
              <a href={`#${s.id}`}>{s.title}</a>
            </li>
          ))}
        </ul>
      </nav>
      {shown.map((s, i) => (
        <SectorSection key={s.id} sector={s} shaded={i % 2 === 1} />
      ))}
      <section className="section section--navy" aria-labelledby="work-cta">
        <div className="container section-head section-head--center">
          <h2 id="work-cta">Have a role like these to fill?</h2>
          <p className="lead">Tell us about the hire, in confidence. If you are looking for your next move, our current vacancies are a good place to start.</p>
          <Actions className="work-cta__actions" />
        </div>
      </section>
    </>
  );
}
