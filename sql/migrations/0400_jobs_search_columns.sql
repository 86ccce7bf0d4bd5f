-- Vacancies 1/n (issue 24): the jobs columns public search, alerts, feeds and the editor share — work arrangement,
-- employment type (reg. 27's permanent/temporary), UK region (filled from the location), salary period, when a job
-- last went live, and a stemmed full-text vector — with the indexes the search at /jobs reads.
--
-- For the job editor (branch vac-admin) and imports, what each new column means:
--   work_arrangement  on-site | hybrid | remote; null = not stated. remote → JobPosting jobLocationType TELECOMMUTE.
--   employment_type   permanent | fixed-term | contract | interim | temporary; null = not stated (reg. 27(1) wants it
--                     stated before a job is advertised: permanent = permanent, every other value = temporary).
--                     The search's "Job type" filter, JobPosting employmentType and Indeed <jobtype> map from it.
--                     The older `type` column stays the spec's badge (Senior Leadership, Graduate, …).
--   region            one of the twelve UK ITL1 regions. Written by the editor/import, or, when left null (insert)
--                     or when only the location changes (update), looked up from the location's town.
--   salary_period     year | month | week | day | hour (default year): the unit of salary_min/salary_max (GBP).
--                     The search's salary band reads yearly figures only.
--   published_at      when the job last became active (set by a trigger on insert/update to status active; never
--                     written by clients). Job alerts and the RSS feed read "new" from it.
--   search_vector     generated: English-stemmed tsvector over title (A), company (B), requirements (C),
--                     description (D); "managers" finds "Manager".

create type public.work_arrangement as enum ('on-site', 'hybrid', 'remote');
comment on type public.work_arrangement is 'Where the work is done: on-site, hybrid or remote.';

create type public.employment_type as enum ('permanent', 'fixed-term', 'contract', 'interim', 'temporary');
comment on type public.employment_type is
  'The basis of the engagement. permanent is a permanent position under reg. 27(1) of the Conduct of Employment Agencies Regulations 2003; the others are temporary.';

create type public.uk_region as enum (
  'London', 'South East', 'South West', 'East of England', 'East Midlands', 'West Midlands',
  'Yorkshire and the Humber', 'North West', 'North East', 'Wales', 'Scotland', 'Northern Ireland');
comment on type public.uk_region is 'The twelve UK ITL1 regions (ONS), the search''s location facet.';

create type public.salary_period as enum ('year', 'month', 'week', 'day', 'hour');
comment on type public.salary_period is 'The unit of a salary figure (JobPosting unitText YEAR, MONTH, WEEK, DAY, HOUR).';

alter table public.jobs
  add column work_arrangement public.work_arrangement,
  add column employment_type public.employment_type,
  add column region public.uk_region,
  add column salary_period public.salary_period not null default 'year',
  add column published_at timestamptz,
  add column search_vector tsvector generated always as (
    setweight(to_tsvector('english'::regconfig, coalesce(title, '')), 'A')
    || setweight(to_tsvector('english'::regconfig, coalesce(company, '')), 'B')
    || setweight(to_tsvector('english'::regconfig, coalesce(requirements, '')), 'C')
    || setweight(to_tsvector('english'::regconfig, coalesce(description, '')), 'D')) stored;

comment on column public.jobs.work_arrangement is 'on-site, hybrid or remote; null = not stated. remote → JobPosting TELECOMMUTE.';
comment on column public.jobs.employment_type is
  'permanent, fixed-term, contract, interim or temporary (reg. 27: permanent vs temporary); the search''s Job type filter, JobPosting employmentType, Indeed jobtype. null = not stated.';
comment on column public.jobs.region is
  'UK region (ITL1). Left null on insert, or unchanged while the location changes, it is looked up from the location''s town (private.region_of).';
comment on column public.jobs.salary_period is 'Unit of salary_min/salary_max: year (default), month, week, day or hour.';
comment on column public.jobs.salary_min is 'GBP per salary_period (yearly by default); null when unknown.';
comment on column public.jobs.salary_max is 'GBP per salary_period (yearly by default); null when unknown.';
comment on column public.jobs.published_at is
  'When the job last became active (trigger; clients cannot set it). Job alerts and the RSS feed call a job new from it.';
comment on column public.jobs.search_vector is
  'Generated English-stemmed full-text vector: title (A), company (B), requirements (C), description (D).';

-- Existing rows: the basis where the old type names it, and live since they were posted.
update public.jobs set employment_type = case lower(btrim(type))
    when 'permanent' then 'permanent'::public.employment_type
    when 'contract' then 'contract'
    when 'interim' then 'interim'
    when 'temporary' then 'temporary'
    when 'fixed term' then 'fixed-term'
    when 'fixed-term' then 'fixed-term' end
  where employment_type is null;
update public.jobs set published_at = posted_date where status = 'active' and published_at is null;

/* ---------------------------------------------------------------------------------------------------------------
 * Towns → region: what fills jobs.region from a free-text location ("Manchester", "Canary Wharf, London").
 * --------------------------------------------------------------------------------------------------------------- */
create table private.uk_places (
  place text primary key check (place = lower(btrim(place)) and place <> ''),
  region public.uk_region not null
);
comment on table private.uk_places is 'UK towns, cities and areas (lower case) with their ITL1 region: fills jobs.region.';

insert into private.uk_places (place, region)
select lower(p), r::public.uk_region
from (values
  ('London', 'London'), ('City of London', 'London'), ('Central London', 'London'), ('Greater London', 'London'),
  ('Canary Wharf', 'London'), ('Westminster', 'London'), ('Mayfair', 'London'), ('Croydon', 'London'),
  ('Stratford', 'London'), ('Hammersmith', 'London'), ('Southwark', 'London'), ('Kingston upon Thames', 'London'),
  ('Uxbridge', 'London'), ('Ealing', 'London'), ('Camden', 'London'), ('Islington', 'London'), ('Richmond', 'London'),
  ('Reading', 'South East'), ('Oxford', 'South East'), ('Brighton', 'South East'), ('Southampton', 'South East'),
  ('Portsmouth', 'South East'), ('Guildford', 'South East'), ('Milton Keynes', 'South East'), ('Maidstone', 'South East'),
  ('Canterbury', 'South East'), ('Crawley', 'South East'), ('Slough', 'South East'), ('Basingstoke', 'South East'),
  ('Woking', 'South East'), ('Winchester', 'South East'), ('High Wycombe', 'South East'), ('Kent', 'South East'),
  ('Surrey', 'South East'), ('Sussex', 'South East'), ('Hampshire', 'South East'), ('Berkshire', 'South East'),
  ('Thames Valley', 'South East'),
  ('Bristol', 'South West'), ('Bath', 'South West'), ('Exeter', 'South West'), ('Plymouth', 'South West'),
  ('Bournemouth', 'South West'), ('Swindon', 'South West'), ('Gloucester', 'South West'), ('Cheltenham', 'South West'),
  ('Taunton', 'South West'), ('Truro', 'South West'), ('Poole', 'South West'), ('Devon', 'South West'),
  ('Cornwall', 'South West'), ('Somerset', 'South West'),
  ('Cambridge', 'East of England'), ('Norwich', 'East of England'), ('Ipswich', 'East of England'),
  ('Chelmsford', 'East of England'), ('Peterborough', 'East of England'), ('Luton', 'East of England'),
  ('St Albans', 'East of England'), ('Watford', 'East of England'), ('Colchester', 'East of England'),
  ('Stevenage', 'East of England'), ('Hertfordshire', 'East of England'), ('Essex', 'East of England'),
  ('Suffolk', 'East of England'), ('Norfolk', 'East of England'),
  ('Nottingham', 'East Midlands'), ('Leicester', 'East Midlands'), ('Derby', 'East Midlands'),
  ('Northampton', 'East Midlands'), ('Lincoln', 'East Midlands'), ('East Midlands', 'East Midlands'),
  ('Birmingham', 'West Midlands'), ('Coventry', 'West Midlands'), ('Wolverhampton', 'West Midlands'),
  ('Solihull', 'West Midlands'), ('Stoke-on-Trent', 'West Midlands'), ('Worcester', 'West Midlands'),
  ('Hereford', 'West Midlands'), ('Shrewsbury', 'West Midlands'), ('Telford', 'West Midlands'),
  ('Warwick', 'West Midlands'), ('Leamington Spa', 'West Midlands'), ('West Midlands', 'West Midlands'),
  ('Midlands', 'West Midlands'),
  ('Leeds', 'Yorkshire and the Humber'), ('Sheffield', 'Yorkshire and the Humber'),
  ('Bradford', 'Yorkshire and the Humber'), ('York', 'Yorkshire and the Humber'), ('Hull', 'Yorkshire and the Humber'),
  ('Wakefield', 'Yorkshire and the Humber'), ('Huddersfield', 'Yorkshire and the Humber'),
  ('Doncaster', 'Yorkshire and the Humber'), ('Harrogate', 'Yorkshire and the Humber'),
  ('Yorkshire', 'Yorkshire and the Humber'),
  ('Manchester', 'North West'), ('Greater Manchester', 'North West'), ('Liverpool', 'North West'),
  ('Salford', 'North West'), ('Preston', 'North West'), ('Warrington', 'North West'), ('Chester', 'North West'),
  ('Stockport', 'North West'), ('Bolton', 'North West'), ('Lancaster', 'North West'), ('Blackpool', 'North West'),
  ('Cheshire', 'North West'), ('Lancashire', 'North West'), ('Cumbria', 'North West'),
  ('Newcastle', 'North East'), ('Newcastle upon Tyne', 'North East'), ('Sunderland', 'North East'),
  ('Durham', 'North East'), ('Middlesbrough', 'North East'), ('Gateshead', 'North East'), ('Teesside', 'North East'),
  ('Cardiff', 'Wales'), ('Swansea', 'Wales'), ('Newport', 'Wales'), ('Wrexham', 'Wales'), ('Bangor', 'Wales'),
  ('Edinburgh', 'Scotland'), ('Glasgow', 'Scotland'), ('Aberdeen', 'Scotland'), ('Dundee', 'Scotland'),
  ('Inverness', 'Scotland'), ('Stirling', 'Scotland'), ('Perth', 'Scotland'),
  ('Belfast', 'Northern Ireland'), ('Derry', 'Northern Ireland'), ('Londonderry', 'Northern Ireland'),
  ('Lisburn', 'Northern Ireland'), ('Newry', 'Northern Ireland')
) as v(p, r)
union all
select lower(r::text), r from unnest(enum_range(null::public.uk_region)) as r
on conflict (place) do nothing;

alter table private.uk_places enable row level security;
revoke all on private.uk_places from public;

-- The region a free-text location names: its first comma- or slash-separated part that is a known place
-- ("Canary Wharf, London" → London; "Leeds / Remote" → Yorkshire and the Humber); null when none is.
create or replace function private.region_of(location text) returns public.uk_region
  language sql stable set search_path = ''
as $$
  select p.region
  from regexp_split_to_table(coalesce(location, ''), '\s*[,/;|(]\s*|\s*\)\s*|\s+-\s+') with ordinality as t(part, n)
  join private.uk_places p on p.place = lower(btrim(t.part))
  order by t.n
  limit 1
$$;
revoke all on function private.region_of(text) from public;
comment on function private.region_of(text) is 'The UK region of the first known place in a free-text location, else null.';

-- BEFORE INSERT OR UPDATE on jobs: published_at when the job (re)enters active; region from the location when the
-- writer left it out.
-- SECURITY DEFINER: writers (service_role, admins) have no access to schema private.
create or replace function private.jobs_fill_derived() returns trigger
  language plpgsql security definer set search_path = ''
as $$
begin
  if tg_op = 'INSERT' then
    new.published_at := case when new.status = 'active' then now() end;
    if new.region is null then
      new.region := private.region_of(new.location);
    end if;
  else
    if new.status = 'active' and old.status is distinct from 'active' then
      new.published_at := now();
    else
      new.published_at := old.published_at;
    end if;
    if new.location is distinct from old.location and new.region is not distinct from old.region then
      new.region := private.region_of(new.location);
    end if;
  end if;
  return new;
end;
$$;
revoke all on function private.jobs_fill_derived() from public;
comment on function private.jobs_fill_derived() is
  'Trigger: jobs.published_at (when the job last became active) and jobs.region from the location when not given.';

create trigger jobs_fill_derived before insert or update on public.jobs
  for each row execute function private.jobs_fill_derived();

update public.jobs set region = private.region_of(location) where region is null;
-- The update above re-ran the trigger, which keeps published_at; rows active before this migration keep posted_date.

/* ---------------------------------------------------------------------------------------------------------------
 * Indexes: the public search's keywords through the GIN index of live jobs (its newest-first order uses 0002's
 * (status, posted_date desc)); job alerts' and the RSS feed's "new since" through (published_at) of live jobs.
 * --------------------------------------------------------------------------------------------------------------- */
create index jobs_active_search_vector_idx on public.jobs using gin (search_vector) where status = 'active';
create index jobs_active_published_at_idx on public.jobs (published_at desc, id) where status = 'active';
