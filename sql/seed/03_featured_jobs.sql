-- Demo content 3/5: featured jobs for the home page (five active, one switched off). Idempotent.
insert into public.featured_jobs (
  id, job_id, is_active, display_order, custom_excerpt, custom_title, custom_sector, custom_type, tags
)
select md5('demo-featured-' || f.job_ref)::uuid, md5('demo-job-' || f.job_ref)::uuid, f.is_active, f.display_order,
       f.excerpt, f.custom_title, f.custom_sector, f.custom_type, '{}'
from (values
  ('PPR-1001', true, 0, 'Lead a 1,500-home residential pipeline for a confidential London developer.', null, null, 'Permanent'),
  ('PPR-1003', true, 1, 'Join the executive team of a £2bn regeneration partnership in Manchester.', 'COO - Regeneration', 'Public Authority', null),
  ('PPR-1002', true, 2, 'Own the strategy for a £400m Midlands logistics portfolio.', null, null, null),
  ('PPR-1010', true, 3, 'Partner-level planning role with a clear route to equity.', null, 'Consultancy', null),
  ('PPR-1015', true, 4, 'Shape net-zero pathways for a £3bn real estate portfolio.', 'Head of Sustainability', null, 'Permanent'),
  ('PPR-1012', false, 5, 'In-house workplace leadership for a global technology company.', null, null, null)
) as f (job_ref, is_active, display_order, excerpt, custom_title, custom_sector, custom_type)
on conflict do nothing;
