// Shared layout of the three client-type pages (spec §1: copy, proof points or a testimonial; calls to action
// 'Start a Conversation' → the contact form, 'View Current Opportunities' → the vacancies on the home page).
import type { ReactNode } from 'react';
import { ButtonLink } from '@/components/ui/button';
import type { Testimonial } from '@/content/site';
import { Seo } from '@/lib/seo';
import './clients.css';

export type ClientPageProps = {
  path: string;
  metaTitle: string;
  description: string;
  eyebrow: string;
  title: string;
  intro: string;
  children: ReactNode;
  testimonial?: Testimonial;
  closingTitle: string;
  closingText: string;
};

export function ClientPage(p: ClientPageProps) {
  return (
    <>
      <Seo title={p.metaTitle} description={p.description} path={p.path} />
      <section className="page-hero on-dark">
        <div className="container">
          <p className="eyebrow">{p.eyebrow}</p>
          <h1>{p.title}</h1>
          <p>{p.intro}</p>
          <div className="btn-row client-hero__actions">
            <ButtonLink to={`/contact?kind=client#enquiry`} variant="accent" size="lg">
              Start a Conversation
            </ButtonLink>
            <ButtonLink to="/#vacancies" variant="outline-light" size="lg">
              View Current Opportunities
            </ButtonLink>
          </div>
        </div>
      </section>
      {p.children}
      {p.testimonial && (
        <section className="section section--white" aria-labelledby="client-testimonial">
          <div className="container">
            <h2 id="client-testimonial" className="section-head section-head--center">
              What our clients say
            </h2>
            <figure className="client-quote">
              <blockquote>
                <p>“{p.testimonial.quote}”</p>
              </blockquote>
              <figcaption>
                <strong>{p.testimonial.name}</strong>, {p.testimonial.role}, {p.testimonial.company}
              </figcaption>
            </figure>
          </div>
        </section>
      )}
      <section className="section section--navy" aria-labelledby="client-closing">
        <div className="container section-head section-head--center">
          <h2 id="client-closing">{p.closingTitle}</h2>
          <p className="lead">{p.closingText}</p>
          <div className="btn-row client-closing__actions">
            <ButtonLink to="/contact?kind=client#enquiry" variant="accent" size="lg">
              Start a Conversation
            </ButtonLink>
            <ButtonLink to="/#vacancies" variant="outline-light" size="lg">
              View Current Opportunities
            </ButtonLink>
          </div>
        </div>
      </section>
    </>
  );
}

export function CardGrid({ id, eyebrow, title, items }: { id: string; eyebrow: string; title: string; items: { title: string; text: string }[] }) {
  return (
    <section className="section" aria-labelledby={id}>
      <div className="container">
        <div className="section-head">
          <p className="eyebrow">{eyebrow}</p>
          <h2 id={id}>{title}</h2>
        </div>
        <div className={`grid ${items.length === 4 ? 'grid--4' : 'grid--3'}`}>
          {items.map((it) => (
            <article key={it.title} className="card">
              <h3 className="card__title">{it.title}</h3>
              <p className="muted">{it.text}</p>
            </article>
          ))}
        </div>
      </div>
    </section>
  );
}
