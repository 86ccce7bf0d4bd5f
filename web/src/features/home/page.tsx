// Home page (spec §1 and §2 Home): hero, Trusted By, sectors, Why Work With Us, Featured Opportunities, testimonials,
// the CV band, Market Intelligence, vacancies.
import { site } from '@/content/site';
import { VacanciesSection } from '@/components/vacancies/vacancies-section';
import { Seo } from '@/lib/seo';
import { FeaturedOpportunities } from './components/featured-opportunities';
import { Hero } from './components/hero';
import { CvBand, MarketIntelligence, Testimonials, WhyWorkWithUs } from './components/home-sections';
import { Sectors } from './components/sectors';
import { TrustedBy } from './components/trusted-by';
import './home.css';

export default function HomePage() {
  return (
    <>
      <Seo
        title={`${site.name} | Property & Built Environment Recruitment`}
        exactTitle
        description={site.description}
        path="/"
        jsonLd={{
          '@context': 'https://schema.org',
          '@type': 'WebSite',
          name: site.name,
          url: `${site.url}/`,
        }}
      />
      <Hero />
      <TrustedBy />
      <Sectors />
      <WhyWorkWithUs />
      <FeaturedOpportunities />
      <Testimonials />
      <CvBand />
      <MarketIntelligence />
      <VacanciesSection />
    </>
  );
}
