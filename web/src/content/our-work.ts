// The firm's work for /our-work: placements and search assignments, grouped by the four sectors (content/sectors.ts).
// Edit this file to add, change or remove an assignment; the page renders whatever is here, in this order.
// Confidential mandates describe the client instead of naming it (`client.confidential: true`, no company name in
// the quote's attribution). Name a client, or quote one, only with their written permission.
import type { SectorId } from './sectors';
import { testimonials, type Testimonial } from './site';

/** The service that delivered the assignment: an anchor of /services (services-data.ts ids). */
export type ServiceId = 'leadership-search' | 'advertised-campaigns' | 'embedded-recruitment' | 'success-based-recruitment' | 'insight-into-impact';

/** A client's words about the assignment; confidential clients are quoted by role only (no name, no company). */
export type ClientQuote = { quote: string; name?: string; role: string; company?: string };

/** The site's testimonial from `company` (site.ts), so a quote shown in two places has one source. */
function testimonialFrom(company: string): Testimonial {
  const found = testimonials.find((t) => t.company === company);
  if (!found) throw new Error(`our-work: no testimonial from ${company} in content/site.ts`);
  return found;
}

export type Assignment = {
  /** Unique, URL-safe: the anchor of the assignment on /our-work. */
  id: string;
  sector: SectorId;
  service: ServiceId;
  /** The role (or roles) filled, or the advisory work done. */
  title: string;
  /** A named client, or a description of a confidential one ("A UK real estate private equity fund"). */
  client: { name: string; confidential: boolean };
  location: string;
  year: number;
  brief: string;
  approach: string;
  outcome: string;
  /** Two or three short facts shown as figures (value first, e.g. "3 weeks" / "to a shortlist of three"). */
  facts: { value: string; label: string }[];
  quote?: ClientQuote;
};

export const serviceNames: Record<ServiceId, string> = {
  'leadership-search': 'Executive Search',
  'advertised-campaigns': 'Advertised Campaign',
  'embedded-recruitment': 'Hiring Partners',
  'success-based-recruitment': 'Success Based Recruitment',
  'insight-into-impact': 'Insight into Impact',
};

export const ourWorkIntro = {
  title: 'Searches finished, teams built',
  text: 'A selection of recent placements and search assignments across the four sectors we know best. Where a search was confidential we describe the client rather than name it; the clients we name have agreed to appear here.',
};

