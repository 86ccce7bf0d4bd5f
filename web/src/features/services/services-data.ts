// The five services (spec §1, §3 "Service": id, title, short and full description, features). Ids are the footer anchors.
export type Service = {
  id: string;
  title: string;
  short: string;
  full: string;
  features: string[];
  /** Enquiry kind preselected on the contact form by this service's call to action. */
  enquiryKind: 'client' | 'hiring-audit';
};

export const services: Service[] = [
  {
    id: 'leadership-search',
    title: 'Executive Search',
    short: 'Leadership, C-suite and board appointments, handled in confidence.',
    full: 'Our retained executive search finds the leaders who shape property businesses: managing directors, heads of department, C-suite and board members. We map the market, approach people who are not looking, and manage every conversation discreetly, so confidential mandates stay confidential from the first call to the signed offer.',
    features: [
      'Leadership, C-suite and board-level mandates',
      'Confidential searches and replacement hires',
      'Full market mapping and a referenced shortlist',
      'Structured assessment and interview support',
      'Offer negotiation and onboarding follow-up',
    ],
    enquiryKind: 'client',
  },
  {
    id: 'advertised-campaigns',
    title: 'Advertised Campaigns',
    short: 'Targeted campaigns that put your roles in front of the right people.',
    full: 'When a role benefits from reach, we run a branded advertised campaign: a compelling advert written with you, placed across specialist property job boards, our network and social channels, with every applicant screened by a consultant who understands the discipline before you see a CV.',
    features: [
      'Role and employer-brand copy written with you',
      'Specialist job boards, our network and social channels',
      'Consultant screening of every applicant',
      'A shortlist with interview notes and salary expectations',
      'Clear reporting on reach and response',
    ],
    enquiryKind: 'client',
  },
  {
    id: 'embedded-recruitment',
    title: 'Hiring Partners',
    short: 'Embedded recruitment: a long-term partner inside your hiring plan.',
    full: 'For growing teams with a steady hiring plan, we work as your embedded recruitment partner. We learn your business, plan hiring with you across the year, represent your brand in the market and agree fixed, predictable fees. It starts with a free hiring audit of your current process, time to hire and employer proposition.',
    features: [
      'Embedded recruitment with a dedicated consultant',
      'A long-term partnership across your hiring plan',
      'A free hiring audit to start',
      'Predictable fees agreed up front',
      'Quarterly reviews of hiring outcomes',
    ],
    enquiryKind: 'hiring-audit',
  },
  {
    id: 'success-based-recruitment',
    title: 'Success Based Recruitment',
    short: 'Contingency recruitment: no upfront fee, and a replacement guarantee.',
    full: 'Our contingency service means you pay only when you hire. There is no upfront fee, every candidate is interviewed and referenced against your brief, and each placement is backed by a replacement guarantee, so you can move quickly with confidence.',
    features: [
      'No upfront fee: you pay on a successful hire',
      'Candidates interviewed against your brief',
      'Replacement guarantee on every placement',
      'Fast shortlists from an active candidate network',
      'Support through offer and notice period',
    ],
    enquiryKind: 'client',
  },
  {
    id: 'insight-into-impact',
    title: 'Insight into Impact',
    short: 'Talent advisory: benchmarking, development, assessment and retention.',
    full: 'Insight into Impact is our talent advisory service. We help you pay fairly and competitively, develop the people you have, assess leadership potential and keep your best people, using live market data from our searches and campaigns.',
    features: [
      'Salary benchmarking against the live market',
      'Training and development plans',
      'Leadership assessment',
      'Reward and retention strategy',
      'Organisation design for growing teams',
    ],
    enquiryKind: 'client',
  },
];

/** The call-to-action label of each service (spec §2 /services). */
export function ctaLabel(service: Service): string {
  switch (service.id) {
    case 'advertised-campaigns':
      return "Let's Make Your Roles Shine";
    case 'success-based-recruitment':
      return "Let's Build Winning Teams Together";
    case 'leadership-search':
      return 'Discover Leaders Without Compromising Confidentiality';
    default:
      return `Get Started with ${service.title}`;
  }
}
