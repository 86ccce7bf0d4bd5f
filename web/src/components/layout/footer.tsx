// Site footer: service, specialism and quick links, contact (phone opens a dialog with the number and OK), social link,
// 'Arrange a call here', the charity line, copyright, and the Organization structured data.
import { useState } from 'react';
import { Link } from 'react-router';
import { Dialog } from '@/components/ui/dialog';
import { ExternalIcon, LinkedInIcon, MailIcon, PhoneIcon } from '@/components/ui/icons';
import { site } from '@/content/site';
import { jsonForScript } from '@/lib/seo';
import { footerBottomLinks, footerQuickLinks, footerServices, footerSpecialisms } from './navigation';

export function organizationJsonLd() {
  return {
    '@context': 'https://schema.org',
    '@type': 'EmploymentAgency',
    name: site.name,
    url: site.url,
    logo: `${site.url}${site.logo.src}`,
    description: site.description,
    email: site.email,
    telephone: site.phone.href.replace('tel:', ''),
    address: {
      '@type': 'PostalAddress',
      addressLocality: site.address.locality,
      addressRegion: site.address.region,
      addressCountry: site.address.country,
    },
    sameAs: [site.social.url],
  };
}

function Column({ title, links }: { title: string; links: { label: string; to: string; document?: boolean }[] }) {
  return (
    <div className="footer__col">
      <h2 className="footer__heading">{title}</h2>
      <ul>
        {links.map((l) => (
          <li key={l.to}>
            {l.document ? <a href={l.to}>{l.label}</a> : <Link to={l.to}>{l.label}</Link>}
          </li>
        ))}
      </ul>
    </div>
  );
}

export function Footer() {
  const [phoneOpen, setPhoneOpen] = useState(false);
  return (
    <footer className="site-footer on-dark" data-testid="site-footer">
      <div className="container">
        <div className="footer__grid">
          <div className="footer__col footer__about">
            <p className="footer__brand">{site.name}</p>
            <p>{site.tagline}.</p>
            <ul className="footer__contact">
              <li>
                <button type="button" className="footer__phone" onClick={() => setPhoneOpen(true)} data-testid="footer-phone">
                  <PhoneIcon size={18} /> {site.phone.display}
                </button>
              </li>
              <li>
                <a href={`mailto:${site.email}`}>
                  <MailIcon size={18} /> {site.email}
                </a>
              </li>
              <li>
                <a href={site.social.url} target="_blank" rel="noopener noreferrer">
                  <LinkedInIcon size={18} /> {site.social.label}
                  <span className="visually-hidden"> (opens in a new tab)</span>
                </a>
              </li>
              <li>
                <a href={site.scheduling.url} target="_blank" rel="noopener noreferrer">
                  <ExternalIcon size={18} /> Arrange a call here
                  <span className="visually-hidden"> (opens in a new tab)</span>
                </a>
              </li>
            </ul>
          </div>
          <Column title="Services" links={footerServices} />
          <Column title="Specialisms" links={footerSpecialisms} />
          <Column title="Quick Links" links={footerQuickLinks} />
        </div>
        <p className="footer__charity">{site.charity}</p>
        <div className="footer__bottom">
          <p>
            © {site.copyrightYear} {site.name}. All rights reserved.
          </p>
          <ul>
            {footerBottomLinks.map((l) => (
              <li key={l.to}>{l.document ? <a href={l.to}>{l.label}</a> : <Link to={l.to}>{l.label}</Link>}</li>
            ))}
          </ul>
        </div>
      </div>
      <Dialog open={phoneOpen} onClose={() => setPhoneOpen(false)} title="Call us" size="sm" testId="phone-dialog">
        <p className="phone-dialog__number">
          <a href={site.phone.href}>{site.phone.display}</a>
        </p>
        <p className="muted">{site.hours}</p>
        <button type="button" className="btn btn--primary btn--block" onClick={() => setPhoneOpen(false)}>
          OK
        </button>
      </Dialog>
      <script type="application/ld+json" dangerouslySetInnerHTML={{ __html: jsonForScript(organizationJsonLd()) }} />
    </footer>
  );
}
