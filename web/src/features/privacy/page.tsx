// /privacy (spec §2; UK GDPR Art. 13/14 contents per design/product.md §3.2; retention per spec §9; cookies per PECR).
import { Link } from 'react-router';
import { site } from '@/content/site';
import { ExternalLink as External, LegalDocument, LegalTable } from '@/components/layout/legal-document';
import { Seo } from '@/lib/seo';

const UPDATED = 'November 2026';

const CONTENTS = [
  { id: 'candidates', label: 'Candidates' },
  { id: 'your-data', label: 'Your data: Who, what and where' },
  { id: 'how-used', label: 'How will personal data be used' },
  { id: 'other-sources', label: 'Information we obtain from other sources' },
  { id: 'permission', label: 'Permission' },
  { id: 'reference', label: 'Reference' },
  { id: 'job-alerts', label: 'Job alerts' },
  { id: 'retention', label: 'How long we keep your data' },
  { id: 'rights', label: 'Your rights and how to complain' },
  { id: 'cookies', label: 'Cookies and similar technologies' },
];

const PURPOSES = [
  ['Considering you for roles and introducing you to employers (work-finding services)', 'Legitimate interests; and steps at your request before a contract'],
  ['Keeping your CV on our database for future vacancies that match your experience', 'Legitimate interests (you can object at any time)'],
  ['Sending your identifiable CV or profile to a named client for a specific role', 'Your permission for that client and role (see point 5)'],
  ['Answering enquiries from our website, e-mail or phone', 'Legitimate interests; steps at your request before a contract'],
  ['Providing recruitment services to clients and managing our suppliers', 'Contract; legitimate interests'],
  ['Keeping records the Conduct of Employment Agencies and Employment Businesses Regulations 2003 require', 'Legal obligation'],
  ['Job alerts and marketing e-mails to personal addresses', 'Consent (withdraw at any time)'],
  ['Marketing our services to business contacts at corporate addresses', 'Legitimate interests (opt out at any time)'],
  ['Running your Career Hub account and saving your CV drafts', 'Contract (our terms of use for the Career Hub)'],
  ['Keeping our website and systems secure', 'Legitimate interests'],
];

const RETENTION = [
  ['Candidate records, CVs and applications', 'One year from our last meaningful contact; we then e-mail you to ask whether you want to stay on our database or opt out, with a link to tell us either way (opting out deletes your data straight away). If you do not respond, we keep your data for one further year and then delete it.'],
  ['Client and referee contact details', 'One year from our last dealing, followed by the same e-mail check and one further year if there is no response.'],
  ['Records of introductions and placements', 'At least one year from their creation or our last dealing with you, as the Conduct Regulations require, and no longer than we need them to handle any legal claim.'],
  ['Website enquiries', 'One year from our last contact with you, followed by the same e-mail check and one further year if there is no response.'],
  ['Career Hub accounts and CV drafts', 'Until you delete them or close your account; inactive accounts are reminded and then deleted after two years.'],
  ['Views of shared candidate profiles', 'Up to one year.'],
  ['Job alerts', 'Until you unsubscribe (every alert e-mail has a one-click link) or delete the alert or your account; an alert whose address is never confirmed is deleted after 7 days.'],
  ['Links sharing a candidate profile with a named client', 'Until one year after the link expired or was withdrawn (the views through it, up to one year).'],
];

