// /clients/corporate-in-house (spec §1: a testimonial).
import { testimonials } from '@/content/site';
import { CardGrid, ClientPage } from './client-page';

const AREAS = [
  { title: 'Estates & Property Leadership', text: 'Heads of property, estates directors and portfolio managers who align real estate with business strategy.' },
  { title: 'Workplace & Facilities', text: 'Workplace strategists, facilities and building managers who run the spaces your people use every day.' },
  { title: 'Projects & Transactions', text: 'Project managers and transaction specialists for relocations, refurbishments, acquisitions and disposals.' },
];

export default function CorporateInHousePage() {
  return (
    <ClientPage
      path="/clients/corporate-in-house"
      metaTitle="Corporate In-House Property Teams"
      description="Recruitment for corporate in-house property, estates, workplace and facilities teams across the UK."
      eyebrow="Corporate In-House Teams"
      title="Property expertise inside your organisation"
      intro="Whether you run a national estate or a single head office, the right in-house property people protect one of your largest costs and shape how your organisation works."
      testimonial={testimonials[2]}
      closingTitle="Building your in-house team?"
      closingText="We will help you define the role, benchmark the package and find the right person."
    >
      <CardGrid id="corporate-areas" eyebrow="Where we help" title="Roles we recruit for in-house teams" items={AREAS} />
    </ClientPage>
  );
}
