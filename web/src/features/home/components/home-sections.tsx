// Static home sections: Why Work With Us, testimonials, the CV band, Market Intelligence.
import { Link } from 'react-router';
import { ArrowRightIcon, MailIcon, PhoneIcon, QuoteIcon } from '@/components/ui/icons';
import { site, testimonials } from '@/content/site';

const reasons = [
  {
    title: 'Sector specialists, not generalists',
    text: 'We recruit only in property and the built environment, so we speak your language and know who is good.',
  },
  {
    title: 'Discretion by default',
    text: 'Confidential mandates and passive candidates are handled personally, with nothing shared without consent.',
  },
  {
    title: 'Partners for the long term',
    text: 'Salary benchmarking, retention advice and honest market insight long after the placement is made.',
  },
];

export function WhyWorkWithUs() {
  return (
    <section className="section" aria-labelledby="why-title">
      <div className="container">
        <div className="section-head section-head--center">
          <span className="eyebrow">Why us</span>
          <h2 id="why-title">Why Work With Us</h2>
        </div>
        <ol className="why grid grid--3">
          {reasons.map((r, i) => (
            <li key={r.title} className="why__item">
              <span className="why__num" aria-hidden="true">
                0{i + 1}
              </span>
              <h3>{r.title}</h3>
              <p className="muted">{r.text}</p>
            </li>
          ))}
        </ol>
      </div>
    </section>
  );
}

export function Testimonials() {
  return (
    <section className="section section--navy on-dark" aria-labelledby="testimonials-title">
      <div className="container">
        <div className="section-head">
          <span className="eyebrow">Client stories</span>
          <h2 id="testimonials-title">What our clients say</h2>
        </div>
        <div className="grid grid--2">
          {testimonials.slice(0, 2).map((t) => (
            <figure key={t.name} className="testimonial">
              <QuoteIcon size={32} className="testimonial__mark" />
              <blockquote>
                <p>{t.quote}</p>
              </blockquote>
              <figcaption>
                <strong>{t.name}</strong>
                <span>
                  {t.role}, {t.company}
                </span>
              </figcaption>
            </figure>
          ))}
        </div>
      </div>
    </section>
  );
}

export function CvBand() {
  return (
    <section className="cv-band" aria-labelledby="cv-band-title">
      <div className="container cv-band__inner">
        <div>
          <h2 id="cv-band-title">Ready for your next move?</h2>
          <p>Send us your CV in confidence, or call for a conversation about the market.</p>
        </div>
        <div className="btn-row">
          <a className="btn btn--primary" href={`mailto:${site.email}?subject=${encodeURIComponent('My CV')}`}>
            <MailIcon size={18} /> Send your CV to {site.email}
          </a>
          <a className="btn btn--outline" href={site.phone.href}>
            <PhoneIcon size={18} /> Call {site.phone.display}
          </a>
        </div>
      </div>
    </section>
  );
}

const insightCards = [
  {
    title: 'Investigating the Evolving Role of the Property Asset Manager in 2025',
    category: 'Industry Analysis',
    excerpt: 'Data, ESG and occupier experience are redrawing the asset manager’s job. What the best candidates now bring.',
    image: '/images/insights/evolving-asset-manager-2025.svg',
    to: '/insights/evolving-asset-manager-2025',
  },
  {
    title: 'Office Occupancy on the Rise but Hybrid Working is Here to Stay',
    category: 'Industry Trends',
    excerpt: 'Occupancy is climbing towards pre-pandemic peaks midweek, yet hybrid patterns are set. What it means for hiring.',
    image: '/images/insights/hybrid-working-property.svg',
    to: '/insights/hybrid-working-property',
  },
  {
    title: 'All insights: salaries, markets and careers',
    category: 'Market Analysis',
    excerpt: 'Salary reports, regional market notes and career advice from our consultants.',
    image: '/images/insights/uk-property-market-outlook.svg',
    to: '/insights',
  },
];

export function MarketIntelligence() {
  return (
    <section id="insights" className="section section--white" aria-labelledby="market-title">
      <div className="container">
        <div className="section-head">
          <span className="eyebrow">The Inside Track</span>
          <h2 id="market-title">Market Intelligence</h2>
          <p className="lead">Analysis of the property jobs market from the people filling the roles.</p>
        </div>
        <div className="grid grid--3">
          {insightCards.map((c) => (
            <article key={c.to} className="card card--interactive insight-card">
              <img src={c.image} alt="" width={800} height={450} loading="lazy" decoding="async" className="insight-card__img" />
              <span className="badge">{c.category}</span>
              <h3 className="card__title insight-card__title">
                <Link to={c.to} className="card__stretched insight-card__link">
                  {c.title}
                </Link>
              </h3>
              <p className="muted">{c.excerpt}</p>
              <span className="insight-card__more" aria-hidden="true">
                Read more <ArrowRightIcon size={16} />
              </span>
            </article>
          ))}
        </div>
      </div>
    </section>
  );
}
