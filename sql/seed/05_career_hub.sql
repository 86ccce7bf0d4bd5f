-- Demo content 5/5: the demo candidate's CV (two positions, two qualifications) and saved jobs (one since closed),
-- two enquiries; then prints where to look.
insert into public.cv_documents (id, user_id, title, data)
values (
  md5('demo-cv-1')::uuid, '5eed0000-0000-4000-8000-000000000002', 'Asset management CV',
  '{"personalInfo": {"fullName": "Casey Candidate", "email": "candidate@example.com", "phone": "07700 900123",
    "location": "Manchester"},
    "summary": "Asset manager with eight years in industrial and logistics real estate, leading business plans, leasing and capital projects across multi-let portfolios in the North West.",
    "experience": [
      {"id": "demo-exp-1", "title": "Asset Manager", "company": "Harbourline Real Estate", "startDate": "2019-04",
       "endDate": "", "description": "Managed a £250m multi-let industrial portfolio.\nLifted the portfolio''s rent roll by 18% through lease re-gears and asset management initiatives."},
      {"id": "demo-exp-2", "title": "Assistant Asset Manager", "company": "Pennine Property Partners", "startDate": "2016-09",
       "endDate": "2019-03", "description": "Supported business plans for a £120m logistics fund and ran the capex programme."}],
    "education": [
      {"id": "demo-edu-1", "degree": "MSc Real Estate", "institution": "University of Reading", "year": "2016"},
      {"id": "demo-edu-2", "degree": "BA Geography", "institution": "University of Leeds", "year": "2014"}],
    "skills": "Argus Enterprise, asset strategy, leasing, capex planning, stakeholder management", "step": 4,
    "template": "professional"}'
) on conflict do nothing;

-- Two saved jobs: one live, one that has since closed (saved while it was open; the dashboard marks it closed and
-- shows it as it was in public: the closed job is opened for the save and closed again, on the first load only).
drop table if exists pg_temp.seed_reopened;
create temporary table seed_reopened on commit drop as
with reopened as (
  update public.jobs j set status = 'active'
   where j.id = md5('demo-job-PPR-1017')::uuid and j.status = 'closed'
     and not exists (select 1 from public.saved_jobs s where s.job_id = j.id and s.user_id = '5eed0000-0000-4000-8000-000000000002')
  returning j.id)
select id from reopened;
insert into public.saved_jobs (user_id, job_id, created_at)
values ('5eed0000-0000-4000-8000-000000000002', md5('demo-job-PPR-1002')::uuid, now() - interval '1 day'),
       ('5eed0000-0000-4000-8000-000000000002', md5('demo-job-PPR-1017')::uuid, now() - interval '20 days')
on conflict do nothing;
update public.jobs set status = 'closed' where id in (select id from seed_reopened);

insert into public.enquiries (id, kind, name, email, phone, company, message, source_page, created_at)
values
  (md5('demo-enquiry-1')::uuid, 'hiring-audit', 'Morgan Lee', 'morgan.lee@example.com', '0161 496 0000',
   'Northbank Developments', 'We would like to book the free hiring audit for our development team.',
   '/services', now() - interval '2 days'),
  (md5('demo-enquiry-2')::uuid, 'contact', 'Jordan Price', 'jordan.price@example.com', null, null,
   'Please call me about senior asset management roles in the North West.', '/contact', now() - interval '5 hours')
on conflict do nothing;

do $$
declare
  link text;
begin
  select '/profile/' || slug into link from public.candidate_profiles
  where id = md5('demo-candidate-CAND-2001')::uuid;
  raise notice 'demo data: % jobs, % featured jobs, % candidate profiles, % profile views; a shared profile: %',
    (select count(*) from public.jobs), (select count(*) from public.featured_jobs),
    (select count(*) from public.candidate_profiles), (select count(*) from public.profile_views), link;
end
$$;
