// The four sectors the firm recruits for (home page sector cards, /our-work groups its case studies by them).
// `id` is the anchor of the sector's section on /our-work; `to` is the client page that serves the sector.

export type SectorId = 'development-investment' | 'in-house-head-office' | 'real-estate-services' | 'facilities-maintenance';

export type Sector = { id: SectorId; title: string; text: string; image: string; to: string };

export const sectors: Sector[] = [
  {
    id: 'development-investment',
    title: 'Development & Investment',
    text: 'Land, development, funds and investment management: leaders who take schemes from acquisition to exit.',
    image: '/images/sectors/development-investment.svg',
    to: '/clients/developer-investor',
  },
  {
    id: 'in-house-head-office',
    title: 'In-House / Head Office',
    text: 'Corporate real estate, workplace and estates teams inside occupiers, retailers and public bodies.',
    image: '/images/sectors/in-house-head-office.svg',
    to: '/clients/corporate-in-house',
  },
  {
    id: 'real-estate-services',
    title: 'Real Estate Services',
    text: 'Agency, valuation, asset and property management, building consultancy and advisory firms.',
    image: '/images/sectors/real-estate-services.svg',
    to: '/clients/service-provider',
  },
  {
    id: 'facilities-maintenance',
    title: 'Facilities & Maintenance',
    text: 'Hard and soft FM, maintenance and compliance professionals keeping buildings safe and productive.',
    image: '/images/sectors/facilities-maintenance.svg',
    to: '/clients/service-provider',
  },
];
