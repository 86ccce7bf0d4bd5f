-- Demo content 4/5: a dozen anonymised candidate profiles (two inactive) and their views, some by the demo admin
-- (excluded from analytics, removable with Clear Admin Views). Idempotent: fixed ids; slugs are random at first load.
insert into public.candidate_profiles (
  id, candidate_id, name, email, location, job_title, candidate_reference, details, status, source, external_id
)
select md5('demo-candidate-' || c.candidate_id)::uuid, c.candidate_id, c.name, c.email, c.location, c.job_title,
       c.reference, c.details, c.status, 'manual', 'manual-demo-' || c.candidate_id
from (values
  ('CAND-2001', 'Olivia Bennett', 'olivia.bennett@example.com', 'London', 'Head of Residential Development',
   'Ref: OB-DEV-24', E'20 years in residential development, most recently leading a £600m pipeline.\n\nNotice period: 3 months.', 'active'),
  ('CAND-2002', 'James Okafor', 'james.okafor@example.com', 'Manchester', 'Senior Asset Manager',
   'Ref: JO-AM-11', E'MRICS asset manager with a logistics and industrial focus.\nManaged £750m AUM.', 'active'),
  ('CAND-2003', 'Hannah Clarke', 'hannah.clarke@example.com', 'Bristol', 'Building Surveyor',
   null, E'APC-qualified building surveyor; dilapidations and project monitoring.', 'active'),
  ('CAND-2004', 'Rajesh Patel', 'rajesh.patel@example.com', 'Birmingham', 'Facilities Director',
   'Ref: RP-FM-07', E'Led FM for a 40-site corporate estate. IWFM Fellow.', 'active'),
  ('CAND-2005', 'Sophie Turner', 'sophie.turner@example.com', 'Leeds', 'Planning Consultant',
   null, E'MRTPI with major residential and mixed-use consents in Yorkshire.', 'active'),
  ('CAND-2006', 'Daniel Murphy', 'daniel.murphy@example.com', 'Glasgow', null,
   null, E'Commercial property manager open to roles across Scotland.', 'active'),
  ('CAND-2007', 'Emily Walsh', 'emily.walsh@example.com', 'Cambridge', 'Development Director - Life Sciences',
   'Ref: EW-LS-03', E'Delivered 1m sq ft of laboratory space.\n\nBoard-ready.', 'active'),
  ('CAND-2008', 'Mohammed Hussain', 'mohammed.hussain@example.com', 'London', 'Investment Director',
   'Ref: MH-INV-19', E'Transactions of £1.2bn across office and living sectors.', 'active'),
  ('CAND-2009', 'Grace Evans', 'grace.evans@example.com', 'Cardiff', 'Head of Estates',
   null, E'Public-sector estates strategy and disposals.', 'active'),
  ('CAND-2010', 'Liam O''Connor', 'liam.oconnor@example.com', 'Southampton', 'Graduate Surveyor',
   null, E'BSc Real Estate (first class), on the APC pathway.', 'active'),
  ('CAND-2011', 'Charlotte Reid', 'charlotte.reid@example.com', 'Edinburgh', 'ESG Manager',
   'Ref: CR-ESG-02', E'GRESB submissions and net-zero pathways for three funds.', 'inactive'),
  ('CAND-2012', 'Thomas Wright', 'thomas.wright@example.com', 'Reading', 'Workplace Lead',
   null, E'Hybrid workplace programmes for a technology occupier.', 'inactive')
) as c (candidate_id, name, email, location, job_title, reference, details, status)
on conflict do nothing;

-- Views: anonymous and demo-candidate views count in analytics; the demo admin's views are excluded.
insert into public.profile_views (id, profile_id, viewed_at, user_id, user_agent, referrer)
select md5('demo-view-' || v.candidate_id || '-' || v.n)::uuid, md5('demo-candidate-' || v.candidate_id)::uuid,
       now() - make_interval(hours => v.hours_ago), v.user_id, v.user_agent, v.referrer
from (values
  ('CAND-2001', 1, 2, null::uuid, 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) Chrome/130.0', 'https://mail.example.com/'),
  ('CAND-2001', 2, 20, null, 'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) Safari/605.1.15', null),
  ('CAND-2001', 3, 50, null, 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5) Mobile/15E148', 'https://www.linkedin.com/'),
  ('CAND-2001', 4, 1, '5eed0000-0000-4000-8000-000000000001', 'Mozilla/5.0 (X11; Linux x86_64) Firefox/131.0', null),
  ('CAND-2002', 1, 5, null, 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) Edge/130.0', 'https://mail.example.com/'),
  ('CAND-2002', 2, 30, '5eed0000-0000-4000-8000-000000000002', 'Mozilla/5.0 (Macintosh) Chrome/130.0', null),
  ('CAND-2002', 3, 3, '5eed0000-0000-4000-8000-000000000001', 'Mozilla/5.0 (X11; Linux x86_64) Firefox/131.0', null),
  ('CAND-2004', 1, 72, null, 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) Chrome/130.0', null),
  ('CAND-2007', 1, 8, null, 'Mozilla/5.0 (iPad; CPU OS 17_5) Mobile/15E148', 'https://mail.example.com/'),
  ('CAND-2007', 2, 9, null, 'Mozilla/5.0 (iPad; CPU OS 17_5) Mobile/15E148', 'https://mail.example.com/'),
  ('CAND-2008', 1, 12, '5eed0000-0000-4000-8000-000000000001', 'Mozilla/5.0 (X11; Linux x86_64) Firefox/131.0', null),
  ('CAND-2011', 1, 200, null, 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) Chrome/128.0', null)
) as v (candidate_id, n, hours_ago, user_id, user_agent, referrer)
where exists (select 1 from public.candidate_profiles p where p.id = md5('demo-candidate-' || v.candidate_id)::uuid)
on conflict do nothing;
