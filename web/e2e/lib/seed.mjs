// Test data for the gateway-backed suites (run as superuser on the suite's fresh database).
export const ACTIVE_JOB = '0b7e3f9a-1c2d-4e5f-8a9b-0c1d2e3f4a5b';
export const CLOSED_JOB = '1c8f4a0b-2d3e-4f6a-9b0c-1d2e3f4a5b6c';

export const seedJobsSql = `
insert into public.jobs (id, job_id, status, posted_date, closing_date, title, company, location, salary, salary_min, salary_max,
  type, sector, description, requirements, benefits, client_type, consultant_name, consultant_email) values
 ('${ACTIVE_JOB}', 'PPR-2001', 'active', '2026-11-20T09:00:00Z', '2026-12-31', 'Development Director', 'Confidential Developer',
  'Bristol', '£120,000 - £140,000', 120000, 140000, 'Senior Leadership', 'Development',
  E'Lead a £600m regeneration pipeline across the South West.\\n\\nReport to the CEO and sit on the board.',
  E'Residential-led mixed-use delivery\\nPlanning and viability expertise', '{"Car allowance","Bonus"}', 'confidential',
  'Amelia Hart', 'amelia.hart@example.com'),
 ('${CLOSED_JOB}', 'PPR-2002', 'closed', '2026-10-01T09:00:00Z', null, 'Closed Role', 'Acme Estates', 'Leeds', null, null, null,
  'Professional', null, 'Filled.', null, '{}', 'named', null, null),
 ('2d9a5b1c-3e4f-4a7b-8c1d-2e3f4a5b6c7d', 'PPR-2003', 'active', '2026-11-18T09:00:00Z', null, 'Senior Building Surveyor',
  'Halden Estates', 'London', '£70,000 - £80,000', 70000, 80000, 'Professional', null, 'Lead surveys.', null, '{}', 'named', null, null),
 ('3e0b6c2d-4f5a-4b8c-9d2e-3f4a5b6c7d8e', 'PPR-2004', 'active', '2026-11-19T09:00:00Z', null, 'Head of Asset Management',
  'Northgate Capital', 'Manchester', '£95,000', 95000, null, 'Management', null, 'Own the portfolio.', null, '{}', 'named', null, null);
`;

/** Two more active jobs and five featured rows (one with a custom title). */
export const seedFeaturedSql = `
insert into public.jobs (id, job_id, status, posted_date, title, company, location, salary, type) values
 ('4f1c7d3e-5a6b-4c9d-8e3f-4a5b6c7d8e9f', 'PPR-2005', 'active', '2026-11-10T09:00:00Z', 'Land Manager', 'Wexford Land', 'Oxford', '£65,000', 'Professional'),
 ('5a2d8e4f-6b7c-4d0e-9f4a-5b6c7d8e9f0a', 'PPR-2006', 'active', '2026-11-09T09:00:00Z', 'FM Contract Lead', 'Carrick Facilities', 'Leeds', null, 'Management');
insert into public.featured_jobs (job_id, custom_excerpt, custom_title, display_order) values
 ('${ACTIVE_JOB}', 'Lead a regeneration pipeline.', 'Director of Development (Confidential)', 0),
 ('2d9a5b1c-3e4f-4a7b-8c1d-2e3f4a5b6c7d', 'Surveying leadership.', null, 1),
 ('3e0b6c2d-4f5a-4b8c-9d2e-3f4a5b6c7d8e', 'Portfolio ownership.', null, 2),
 ('4f1c7d3e-5a6b-4c9d-8e3f-4a5b6c7d8e9f', 'Strategic land.', null, 3),
 ('5a2d8e4f-6b7c-4d0e-9f4a-5b6c7d8e9f0a', 'FM contracts.', null, 4);
`;
