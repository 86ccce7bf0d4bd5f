// /about (spec §2): hero 'What matters...', a first-person statement, the founder's portrait with a professional
// profile link, a client testimonial and the closing banner 'It starts with a conversation.' linking to /contact.
import { ButtonLink } from '@/components/ui/button';
import { ClientQuote } from '@/components/ui/client-quote';
import { site, testimonials } from '@/content/site';
import { Seo } from '@/lib/seo';
import './about.css';

export default function AboutPage() {
  const quote = testimonials[1];
  const { founder } = site;
  return (
    <>
      <Seo
        title="What Matters"
        description={`About ${site.name}: a specialist recruitment and executive-search firm for property and the built environment, founded by ${founder.name}.`}
        path="/about"
        jsonLd={{
          '@context': 'https://schema.org',
          '@type': 'AboutPage',
          name: `About ${site.name}`,
          url: `${site.url}/about`,
          about: { '@type': 'Organization', name: site.name, founder: { '@type': 'Person', name: founder.name, jobTitle: founder.role, sameAs: founder.profileUrl } },
        }}
      />
      <section className="page-hero on-dark">
        <div className="container">
          <p className="eyebrow">About us</p>
          <h1>What matters...</h1>
          <p>Is what matters to you.</p>
        </div>
      </section>
      <section className="section" aria-labelledby="about-statement">
        <div className="container about-grid">
          <div className="about-statement">
            <h2 id="about-statement">This business is about you</h2>
            <p className="lead">
              I started {site.name} because I believe recruitment should be about the person on the other side of the conversation. If you are building a team, it is about your hiring plans: the scheme you need to deliver, the culture you want to protect, the gap you cannot afford to fill with the wrong person.
            </p>
            <p>
              If you are thinking about your next move, it is about your career: what you want to learn, where you want to be in five years and what you will not compromise on. My job, and the job of everyone who works with me, is to understand that properly before we suggest anything at all.
            </p>
            <p>
              We specialise in property and the built environment because it is the sector we know. We would rather make one right introduction than ten convenient ones.
            </p>
          </div>
          <figure className="about-founder card">
            <img src={founder.portrait.src} alt={`Portrait placeholder for ${founder.name}`} width={founder.portrait.width} height={founder.portrait.height} />
            <figcaption>
              <strong>{founder.name}</strong>
              <span className="muted">{founder.role}</span>
              <a href={founder.profileUrl} target="_blank" rel="noopener noreferrer">
                {founder.name} on {site.social.label}
                <span className="visually-hidden"> (opens in a new tab)</span>
              </a>
            </figcaption>
          </figure>
        </div>
      </section>
      <section className="section section--white" aria-labelledby="about-testimonial">
        <div className="container">
          <h2 id="about-testimonial" className="section-head section-head--center">
            What our clients say
          </h2>
          <ClientQuote quote={quote} />
        </div>
      </section>
      <section className="section section--navy" aria-labelledby="about-closing">
        <div className="container section-head section-head--center">
          <h2 id="about-closing">It starts with a conversation.</h2>
          <p className="lead">Tell us about your hiring plans or your next career move.</p>
          <ButtonLink to="/contact" variant="accent" size="lg">
            Let's Talk
          </ButtonLink>
        </div>
      </section>
    </>
  );
}