export default function PrivacyPage() {
  return (
    <>
      <Seo
        title="Privacy Notice"
        description={`How ${site.name} collects, uses, shares and protects personal data of candidates, clients, referees, suppliers and website visitors under UK GDPR.`}
        path="/privacy"
      />
      <LegalDocument
        eyebrow="Privacy Notice"
        title="Six Points That Secure Your Data"
        intro={`How ${site.name} collects, uses and protects your personal data, and the rights you have over it. Last updated ${UPDATED}.`}
        contents={CONTENTS}
      >
        <section aria-labelledby="who-we-are">
          <h2 id="who-we-are">Who we are</h2>
          <p>
            {site.name} ("we", "us") is an employment agency providing permanent recruitment, executive search and talent advisory services for property, real estate and the built environment. We are the controller of the personal data described in this notice. You can contact us about anything in it by e-mail at{' '}
            <a href={`mailto:${site.email}`}>{site.email}</a> or by phone on <a href={site.phone.href}>{site.phone.display}</a> ({site.hours}). We have not appointed a Data Protection Officer; our managing director, {site.founder.name}, is responsible for data protection.
          </p>
        </section>

        <section id="candidates" aria-labelledby="candidates-title">
          <h2 id="candidates-title">1. Candidates</h2>
          <p>
            When you apply for a role, send us your CV, register with us or speak to one of our consultants, we collect the information we need to help you find work: your name, contact details, CV, employment history, qualifications, the kind of role, location and salary you are looking for, notes from our conversations and, if you give them, your cover letter and details of referees.
          </p>
          <p>
            We accept speculative CVs and keep them on our database so that we can contact you about suitable roles in future, as described in this notice. Providing your details is voluntary, but we cannot put you forward for a role without a CV and a way to contact you. We do not ask for information we do not need at application stage, such as your date of birth, a photograph, or right-to-work documents; the employer checks your right to work before you start.
          </p>
          <p>
            If you tell us about a disability so that we can make adjustments to the recruitment process, we use that information only for that purpose and share it with the employer only with your agreement.
          </p>
        </section>

        <section id="your-data" aria-labelledby="your-data-title">
          <h2 id="your-data-title">2. Your data: Who, what and where</h2>
          <h3>Client information</h3>
          <p>
            For the organisations we recruit for, we hold the names, job titles, work e-mail addresses and phone numbers of our contacts, details of the roles and terms offered, and records of the candidates we have introduced.
          </p>
          <h3>Candidates, clients and referrals</h3>
          <p>
            Alongside candidate information (point 1), we hold details of people who are recommended to us and of referees whose details candidates give us. When someone refers you to us, we tell you within one month where we obtained your details.
          </p>
          <h3>Supplier</h3>
          <p>
            For our suppliers and partners we hold the business contact details of the people we deal with, and the information we need to manage the contract and pay invoices.
          </p>
          <h3>Website consumer</h3>
          <p>
            When you use this website we receive what you send us through its forms (for example an enquiry or a job application) and, if you create a Career Hub account, your name, e-mail address, a securely hashed password and the CV drafts you save. Our servers record technical information such as your IP address, browser type and the pages requested, to keep the service secure and working.
          </p>
          <h3>Where your data is held</h3>
          <p>
            We store data in the United Kingdom and the European Economic Area. If a service provider processes data outside the UK, we make sure the transfer is covered by UK adequacy regulations or protected by the International Data Transfer Agreement or the UK Addendum to the EU standard contractual clauses.
          </p>
        </section>

        <section id="how-used" aria-labelledby="how-used-title">
          <h2 id="how-used-title">3. How will personal data be used</h2>
          <p>We use personal data for the purposes below, each with a lawful basis under the UK GDPR:</p>
          <LegalTable caption="Purposes and lawful bases" columns={['Purpose', 'Lawful basis']} rows={PURPOSES} />
          <p>
            <strong>Our legitimate interests</strong> are running a recruitment business: matching people with suitable roles, keeping in touch with candidates and clients about opportunities, developing our services and protecting our systems. We have balanced these interests against your rights and expectations, and you can object at any time (see your rights below).
          </p>
          <p>
            <strong>Who we share data with.</strong> We share candidate information with prospective employers only as described under Permission (point 5). We also use service providers who process data on our behalf under contract: our website hosting and database provider, our e-mail provider, and our recruitment database and job-posting tools. We may disclose data where the law requires it, for example to HM Revenue &amp; Customs or the police.
          </p>
          <p>
            <strong>Automated decisions.</strong> We do not make decisions about you by automated means alone. Every shortlisting decision is made by a person.
          </p>
        </section>

        <section id="other-sources" aria-labelledby="other-sources-title">
          <h2 id="other-sources-title">4. Information we obtain from other sources</h2>
          <p>
            We may find your details on professional networking sites, such as LinkedIn, on job boards where you have posted your CV, or through recommendations. When we obtain information about you in this way, we tell you within one month (or when we first contact you, if sooner) who we are, what we hold, where we found it and how to object. We collect only information relevant to your career. References come from the referees you nominate (point 6).
          </p>
        </section>

        <section id="permission" aria-labelledby="permission-title">
          <h2 id="permission-title">5. Permission</h2>
          <p>
            We will not send your CV or any information that identifies you to an employer without first telling you about the specific role and the employer and getting your agreement to be put forward for it. If you agree by phone, we confirm it to you in writing or by e-mail. We may share an anonymised profile, with your name and contact details removed, to find out whether a client is interested.
          </p>
          <p>
            Where we rely on your consent, such as for job alerts and marketing e-mails to a personal address, you can withdraw it at any time by using the unsubscribe link in any e-mail or by contacting us. Withdrawing consent does not affect anything we did before you withdrew it. Marketing to business contacts at corporate e-mail addresses does not require consent by default, but you can always ask us to stop.
          </p>
        </section>

        <section id="reference" aria-labelledby="reference-title">
          <h2 id="reference-title">6. Reference</h2>
          <p>
            If you give us details of referees, please tell them first. We contact referees only when you are being considered for a specific role, use what they tell us only for that recruitment, and share the reference with the employer only with your agreement. If you are a referee, we hold your name, contact details, role and the reference you give for the retention periods below.
          </p>
        </section>

        <section id="job-alerts" aria-labelledby="job-alerts-title">
          <h2 id="job-alerts-title">Job alerts</h2>
          <p>
            When you ask us to e-mail you new roles, we keep your e-mail address, the search you chose (keywords, location, sector, job type, salary), how often you want the e-mail, when you agreed and the words you agreed to, and which roles we have sent you. We use them only to send those e-mails, on the basis of your consent.
          </p>
          <p>
            Nothing is sent until you confirm your address from the e-mail we send you, unless you are signed in to the Career Hub with an address you have already confirmed. Every alert e-mail has a link that stops it at once without signing in; you can also change or delete your alerts in the Career Hub dashboard. Alerts are included when you download your data and deleted with your account, and an alert whose address is never confirmed is deleted after 7 days.
          </p>
        </section>

        <section id="retention" aria-labelledby="retention-title">
          <h2 id="retention-title">How long we keep your data</h2>
          <LegalTable caption="Retention periods" columns={['Data', 'How long we keep it']} rows={RETENTION} />
        </section>

        <section id="rights" aria-labelledby="rights-title">
          <h2 id="rights-title">Your rights and how to complain</h2>
          <p>You have the right to:</p>
          <ul>
            <li>ask for a copy of the personal data we hold about you (we respond within one month, which can be extended by two months for complex requests);</li>
            <li>have inaccurate data corrected and incomplete data completed;</li>
            <li>have your data erased, and restrict how we use it;</li>
            <li>object to our use of your data based on legitimate interests, and to direct marketing at any time;</li>
            <li>receive data you gave us in a portable format, where we rely on consent or contract;</li>
            <li>withdraw consent at any time, where we rely on it.</li>
          </ul>
          <p>
            To use any of these rights, e-mail <a href={`mailto:${site.email}?subject=Data%20protection%20request`}>{site.email}</a>, call us, or use our <Link to="/contact?kind=other#enquiry">enquiry form</Link>. You can delete your Career Hub CV drafts yourself at any time. On your{' '}
            <Link to="/career-hub/dashboard">Career Hub dashboard</Link>, "Download my data" gives you one file with everything we hold about you: your account and its sign-in sessions (when, from which IP address and browser), your CV drafts, saved jobs, the files you uploaded, the candidate profiles you viewed while signed in and, once you have confirmed your e-mail address, the applications and enquiries sent with it (signed in or not) and where each application stands, any candidate profile we hold under it with the consents you gave us to introduce you and the companies we shared it with, the e-mails we sent to it and our retention e-mails (without the one-time codes their links carry). "Delete my account" erases all of these, including CV files uploaded with your applications and files you uploaded but never sent; the firm keeps only the count of profile views you made, with nothing that links them to you. Our consultants' internal notes on your applications are not in the file: ask us for them as described above.
          </p>
          <p>
            If you are unhappy with how we have handled your data, please tell us first by e-mail with the subject "Data protection complaint" or through the <Link to="/contact?kind=other#enquiry">enquiry form</Link>: we acknowledge complaints within 30 days and respond without undue delay. You also have the right to complain to the Information Commissioner's Office (ICO), the UK's data-protection regulator: <External href="https://ico.org.uk/make-a-complaint/">ico.org.uk/make-a-complaint</External> or 0303 123 1113.
          </p>
        </section>

        <section id="cookies" aria-labelledby="cookies-title">
          <h2 id="cookies-title">Cookies and similar technologies</h2>
          <p>
            Our public pages do not set cookies and we do not use advertising, tracking or third-party analytics technologies. If you sign in to the Career Hub, your browser stores a sign-in session in local storage; this is strictly necessary to provide the service you asked for, so it does not need consent, and it is removed when you sign out. If we ever add analytics, we will update this notice first and give you a simple way to object or, where the law requires it, ask for your consent.
          </p>
          <p>
            Links to other websites, such as LinkedIn or a scheduling service, take you to sites with their own privacy policies; please read them before giving those sites your data.
          </p>
        </section>

        <section aria-labelledby="resources-title">
          <h2 id="resources-title">Useful resources</h2>
          <ul>
            <li>
              <External href="https://www.legislation.gov.uk/eur/2016/679/contents">UK GDPR (legislation.gov.uk)</External>
            </li>
            <li>
              <External href="https://ico.org.uk/for-the-public/">The ICO's guide to your data protection rights</External>
            </li>
            <li>
              <External href="https://policies.google.com/privacy">Google privacy policy</External>
            </li>
            <li>
              <External href="https://www.linkedin.com/legal/privacy-policy">LinkedIn privacy policy</External>
            </li>
          </ul>
          <p>
            We review this notice regularly and will post any changes on this page. See also our <Link to="/terms">website terms of use</Link> and our <Link to="/contact">contact page</Link>.
          </p>
        </section>
      </LegalDocument>
    </>
  );
}
