// /services (spec §2): five service cards on the left, one active at a time (by index, default the first, or the one
// named by the URL hash), the active one's description, features and call to action on the right; a testimonial,
// three sector cards and a closing "Contact Our Team".
import { useEffect, useState } from 'react';
import { Link, useLocation } from 'react-router';
import { ButtonLink } from '@/components/ui/button';
import { ClientQuote } from '@/components/ui/client-quote';
import { site, testimonials } from '@/content/site';
import { Seo } from '@/lib/seo';
import { ctaLabel, services } from './services-data';
import { useHashScroll } from '../../lib/use-hash-scroll';
import './services.css';

const SECTORS = [
  { title: 'Development Cycles & Investment Initiatives', image: '/images/sectors/development-investment.svg', text: 'Land, development, investment and asset management teams, from acquisition through delivery to exit.' },
  { title: 'Real Estate Services', image: '/images/sectors/real-estate-services.svg', text: 'Consultancies, agencies and property managers: surveying, valuation, leasing, project and building management.' },
  { title: 'In-House / Head Office', image: '/images/sectors/in-house-head-office.svg', text: 'Corporate estates, workplace and facilities teams managing property for organisations in every sector.' },
];

export default function ServicesPage() {
  const { hash } = useLocation();
  const [active, setActive] = useState(0);
  useHashScroll();
  useEffect(() => {
    const i = services.findIndex((s) => `#${s.id}` === hash);
    if (i >= 0) setActive(i);
  }, [hash]);
  const service = services[active];
  const quote = testimonials[0];
  return (
    <>
      <Seo
        title="Our Services"
        description="Executive search, advertised campaigns, embedded hiring partners, success-based recruitment and talent advisory for property and the built environment."
        path="/services"
      />
      <section className="page-hero on-dark">
        <div className="container">
          <p className="eyebrow">Hire With Us</p>
          <h1>Recruitment services built around your hiring plans</h1>
          <p>Five ways to work with us, from a single confidential appointment to a long-term hiring partnership.</p>
        </div>
      </section>
      <section className="section" aria-labelledby="services-heading">
        <div className="container">
          <h2 id="services-heading" className="visually-hidden">
            Our services
          </h2>
          <div className="services-layout">
            <ul className="services-list">
              {services.map((s, i) => (
                <li key={s.id} id={s.id} className={`card services-card${i === active ? ' services-card--active' : ''}`}>
                  <button
                    type="button"
                    className="services-card__button"
                    aria-pressed={i === active}
                    aria-controls="service-panel"
                    onClick={() => setActive(i)}
                  >
                    <span className="services-card__title">{s.title}</span>
                    <span className="services-card__short">{s.short}</span>
                  </button>
                  {s.id === 'embedded-recruitment' && (
                    <div className="services-partner">
                      <img src={site.partner.logo.src} alt={site.partner.name} width={site.partner.logo.width} height={site.partner.logo.height} />
                      <p>
                        Powered by our partnership with{' '}
                        <a href={site.partner.url} target="_blank" rel="noopener noreferrer">
                          {site.partner.name}
                          <span className="visually-hidden"> (opens in a new tab)</span>
                        </a>
                      </p>
                      <ButtonLink to="/contact?kind=hiring-audit#enquiry" variant="accent" size="sm">
                        Book a Free Hiring Audit
                      </ButtonLink>
                    </div>
                  )}
                </li>
              ))}
            </ul>
            <div id="service-panel" className="card services-panel" aria-live="polite">
              <h3 className="services-panel__title">{service.title}</h3>
              <p>{service.full}</p>
              <h4 className="services-panel__subtitle">What's included</h4>
              <ul className="services-features">
                {service.features.map((f) => (
                  <li key={f}>{f}</li>
                ))}
              </ul>
              <ButtonLink to={`/contact?kind=${service.enquiryKind}#enquiry`} size="lg">
                {ctaLabel(service)}
              </ButtonLink>
            </div>
          </div>
        </div>
      </section>
      <section className="section section--white" aria-labelledby="services-testimonial">
        <div className="container">
          <h2 id="services-testimonial" className="visually-hidden">
            What our clients say
          </h2>
          <ClientQuote quote={quote} />
        </div>
      </section>
      <section className="section" aria-labelledby="services-sectors">
        <div className="container">
          <div className="section-head">
            <p className="eyebrow">Sectors</p>
            <h2 id="services-sectors">Where we recruit</h2>
          </div>
          <div className="grid grid--3">
            {SECTORS.map((s) => (
              <article key={s.title} className="card services-sector">
                <img src={s.image} alt="" width={640} height={400} loading="lazy" decoding="async" />
                <h3 className="card__title">{s.title}</h3>
                <p className="muted">{s.text}</p>
              </article>
            ))}
          </div>
        </div>
      </section>
      <section className="section section--navy" aria-labelledby="services-cta">
        <div className="container section-head section-head--center">
          <h2 id="services-cta">Ready to talk about your next hire?</h2>
          <p className="lead">Tell us what you are planning and we will recommend the right way to work together.</p>
          <ButtonLink to="/contact?kind=client#enquiry" variant="accent" size="lg">
            Contact Our Team
          </ButtonLink>
          <p>
            <Link to="/contact">Other ways to reach us</Link>
          </p>
        </div>
      </section>
    </>
  );
}