export const assignments: Assignment[] = [
  {
    id: 'head-of-land-northgate',
    sector: 'development-investment',
    service: 'leadership-search',
    title: 'Head of Land',
    client: { name: 'Northgate Capital', confidential: false },
    location: 'London and the South East',
    year: 2025,
    brief:
      'Replace a departing Head of Land without the market hearing about it, and find someone who could rebuild a strategic land pipeline of around 4,000 plots.',
    approach:
      'Run as a confidential search: we mapped land directors at housebuilders, promoters and developers across the region, spoke to those who fitted the brief without naming the client, and only disclosed it to people who signed up to the process.',
    outcome:
      'Three shortlisted candidates within three weeks; the client appointed a regional land director from a national housebuilder, who has since secured two outline consents.',
    facts: [
      { value: '3 weeks', label: 'to a shortlist of three' },
      { value: '96', label: 'people mapped in the market' },
    ],
    quote: testimonialFrom('Northgate Capital'),
  },
  {
    id: 'investment-director-logistics-fund',
    sector: 'development-investment',
    service: 'leadership-search',
    title: 'Investment Director, Logistics',
    client: { name: 'A UK real estate private equity fund', confidential: true },
    location: 'London',
    year: 2025,
    brief:
      'A new investment director to lead acquisitions for a logistics strategy, while the incumbent was still in post.',
    approach:
      'A discreet approach to transaction leads at listed REITs, pension-fund managers and specialist logistics platforms, with anonymised profiles shared until the client chose whom to meet.',
    outcome: 'Appointed in eleven weeks: an acquisitions lead from a listed REIT, who completed her first portfolio purchase within six months.',
    facts: [
      { value: '11 weeks', label: 'from brief to accepted offer' },
      { value: '4', label: 'candidates interviewed' },
    ],
    quote: {
      quote: 'The process was handled so quietly that our own team only heard about it on the day we announced the appointment.',
      role: 'Managing Partner',
    },
  },
  {
    id: 'property-team-benchmark-lumen',
    sector: 'in-house-head-office',
    service: 'insight-into-impact',
    title: 'Salary benchmarking and team structure for an in-house property team',
    client: { name: 'Lumen Workplace', confidential: false },
    location: 'Birmingham and Manchester',
    year: 2024,
    brief: 'Two regional property manager roles had stayed open for five months. The client wanted to know whether pay, the job design or the market was the problem.',
    approach:
      'We benchmarked pay and benefits against twelve comparable occupier and consultancy teams, interviewed the hiring managers and rewrote the two roles around the work that mattered.',
    outcome: 'Revised salary bands and two redesigned roles; both positions were then filled within seven weeks, at the benchmark rather than above it.',
    facts: [
      { value: '12', label: 'comparable teams benchmarked' },
      { value: '7 weeks', label: 'to fill both roles afterwards' },
    ],
    quote: testimonialFrom('Lumen Workplace'),
  },
  {
    id: 'head-of-estates-retailer',
    sector: 'in-house-head-office',
    service: 'leadership-search',
    title: 'Head of Estates',
    client: { name: 'A FTSE 250 retailer', confidential: true },
    location: 'Leeds',
    year: 2024,
    brief: 'Lead a portfolio of more than 400 stores through a wave of lease expiries and rent reviews, reporting to the Chief Financial Officer.',
    approach:
      'A search across retail and leisure occupiers and the lease-advisory teams of national surveying firms, assessing each candidate on negotiating record as well as portfolio size.',
    outcome: 'The appointed Head of Estates came from a national leisure operator and renegotiated the first 60 lease events within the year.',
    facts: [
      { value: '400+', label: 'stores in the portfolio' },
      { value: '60', label: 'lease events settled in year one' },
    ],
  },
  {
    id: 'asset-management-team-halden',
    sector: 'real-estate-services',
    service: 'embedded-recruitment',
    title: 'Asset and property management team, nine hires',
    client: { name: 'Halden Estates', confidential: false },
    location: 'London and Bristol',
    year: 2024,
    brief: 'Build out an asset and property management function for a growing third-party portfolio, with one partner handling every hire for a year.',
    approach:
      'A consultant embedded with the client two days a week: one employer story for every advert, a shared pipeline with the hiring managers and a single interview process for every role.',
    outcome: 'Nine hires over twelve months, from property managers to associate directors. Two of them now lead the asset management function.',
    facts: [
      { value: '9', label: 'hires in twelve months' },
      { value: '2', label: 'now lead the function' },
    ],
    quote: testimonialFrom('Halden Estates'),
  },
  {
    id: 'graduate-surveyors-osprey',
    sector: 'real-estate-services',
    service: 'advertised-campaigns',
    title: 'Graduate surveyors for the APC programme',
    client: { name: 'Osprey Asset Management', confidential: false },
    location: 'London, Reading and Cambridge',
    year: 2025,
    brief: 'Recruit a graduate intake for the firm’s RICS APC programme, with a wider mix of universities and backgrounds than previous years.',
    approach:
      'An advertised campaign on university careers services and property job boards, a short online exercise instead of CV screening, and an assessment day we ran with the client’s surveyors.',
    outcome: 'Six graduates hired from 240 applicants, from eleven different universities; all six are on the APC programme.',
    facts: [
      { value: '240', label: 'applicants' },
      { value: '6', label: 'graduates hired' },
    ],
    quote: {
      quote: 'The assessment day told us more in one morning than three rounds of CV reviews ever did.',
      name: 'Daniel Hughes',
      role: 'Associate Director',
      company: 'Osprey Asset Management',
    },
  },
  {
    id: 'contract-managers-carrick',
    sector: 'facilities-maintenance',
    service: 'success-based-recruitment',
    title: 'Regional contract managers for a hard FM mobilisation',
    client: { name: 'Carrick Facilities', confidential: false },
    location: 'Scotland and the North of England',
    year: 2025,
    brief: 'Three contract managers in place before a new hard FM contract went live, with ten weeks to go.',
    approach:
      'Success based recruitment with no fee until each manager started: shortlists from our FM network within ten days, interviews in one week per region.',
    outcome: 'All three contract managers started before the contract went live, and none of the placements needed the replacement guarantee.',
    facts: [
      { value: '3 of 3', label: 'started before go-live' },
      { value: '10 days', label: 'to the first shortlist' },
    ],
    quote: {
      quote: 'We went live with a full management team on day one, which on a mobilisation of that size is rare.',
      name: 'Siân Lloyd',
      role: 'Operations Director',
      company: 'Carrick Facilities',
    },
  },
  {
    id: 'head-of-building-safety-housing',
    sector: 'facilities-maintenance',
    service: 'leadership-search',
    title: 'Head of Building Safety',
    client: { name: 'A national housing association', confidential: true },
    location: 'Midlands',
    year: 2024,
    brief: 'A new leadership role to bring fire and structural safety for more than 90 higher-risk buildings into line with the Building Safety Act 2022.',
    approach:
      'A search across housing, fire engineering and facilities management, with a technical interview set by the client’s fire safety adviser.',
    outcome: 'The appointed Head of Building Safety came from a fire engineering consultancy and now leads the association’s safety cases for its higher-risk buildings.',
    facts: [
      { value: '90+', label: 'higher-risk buildings' },
      { value: '9 weeks', label: 'from brief to accepted offer' },
    ],
  },
];
