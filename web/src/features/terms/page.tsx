// /terms: the website's terms of use (who operates it, acceptable use, the Career Hub, job adverts, information and
// shared profiles, intellectual property, other sites, availability, liability within what English law allows,
// personal data, changes, governing law, contact). Recruitment services themselves run on separately agreed terms,
// as the Conduct of Employment Agencies and Employment Businesses Regulations 2003 require.
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { ExternalLink, LegalDocument } from '@/components/layout/legal-document';
import { site } from '@/content/site';
import { Seo } from '@/lib/seo';

const UPDATED = 'November 2026';

const CONTENTS = [
  { id: 'about', label: 'About these terms' },
  { id: 'using', label: 'Using our website' },
  { id: 'career-hub', label: 'Career Hub accounts' },
  { id: 'job-adverts', label: 'Job adverts and applications' },
  { id: 'information', label: 'Information on this website' },
  { id: 'shared-profiles', label: 'Candidate profiles we share' },
  { id: 'intellectual-property', label: 'Intellectual property' },
  { id: 'other-sites', label: 'Links to and from other websites' },
  { id: 'availability', label: 'Availability and security' },
  { id: 'liability', label: 'Our liability to you' },
  { id: 'personal-data', label: 'Your personal data' },
  { id: 'changes', label: 'Changes to these terms' },
  { id: 'law', label: 'Governing law' },
  { id: 'contact', label: 'Contact us' },
];

function Operator() {
  const { registeredName, companyNumber, registeredOffice } = site.legal;
  if (!registeredName) return null;
  const number = companyNumber ? ` under company number ${companyNumber}` : '';
  const office = registeredOffice ? `, whose registered office is at ${registeredOffice}` : '';
  return (
    <>
      {' '}
      {site.name} is a trading name of {registeredName}, a company registered in England and Wales{number}
      {office}.
    </>
  );
}

function Section({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section id={id} aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{title}</h2>
      {children}
    </section>
  );
}

