// The public routes and texts from the spec each must show (spec §2), for the route and accessibility suites.
export const SITE_NAME = 'Cornerstone Property Search';

export const publicRoutes = [
  { path: '/', texts: ['Send Your CV', 'Trusted By Leading Employers', 'Why Work With Us', 'Market Intelligence', 'Latest Vacancies'] },
  { path: '/services', texts: ['Contact Our Team', 'Book a Free Hiring Audit'] },
  { path: '/contact', texts: ['Monday - Friday, 9am - 6pm', 'Book a Call'] },
  { path: '/clients/developer-investor', texts: ['Start a Conversation', 'View Current Opportunities'] },
  { path: '/clients/service-provider', texts: ['Start a Conversation'] },
  { path: '/clients/corporate-in-house', texts: ['Start a Conversation'] },
  { path: '/candidates', texts: ['Support That Grows With You', 'Latest Vacancies'] },
  { path: '/career-support', texts: ['Departure Lounge Call'] },
  { path: '/career-hub', texts: ['CV Builder Wizard', 'Professional Templates', 'Expert Guidance', 'Get Started Free'] },
  { path: '/insights', texts: ['Industry Insights', 'Latest Insights'] },
  { path: '/insights/evolving-asset-manager-2025', texts: ['Investigating the Evolving Role of the Property Asset Manager in 2025', 'Related Articles'] },
  { path: '/insights/hybrid-working-property', texts: ['Office Occupancy on the Rise but Hybrid Working is Here to Stay', 'Related Articles'] },
  { path: '/about', texts: ['It starts with a conversation.'] },
  { path: '/privacy', texts: ['Six Points That Secure Your Data'] },
  { path: '/terms', texts: ['Website Terms of Use', 'Governing law', 'England and Wales'] },
  { path: '/our-work', texts: ['Our Work', 'Development & Investment', 'In-House / Head Office', 'Real Estate Services', 'Facilities & Maintenance', 'Start a Conversation'] },
];
