-- Digest benchmark: :alerts confirmed alerts (a mix of searches) confirmed a day ago and never sent (psql variable).
insert into public.job_alerts (email, status, frequency, q, location, sectors, regions, employment_types,
  consent_text, consent_at, confirmed_at, created_at)
select 'bench' || n || '@example.org', 'active', case when n % 4 = 0 then 'weekly' else 'daily' end::public.alert_frequency,
  case n % 5 when 0 then 'surveyor' when 1 then 'manager' when 2 then 'engineer' else null end,
  case when n % 7 = 0 then 'London' end,
  case when n % 3 = 0 then array[(array['Construction', 'Consultancy', 'Housing'])[1 + n % 3]] end,
  case when n % 5 = 3 then array[(array['North West', 'Scotland', 'Wales'])[1 + n % 3]]::public.uk_region[] end,
  case when n % 2 = 0 then array['permanent']::public.employment_type[] end,
  'I agree to receive job alert e-mails (benchmark).', now() - interval '1 day', now() - interval '1 day',
  now() - interval '1 day'
from generate_series(1, :alerts) n;
