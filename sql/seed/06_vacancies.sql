-- Demo content 6: what the job search filters on for the demo jobs of 02_jobs.sql — the basis of each engagement
-- (reg. 27: permanent or temporary) and where the work is done. Development only. Idempotent: sets the same values.
update public.jobs j set employment_type = v.employment_type::public.employment_type,
                         work_arrangement = v.work_arrangement::public.work_arrangement
from (values
  ('PPR-1001', 'permanent', 'hybrid'), ('PPR-1002', 'permanent', 'hybrid'), ('PPR-1003', 'permanent', 'on-site'),
  ('PPR-1004', 'permanent', 'on-site'), ('PPR-1005', 'permanent', 'on-site'), ('PPR-1006', 'fixed-term', 'hybrid'),
  ('PPR-1007', 'contract', 'on-site'), ('PPR-1008', 'permanent', 'hybrid'), ('PPR-1009', 'permanent', 'on-site'),
  ('PPR-1010', 'permanent', 'hybrid'), ('PPR-1011', 'permanent', 'hybrid'), ('PPR-1012', 'interim', 'hybrid'),
  ('PPR-1013', 'contract', 'remote'), ('PPR-1014', 'permanent', 'on-site'), ('PPR-1015', 'permanent', 'remote'),
  ('PPR-1016', 'permanent', 'on-site'), ('PPR-1017', 'permanent', 'on-site'), ('PPR-1018', 'permanent', 'on-site'),
  ('PPR-1019', 'interim', 'on-site'), ('PPR-1020', 'permanent', 'hybrid')
) as v (job_id, employment_type, work_arrangement)
where j.job_id = v.job_id
  and (j.employment_type is distinct from v.employment_type::public.employment_type
       or j.work_arrangement is distinct from v.work_arrangement::public.work_arrangement);
