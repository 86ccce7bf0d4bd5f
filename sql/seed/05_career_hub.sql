-- Demo content 5/5: the demo candidate's CV draft and saved job, two enquiries; then prints where to look.
insert into public.cv_documents (id, user_id, title, data)
values (
  md5('demo-cv-1')::uuid, '5eed0000-0000-4000-8000-000000000002', 'Asset management CV',
  '{"personalInfo": {"fullName": "Casey Candidate", "email": "candidate@example.com", "phone": "07700 900123",
    "location": "Manchester"},
    "summary": "Asset manager with eight years in industrial and logistics real estate.",
    "experience": [{"title": "Asset Manager", "company": "Harbourline Real Estate", "startDate": "2019-04",
      "endDate": "", "description": "Managed a £250m multi-let industrial portfolio."}],
    "education": [{"degree": "BSc Real Estate", "institution": "University of Reading", "year": "2016"}],
    "skills": "Argus, asset strategy, leasing, capex planning", "step": 4}'
) on conflict do nothing;

insert into public.saved_jobs (user_id, job_id)
values ('5eed0000-0000-4000-8000-000000000002', md5('demo-job-PPR-1002')::uuid)
on conflict do nothing;

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
