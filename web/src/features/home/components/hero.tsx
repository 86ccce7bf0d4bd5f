// Home hero: headline, Send Your CV, View Current Opportunities, Start a Conversation.
import { Link } from 'react-router';
import { ArrowRightIcon } from '@/components/ui/icons';
import { site } from '@/content/site';

export function Hero() {
  return (
    <section className="home-hero on-dark" aria-labelledby="home-title">
      <svg className="home-hero__art" viewBox="0 0 720 480" width="720" height="480" aria-hidden="true" focusable="false">
        <g fill="none" stroke="#d9b265" strokeOpacity="0.28" strokeWidth="1.5">
          <path d="M40 440V250h90v190M150 440V170h110v270M280 440V90h120v350M420 440V210h100v230M540 440V300h120v140" />
          <path d="M300 120h80M300 160h80M300 200h80M300 240h80M300 280h80M300 320h80M300 360h80M170 200h70M170 240h70M170 280h70M170 320h70M440 240h60M440 280h60M440 320h60" strokeOpacity="0.18" />
        </g>
        <circle cx="560" cy="120" r="60" fill="#d9b265" fillOpacity="0.12" />
        <path d="M0 440h720" stroke="#d9b265" strokeOpacity="0.4" strokeWidth="2" />
      </svg>
      <div className="container home-hero__inner">
        <span className="eyebrow">Property &amp; built-environment recruitment</span>
        <h1 id="home-title">The people who shape places, found with discretion.</h1>
        <p className="lead">
          {site.name} connects developers, investors, consultancies and in-house property teams with the leaders and
          specialists who deliver their plans — through executive search, advertised campaigns and long-term hiring
          partnerships.
        </p>
        <div className="btn-row">
          <a className="btn btn--accent btn--lg" href={`mailto:${site.email}?subject=${encodeURIComponent('My CV')}`}>
            Send Your CV
          </a>
          <Link className="btn btn--outline-light btn--lg" to="/#vacancies">
            View Current Opportunities <ArrowRightIcon size={18} />
          </Link>
        </div>
        <p className="home-hero__aside">
          Hiring? <Link to="/contact#enquiry">Start a Conversation</Link> or{' '}
          <Link to="/contact#enquiry">Book a Free Hiring Audit</Link>.
        </p>
      </div>
    </section>
  );
}
