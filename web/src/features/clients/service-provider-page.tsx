// /clients/service-provider (spec §1: proof points and reasons to work with the firm).
import { CardGrid, ClientPage } from './client-page';

const PROOF = [
  { value: '92%', label: 'of shortlisted candidates interviewed by our clients' },
  { value: '3 weeks', label: 'typical time to a referenced shortlist' },
  { value: '95%', label: 'of placements still in post after twelve months' },
];

const REASONS = [
  { title: 'We know the disciplines', text: 'Surveying, valuation, lease advisory, property and facilities management, project and cost management: our consultants recruit the roles they understand.' },
  { title: 'Access to passive talent', text: 'Most of the people we place were not applying for jobs. We approach them directly, with a credible story about your firm.' },
  { title: 'Your brand, represented well', text: 'We present your culture, career paths and clients accurately, so candidates accept offers for the right reasons.' },
  { title: 'Fees that fit the hire', text: 'Retained, advertised or success-based: we recommend the model that suits each role, not the one that suits us.' },
];

export default function ServiceProviderPage() {
  return (
    <ClientPage
      path="/clients/service-provider"
      metaTitle="Service Providers & Consultancies"
      description="Recruitment for property consultancies and service providers: surveyors, property and facilities managers, project and cost managers."
      eyebrow="Service Providers & Consultancies"
      title="Specialists for the firms that keep property working"
      intro="Consultancies, agencies and service providers compete for the same scarce technical talent. We help you find, attract and keep it."
      closingTitle="Growing your consultancy?"
      closingText="Let's talk about the roles that will make the biggest difference this year."
    >
      <section className="section" aria-labelledby="service-provider-proof">
        <div className="container">
          <div className="section-head">
            <p className="eyebrow">Proof points</p>
            <h2 id="service-provider-proof">Results our clients can measure</h2>
          </div>
          <ul className="client-proof card card--navy">
            {PROOF.map((p) => (
              <li key={p.label}>
                <strong>{p.value}</strong>
                <span>{p.label}</span>
              </li>
            ))}
          </ul>
        </div>
      </section>
      <CardGrid id="service-provider-reasons" eyebrow="Why work with us" title="Reasons consultancies choose us" items={REASONS} />
    </ClientPage>
  );
}
