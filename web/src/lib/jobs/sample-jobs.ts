// Built-in sample jobs (shown when the jobs list is empty or fails to load, and on /jobs/1 … /jobs/3, where 'Other
// Opportunities in Property' lists the other samples) and the two trending placeholders (spec §3; not real jobs).
import type { JobRow } from './types';

const base = {
  status: 'active',
  closing_date: null,
  salary_min: null,
  salary_max: null,
  external_id: null,
  hero_image: null,
  consultant_name: 'Eleanor Marsh',
  consultant_email: null,
} as const;

export const sampleJobs: JobRow[] = [
  {
    ...base,
    id: '1',
    job_id: 'SAMPLE-001',
    posted_date: null,
    posted: '2 days ago',
    title: 'Head of Development',
    company: 'Confidential Residential Developer',
    location: 'London',
    salary: '£110,000 - £130,000',
    type: 'Senior Leadership',
    sector: 'Development & Investment',
    client_type: 'confidential',
    description:
      'Lead the end-to-end delivery of a residential-led mixed-use pipeline across London and the South East, from land acquisition through planning, procurement and construction to handover.\n\nYou will build and lead a team of development managers, report to the managing director and sit on the investment committee.',
    requirements:
      'Track record delivering residential schemes of 200+ units\nStrong planning and viability knowledge\nExperience leading multidisciplinary teams\nDegree in a built-environment discipline',
    benefits: ['Car allowance', 'Bonus up to 30%', 'Private healthcare', 'Hybrid working'],
  },
  {
    ...base,
    id: '2',
    job_id: 'SAMPLE-002',
    posted_date: null,
    posted: '1 week ago',
    title: 'Senior Asset Manager',
    company: 'Northgate Capital',
    location: 'Manchester',
    salary: '£75,000 - £90,000',
    type: 'Professional',
    sector: 'Real Estate Services',
    client_type: 'named',
    description:
      'Drive income and capital growth across a £400m regional office and industrial portfolio, owning business plans, leasing strategy and capital expenditure.\n\nA visible role working closely with the fund manager and investors.',
    requirements:
      'MRICS or working towards\nCommercial asset management experience\nConfident financial modelling (Argus or Excel)',
    benefits: ['Bonus', 'Pension 8%', '27 days holiday'],
  },
  {
    ...base,
    id: '3',
    job_id: 'SAMPLE-003',
    posted_date: null,
    posted: '3 days ago',
    title: 'Facilities Manager',
    company: 'Carrick Facilities',
    location: 'Birmingham',
    salary: '£50,000 - £58,000',
    type: 'Management',
    sector: 'Facilities & Maintenance',
    client_type: 'named',
    description:
      'Run hard and soft services for a multi-let headquarters building, managing contractors, compliance and a small on-site team.',
    requirements: 'IWFM Level 4 or equivalent\nStatutory compliance knowledge\nContractor management',
    benefits: ['Bonus', 'Pension', 'Training budget'],
  },
];

/** Sample jobs the job page can show by numeric id. */
export function findSampleJob(id: string): JobRow | null {
  return sampleJobs.find((j) => j.id === id) ?? null;
}

export type TrendingCard = { kind: 'trending'; title: string; salary: string; summary: string };

export const trendingCards: TrendingCard[] = [
  {
    kind: 'trending',
    title: 'ESG & Sustainability Specialists',
    salary: '£40,000 - £120,000+',
    summary: 'Net-zero strategy, EPC upgrades and sustainability reporting roles are in demand across every asset class.',
  },
  {
    kind: 'trending',
    title: 'PropTech & Digital Specialists',
    salary: '£35,000 - £90,000+',
    summary: 'Data, building-technology and digital-transformation talent for owners, occupiers and consultancies.',
  },
];
