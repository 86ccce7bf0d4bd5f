// /contact (spec §2): e-mail and phone cards, Book a Call (external scheduling page, new tab), and the enquiry form
// at #enquiry (kind preselected with ?kind=client|hiring-audit|contact).
import { useSearchParams } from 'react-router';
import { ButtonAnchor } from '@/components/ui/button';
import { site } from '@/content/site';
import { Seo } from '@/lib/seo';
import { EnquiryForm } from './enquiry-form';
import { useHashScroll } from '../../lib/use-hash-scroll';
import { parseKind } from './validate-enquiry';
import './contact.css';

export default function ContactPage() {
  const [params] = useSearchParams();
  const kind = parseKind(params.get('kind'));
  useHashScroll();
  return (
    <>
      <Seo
        title="Let's Talk"
        description={`Contact ${site.name}: e-mail ${site.email}, call ${site.phone.display} (${site.hours}) or book a 15-30 minute call.`}
        path="/contact"
      />
      <section className="page-hero on-dark contact-hero">
        <div className="container">
          <p className="eyebrow">Let's Talk</p>
          <h1>Start a conversation</h1>
          <p>Whether you are hiring or thinking about your next move, we would like to hear from you.</p>
        </div>
      </section>
      <section className="section" aria-labelledby="contact-ways">
        <div className="container">
          <h2 id="contact-ways" className="visually-hidden">
            Ways to contact us
          </h2>
          <div className="grid grid--3">
            <article className="card contact-card">
              <h3 className="card__title">E-mail us</h3>
              <p className="muted">Send us your brief, your CV or a question.</p>
              <a className="contact-card__value" href={`mailto:${site.email}`}>
                {site.email}
              </a>
            </article>
            <article className="card contact-card">
              <h3 className="card__title">Call us</h3>
              <p className="muted">{site.hours}</p>
              <a className="contact-card__value" href={site.phone.href}>
                {site.phone.display}
              </a>
            </article>
            <article className="card card--navy contact-card">
              <h3 className="card__title">Book a call</h3>
              <p>A 15-30 minute consultation at a time that suits you, with no commitment.</p>
              <ButtonAnchor href={site.scheduling.url} newTab variant="accent">
                Book a Call<span className="visually-hidden"> (opens in a new tab)</span>
              </ButtonAnchor>
            </article>
          </div>
        </div>
      </section>
      <section id="enquiry" className="section section--white contact-enquiry" aria-labelledby="enquiry-heading">
        <div className="container contact-enquiry__inner">
          <div className="section-head">
            <p className="eyebrow">Enquiries</p>
            <h2 id="enquiry-heading">Send us an enquiry</h2>
            <p className="lead">Tell us a little about what you need and the right consultant will reply within one working day.</p>
          </div>
          <EnquiryForm initialKind={kind} />
        </div>
      </section>
    </>
  );
}
