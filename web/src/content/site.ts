// The one file another firm edits to adopt this site: identity, contact details, external links, proof (testimonials,
// client logos). Every page reads these values; nothing else in the code names the firm.
// When adopting, also update the row in `public.site_settings` (sql/migrations/0150_site_settings.sql), which the
// database-rendered job pages and sitemap use for the same site URL and firm name.

export const site = {
  /** Registered trading name, used in titles, the footer, structured data and as the hiring organisation of confidential roles. */
  name: 'Cornerstone Property Search',
  shortName: 'Cornerstone',
  /** Absolute origin the site is published at (canonical links, Open Graph, sitemap, robots.txt). No trailing slash. */
  url: 'https://www.cornerstone-search.example',
  tagline: 'Executive search and recruitment for property and the built environment',
  description:
    'Cornerstone Property Search is a UK recruitment and executive-search firm for property, real estate and the built environment: leadership search, advertised campaigns, embedded hiring partners and talent advisory.',
  phone: { display: '020 7946 0321', href: 'tel:+442079460321' },
  email: 'talent@cornerstone-search.example',
  hours: 'Monday - Friday, 9am - 6pm',
  address: { locality: 'London', region: 'Greater London', country: 'GB' },
  social: {
    label: 'LinkedIn',
    url: 'https://www.linkedin.com/company/cornerstone-property-search',
  },
  founder: {
    name: 'Eleanor Marsh',
    role: 'Founder & Managing Director',
    profileUrl: 'https://www.linkedin.com/in/eleanor-marsh-property-search',
    portrait: { src: '/images/about/founder-placeholder.svg', width: 480, height: 600 },
  },
  /** External scheduling page for 15-30 minute consultations (opens in a new tab). */
  scheduling: { url: 'https://calendly.com/cornerstone-property-search/consultation', label: 'Book a call' },
  /** Hiring-partners partner site, linked from the header and the Hiring Partners service. */
  partner: {
    name: 'Foundry Hiring Partners',
    url: 'https://www.foundry-hiring-partners.example',
    logo: { src: '/images/partner-foundry.svg', width: 200, height: 48 },
  },
  /**
   * The legal entity behind the trading name, named in the terms of use (/terms). A UK company must show its registered
   * name, company number, place of registration and registered office on its website: fill these in when adopting the
   * site. Left empty here, the terms name the firm by its trading name and contact details only.
   */
  legal: {
    registeredName: null as string | null,
    companyNumber: null as string | null,
    registeredOffice: null as string | null,
  },
  charity: 'For every placement we make, we donate to Crisis, the national charity for people experiencing homelessness.',
  copyrightYear: 2025,
  logo: { src: '/images/logo.svg', width: 220, height: 40 },
  ogImage: { src: '/images/og-default.png', width: 1200, height: 630 },
} as const;

export type Testimonial = { quote: string; name: string; role: string; company: string };

/** Client testimonials; the home page shows the first two. */
export const testimonials: Testimonial[] = [
  {
    quote:
      'Cornerstone understood our development pipeline before we finished the briefing. They delivered a shortlist of three exceptional candidates for a confidential Head of Land role within three weeks, and our hire has transformed the team.',
    name: 'James Whitfield',
    role: 'Managing Director',
    company: 'Northgate Capital',
  },
  {
    quote:
      'We have used many agencies over the years; Cornerstone are the first who took the time to understand our culture. Every candidate they introduced was credible, and two of them now lead our asset management function.',
    name: 'Priya Raman',
    role: 'Head of People',
    company: 'Halden Estates',
  },
  {
    quote:
      'Their market insight on salaries and retention saved us from overpaying for the wrong profile. A genuinely consultative partner for our in-house property team.',
    name: 'Martin Okafor',
    role: 'Group Property Director',
    company: 'Lumen Workplace',
  },
];

export type ClientLogo = { name: string; logo: string; width: number; height: number };

/** Trusted By strip: 8 employers on desktop, the first 4 on mobile. Wordmarks are original SVGs in public/logos. */
export const clientLogos: ClientLogo[] = [
  { name: 'Halden Estates', logo: '/logos/halden-estates.svg', width: 160, height: 48 },
  { name: 'Northgate Capital', logo: '/logos/northgate-capital.svg', width: 160, height: 48 },
  { name: 'Arbour Living', logo: '/logos/arbour-living.svg', width: 160, height: 48 },
  { name: 'Wexford Land', logo: '/logos/wexford-land.svg', width: 160, height: 48 },
  { name: 'Carrick Facilities', logo: '/logos/carrick-facilities.svg', width: 160, height: 48 },
  { name: 'Lumen Workplace', logo: '/logos/lumen-workplace.svg', width: 160, height: 48 },
  { name: 'Brightwater Homes', logo: '/logos/brightwater-homes.svg', width: 160, height: 48 },
  { name: 'Osprey Asset Management', logo: '/logos/osprey-asset-management.svg', width: 160, height: 48 },
];
