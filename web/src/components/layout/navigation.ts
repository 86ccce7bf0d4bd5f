// The header's four menu groups and the footer's link columns (spec §2 Header and Footer).
import { site } from '@/content/site';

export type NavLink =
  | { kind: 'internal'; label: string; to: string; description?: string }
  | { kind: 'external'; label: string; href: string; description?: string }
  | { kind: 'disabled'; label: string; note: string };

export type NavGroup = { id: string; label: string; links: NavLink[] } | { id: string; label: string; to: string };

export const INSIGHT_ARTICLES = [
  { slug: 'evolving-asset-manager-2025', title: 'The Evolving Property Asset Manager' },
  { slug: 'hybrid-working-property', title: 'Office Occupancy & Hybrid Working' },
] as const;

export const headerGroups: NavGroup[] = [
  {
    id: 'hire',
    label: 'Hire With Us',
    links: [
      { kind: 'internal', label: 'Our Services', to: '/services', description: 'Search, campaigns, partnerships, advisory' },
      { kind: 'internal', label: 'Developers & Investors', to: '/clients/developer-investor' },
      { kind: 'internal', label: 'Service Providers & Consultancies', to: '/clients/service-provider' },
      { kind: 'internal', label: 'Corporate In-House Teams', to: '/clients/corporate-in-house' },
      { kind: 'external', label: 'Hiring Partners', href: site.partner.url, description: `With ${site.partner.name}` },
    ],
  },
  {
    id: 'hired',
    label: 'Getting Hired',
    links: [
      { kind: 'internal', label: 'Career Hub', to: '/career-hub', description: 'CV builder and templates' },
      { kind: 'internal', label: 'Senior & Executive', to: '/career-support#senior-executive' },
      { kind: 'internal', label: 'Mid-Career', to: '/career-support#mid-career' },
      { kind: 'internal', label: 'Early Career', to: '/career-support#early-career' },
      { kind: 'internal', label: 'Current Vacancies', to: '/jobs', description: 'Search every live role' },
    ],
  },
  {
    id: 'inside',
    label: 'The Inside Track',
    links: [
      { kind: 'internal', label: 'All Insights', to: '/insights' },
      ...INSIGHT_ARTICLES.map((a) => ({ kind: 'internal' as const, label: a.title, to: `/insights/${a.slug}` })),
    ],
  },
  { id: 'matters', label: 'What Matters', to: '/about' },
];

export const adminLinks = [
  { label: 'Featured Jobs', to: '/admin/jobs' },
  { label: 'Profiles', to: '/admin/candidates' },
  { label: 'Vacancies', to: '/admin/vacancies' },
  { label: 'Applications', to: '/admin/applications' },
];

export const footerServices = [
  { label: 'Leadership Search', to: '/services#leadership-search' },
  { label: 'Advertised Campaigns', to: '/services#advertised-campaigns' },
  { label: 'Embedded Recruitment', to: '/services#embedded-recruitment' },
  { label: 'Success Based Recruitment', to: '/services#success-based-recruitment' },
  { label: 'Insight into Impact', to: '/services#insight-into-impact' },
];

export const footerSpecialisms = [
  { label: 'Developers & Investors', to: '/clients/developer-investor' },
  { label: 'Service Providers & Consultancies', to: '/clients/service-provider' },
  { label: 'Corporate In-House', to: '/clients/corporate-in-house' },
];

export const footerQuickLinks = [
  { label: 'About Us', to: '/about' },
  { label: 'Our Work', to: '/our-work' },
  { label: 'Insights', to: '/insights' },
  { label: 'Vacancies', to: '/#vacancies' },
  { label: 'Contact', to: '/contact' },
  { label: 'Privacy', to: '/privacy' },
];

export const footerBottomLinks = [
  { label: 'Privacy Policy', to: '/privacy' },
  { label: 'Terms', to: '/terms' },
  { label: 'Sitemap', to: '/sitemap.xml', document: true },
];
