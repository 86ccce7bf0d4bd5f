// /clients/developer-investor (spec §1: four service cards).
import { testimonials } from '@/content/site';
import { CardGrid, ClientPage } from './client-page';

const SERVICES = [
  { title: 'Executive Search', text: 'Confidential searches for heads of development, investment directors, fund managers and board appointments.' },
  { title: 'Development & Delivery Teams', text: 'Development managers, project directors, land and planning specialists who take schemes from site to completion.' },
  { title: 'Investment & Asset Management', text: 'Asset managers, analysts and transaction specialists who create value across the hold period.' },
  { title: 'Talent Advisory', text: 'Salary benchmarking, team structure and retention strategy as your platform grows or reshapes.' },
];

export default function DeveloperInvestorPage() {
  return (
    <ClientPage
      path="/clients/developer-investor"
      metaTitle="Developers & Investors"
      description="Recruitment and executive search for property developers, investors, funds and land promoters: leadership, development, investment and asset-management hires."
      eyebrow="Developers & Investors"
      title="The people who turn land and capital into places"
      intro="We recruit for developers, investors, funds and land promoters across every stage of the development cycle, from acquisition and planning to delivery, asset management and exit."
      testimonial={testimonials[0]}
      closingTitle="Planning your next appointment?"
      closingText="Tell us about the scheme, the fund or the team you are building."
    >
      <CardGrid id="developer-services" eyebrow="How we help" title="Services for developers and investors" items={SERVICES} />
    </ClientPage>
  );
}