export default function TermsPage() {
  const host = new URL(site.url).host;
  return (
    <>
      <Seo
        title="Terms of Use"
        description={`The terms of use of the ${site.name} website: acceptable use, job adverts, the Career Hub, intellectual property, liability and the law that applies.`}
        path="/terms"
      />
      <LegalDocument
        eyebrow="Terms"
        title="Website Terms of Use"
        intro={`The rules for using the ${site.name} website, in plain English. Last updated ${UPDATED}.`}
        contents={CONTENTS}
      >
        <Section id="about" title="1. About these terms">
          <p>
            These terms apply to your use of this website, {host} (the "website"). The website is operated by {site.name} ("we", "us", "our"), a recruitment and executive-search firm for property, real estate and the built environment based in {site.address.locality}.
            <Operator />
          </p>
          <p>
            By using the website you accept these terms. If you do not agree with them, please do not use it. Please also read our <Link to="/privacy">privacy notice</Link>, which explains how we use personal data.
          </p>
          <p>
            These terms cover the website only. When we help an organisation hire, our terms of business apply, and we agree them with the organisation before we introduce any candidate. When we help you find work, we confirm the terms of that service to you when you register with us, as the Conduct of Employment Agencies and Employment Businesses Regulations 2003 require. We never charge candidates a fee for finding them work.
          </p>
        </Section>

        <Section id="using" title="2. Using our website">
          <p>You may use the website for lawful purposes only. You must not:</p>
          <ul>
            <li>use it in a way that breaks any law or regulation, or that is fraudulent or harmful;</li>
            <li>
              try to gain unauthorised access to the website, the systems it runs on or any connected database, or attack it, for example with a denial-of-service attack. Doing so may be a criminal offence under the Computer Misuse Act 1990, and we will report it to the police;
            </li>
            <li>introduce viruses, malware or any other harmful material;</li>
            <li>
              copy our job adverts, candidate information or other content in bulk or by automated means (search engines indexing our public pages excepted), or republish our job adverts without our permission;
            </li>
            <li>
              send an application, CV or enquiry in someone else's name or with information you know to be false, or give us another person's personal data without their knowledge;
            </li>
            <li>use our forms to send advertising or promotional material we have not asked for.</li>
          </ul>
          <p>We may block access to the website from anyone who breaks these rules.</p>
        </Section>

        <Section id="career-hub" title="3. Career Hub accounts">
          <p>
            The <Link to="/career-hub">Career Hub</Link> and its CV builder are free. Using them is optional and never a condition of applying for a role or of our helping you find work.
          </p>
          <p>
            To use the Career Hub you create an account with your e-mail address and a password. Keep your password to yourself and tell us straight away if you think someone else has used your account. You are responsible for what you put in your CVs: please make sure it is accurate and that you have the right to include it.
          </p>
          <p>
            You can delete your CV drafts at any time and ask us to close your account. We may suspend or close an account that is used in breach of these terms; unless the law prevents it, we will tell you why.
          </p>
        </Section>

        <Section id="job-adverts" title="4. Job adverts and applications">
          <p>
            We advertise vacancies on behalf of our clients, and only with their authority. The details of a role, such as its title, location, salary, benefits and requirements, come from the employer and can change, and a role may be filled or withdrawn before its advert comes down. We check adverts with care, but we cannot promise that every detail is complete and up to date. Salaries are the employer's stated figures before tax and deductions, and are a guide only.
          </p>
          <p>
            Where a client has asked us to keep a search confidential, the advert describes the employer without naming it. We will tell you who the employer is, and ask for your agreement, before we send your details to them.
          </p>
          <p>
            A job advert is not an offer of employment, and applying does not guarantee an interview or a job: the employer decides whom to interview and hire, and checks your right to work in the UK before you start. If you think an advert is wrong or out of date, please <Link to="/contact?kind=other#enquiry">tell us</Link>.
          </p>
        </Section>

        <Section id="information" title="5. Information on this website">
          <p>
            Our <Link to="/insights">insights</Link>, salary information and career advice are general information. We write them with care, but they are not professional, legal, financial or tax advice for your circumstances, and figures that were right when we published them may since have changed. Please take advice that fits your situation before you act on them.
          </p>
        </Section>

        <Section id="shared-profiles" title="6. Candidate profiles we share">
          <p>
            If we send you a link to a candidate's profile, it is for your organisation's use in considering that candidate for the role we discussed with you. Please share it only with the people involved in that recruitment, do not publish it, and do not try to identify or contact an anonymised candidate other than through us. We record when a shared profile is viewed, as our privacy notice explains. An introduction made through a profile is covered by our terms of business.
          </p>
        </Section>

        <Section id="intellectual-property" title="7. Intellectual property">
          <p>
            We own, or are licensed to use, the copyright, database rights and other intellectual property in the website and its content, including its text, design, graphics and the way our job listings are compiled. You may view the website, print or download extracts for your own use or for use inside your organisation, and share links to our pages. You must not use any part of the website's content for commercial purposes, or copy or adapt it, without our written permission.
          </p>
          <p>
            Our name and logo, and the names and logos of the clients shown on the website, belong to their owners; showing them does not give you any right to use them.
          </p>
          <p>
            The CVs and other content you create in the Career Hub or send to us remain yours. You allow us to store and use them to provide the services you have asked for, as our privacy notice describes.
          </p>
        </Section>

        <Section id="other-sites" title="8. Links to and from other websites">
          <p>
            The website links to other sites, such as {site.social.label}, the scheduling service we use for booking calls, our hiring partner {site.partner.name} and public bodies such as the{' '}
            <ExternalLink href="https://ico.org.uk/">Information Commissioner's Office</ExternalLink>. These links are for your information only. We have no control over those sites and are not responsible for their content or for how they use your data.
          </p>
          <p>
            You may link to our home page, our job adverts and our articles, as long as you do so fairly and lawfully, do not suggest any association, approval or endorsement from us that does not exist, and do not show our pages inside a frame on another site.
          </p>
        </Section>

        <Section id="availability" title="9. Availability and security">
          <p>
            We provide the website free of charge. We cannot promise that it, or any content on it, will always be available or uninterrupted, and we may suspend, withdraw or change any part of it for business or operational reasons. We take reasonable care to keep the website secure and free from viruses, but we cannot guarantee this, so please use your own virus protection.
          </p>
        </Section>

        <Section id="liability" title="10. Our liability to you">
          <p>
            Nothing in these terms excludes or limits our liability for death or personal injury caused by our negligence, for fraud or fraudulent misrepresentation, or for any other liability that English law does not allow us to exclude or limit.
          </p>
          <h3>If you use the website as a consumer</h3>
          <p>
            We are responsible for loss or damage you suffer that is a foreseeable result of our breaking these terms or of our failing to use reasonable care and skill. We are not responsible for loss or damage that is not foreseeable. We provide the website for domestic and private use, so we are not liable to you for any loss of profit, loss of business, business interruption or loss of business opportunity. Nothing in these terms affects your legal rights as a consumer.
          </p>
          <h3>If you use the website for a business</h3>
          <p>
            As far as the law allows, we exclude all implied conditions, warranties and representations about the website and its content, and we are not liable to you, whether in contract, tort (including negligence), breach of statutory duty or otherwise, for any loss or damage arising from your use of, or inability to use, the website or from your reliance on its content. In particular, we are not liable for loss of profits, sales, business or revenue, business interruption, loss of anticipated savings, loss of business opportunity, goodwill or reputation, or any indirect or consequential loss. Our liability for the recruitment services we provide is set out in the terms of business we agree with you.
          </p>
        </Section>

        <Section id="personal-data" title="11. Your personal data">
          <p>
            We use the personal data you give us through the website, and information about how you use it, as our <Link to="/privacy">privacy notice</Link> explains, including your rights and how to complain. Our public pages set no cookies; the notice's section on <Link to="/privacy#cookies">cookies and similar technologies</Link> explains what is stored in your browser when you sign in to the Career Hub.
          </p>
        </Section>

        <Section id="changes" title="12. Changes to these terms">
          <p>
            We may change these terms from time to time, for example when the law or the website changes. The terms on this page when you use the website are the ones that apply, so please check it from time to time. If a change affects Career Hub account holders, we will tell them by e-mail before it takes effect.
          </p>
        </Section>

        <Section id="law" title="13. Governing law">
          <p>
            These terms, and any dispute or claim arising out of or in connection with them or the website (including non-contractual disputes or claims), are governed by the law of England and Wales.
          </p>
          <p>
            If you are a consumer, you can bring proceedings in the courts of England and Wales; if you live in Scotland, you can also bring them in Scotland, and if you live in Northern Ireland, in Northern Ireland. If you use the website for a business, the courts of England and Wales have exclusive jurisdiction.
          </p>
        </Section>

        <Section id="contact" title="14. Contact us">
          <p>
            For questions about these terms, or to tell us about something on the website you think is wrong, e-mail <a href={`mailto:${site.email}?subject=Website%20terms`}>{site.email}</a>, call <a href={site.phone.href}>{site.phone.display}</a> ({site.hours}) or use our{' '}
            <Link to="/contact?kind=other#enquiry">enquiry form</Link>.
          </p>
        </Section>
      </LegalDocument>
    </>
  );
}
