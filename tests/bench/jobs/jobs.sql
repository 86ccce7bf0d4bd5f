-- Job search and digest benchmarks: :n live jobs (and a tenth as many closed ones) with varied titles, towns,
-- sectors, employment types, arrangements and pay (psql variables n and prefix; run as the owner).
insert into public.jobs (job_id, status, title, company, location, salary, salary_min, salary_max, type, sector,
  employment_type, work_arrangement, description, requirements, posted_date)
select 'BENCH-' || :'prefix' || '-' || n,
  case when n > :n then 'closed' else 'active' end,
  (array['Senior ', 'Junior ', 'Lead ', 'Assistant ', ''])[1 + n % 5]
    || (array['Site Manager', 'Quantity Surveyor', 'Building Surveyor', 'Project Manager', 'Architect',
              'Structural Engineer', 'Asset Manager', 'Facilities Manager', 'Town Planner', 'Estimator',
              'Contracts Manager', 'Sustainability Consultant', 'Property Manager', 'Valuer',
              'Health and Safety Advisor', 'Design Manager', 'Commercial Director', 'Land Buyer',
              'Lettings Negotiator', 'Mechanical Engineer'])[1 + (n / 5) % 20],
  'Firm ' || (n % 400),
  (array['London', 'Leeds', 'Manchester', 'Bristol', 'Birmingham', 'Glasgow', 'Cardiff', 'Belfast', 'Newcastle',
         'Nottingham', 'Cambridge', 'Reading'])[1 + (n / 3) % 12],
  '£' || (30 + n % 70) || ',000', (30 + n % 70) * 1000, (35 + n % 70) * 1000, 'Professional',
  (array['Construction', 'Consultancy', 'Property Management', 'Real Estate', 'Engineering', 'Housing'])[1 + (n / 7) % 6],
  (array['permanent', 'contract', 'temporary'])[1 + n % 3]::public.employment_type,
  (array['on-site', 'hybrid', 'remote'])[1 + (n / 2) % 3]::public.work_arrangement,
  'Join a growing team delivering ' || (array['residential', 'commercial', 'mixed-use', 'infrastructure', 'retrofit'])[1 + n % 5]
    || ' schemes. You will manage budgets, programmes and stakeholders, and report to the board. Hybrid working, '
    || 'pension, 25 days holiday and a clear route to chartership.',
  '- Relevant degree or equivalent experience' || E'\n' || '- Full UK driving licence',
  now() - make_interval(mins => n)
from generate_series(1, :n + :n / 10) n;
