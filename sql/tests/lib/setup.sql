-- Shared fixtures for the pgTAP files (included with \ir after BEGIN; rolled back with the test).
-- Users: admin, cand1, cand2 (tests.uid(name)); jobs, featured jobs, profiles, views, CVs, saved jobs, uploaded
-- CV objects, an application.
-- Switch identity with tests.as_anon(), tests.as_user(name), tests.as_service(); go back to the owner with
-- tests.as_owner() (RESET ROLE works from any role).
set local client_min_messages = warning;

create schema tests;
grant usage on schema tests to public;

create function tests.uid(name text) returns uuid language sql immutable as $$
  select md5('pgtap-user-' || name)::uuid
$$;
create function tests.job(name text) returns uuid language sql immutable as $$
  select md5('pgtap-job-' || name)::uuid
$$;
create function tests.row(name text) returns uuid language sql immutable as $$
  select md5('pgtap-row-' || name)::uuid
$$;

create function tests.as_anon() returns void language sql as $$
  select set_config('role', 'anon', true), set_config('request.jwt.claims', '{"role":"anon"}', true);
$$;
create function tests.as_user(name text) returns void language sql as $$
  select set_config('role', 'authenticated', true),
         set_config('request.jwt.claims',
                    json_build_object('sub', tests.uid(name), 'role', 'authenticated', 'aud', 'authenticated')::text,
                    true);
$$;
create function tests.as_service() returns void language sql as $$
  select set_config('role', 'service_role', true), set_config('request.jwt.claims', '{"role":"service_role"}', true);
$$;
create function tests.as_owner() returns void language plpgsql as $$
begin
  reset role;
  perform set_config('request.jwt.claims', '', true);
end;
$$;

insert into auth.users (id, aud, role, email, email_confirmed_at, created_at, updated_at)
select tests.uid(n), 'authenticated', 'authenticated', n || '@pgtap.test', now(), now(), now()
from unnest(array['admin', 'cand1', 'cand2', 'admin2']) n;

insert into public.user_roles (user_id, role) values (tests.uid('admin'), 'admin'), (tests.uid('admin2'), 'admin');

insert into public.jobs (id, job_id, status, title, company, location, salary, type, posted_date) values
  (tests.job('active1'), 'T-1', 'active', 'Active one', 'Acme', 'London', '£50,000', 'Permanent', now() - interval '2 days'),
  (tests.job('active2'), 'T-2', 'active', 'Active two', 'Acme', 'Leeds', 'Competitive', 'Professional', now() - interval '1 day'),
  (tests.job('closed'), 'T-3', 'closed', 'Closed one', 'Acme', 'Bristol', null, 'Management', now() - interval '9 days'),
  (tests.job('draft'), 'T-4', 'draft', 'Draft one', 'Acme', 'Cardiff', null, 'Graduate', now());

insert into public.featured_jobs (id, job_id, is_active, custom_excerpt) values
  (tests.row('featured-active'), tests.job('active1'), true, 'Featured and live'),
  (tests.row('featured-off'), tests.job('active2'), false, 'Switched off'),
  (tests.row('featured-closed-job'), tests.job('closed'), true, 'Live flag but the job is closed');

insert into public.candidate_profiles (id, candidate_id, name, email, location, job_title, candidate_reference, details,
                                       status, source, external_id, slug) values
  (tests.row('profile-active'), 'CAND-T1', 'Alice Secret', 'alice@private.test', 'Secretville', 'Asset Manager',
   'Ref A', 'Public details', 'active', 'manual', 'manual-1', 'slug-active-0123456789abcdef'),
  (tests.row('profile-active2'), 'CAND-T2', 'Bob Secret', 'bob@private.test', 'Hiddenham', null,
   null, null, 'active', 'crm', 'crm-2', 'slug-active2-0123456789abcdef'),
  (tests.row('profile-inactive'), 'CAND-T3', 'Carol Secret', 'carol@private.test', 'Nowhere', 'Surveyor',
   null, 'Inactive details', 'inactive', 'manual', 'manual-3', 'slug-inactive-0123456789abcdef');

insert into public.profile_views (id, profile_id, user_id, user_agent) values
  (tests.row('view-anon'), tests.row('profile-active'), null, 'anon agent'),
  (tests.row('view-cand1'), tests.row('profile-active'), tests.uid('cand1'), 'cand1 agent'),
  (tests.row('view-admin'), tests.row('profile-active'), tests.uid('admin'), 'admin agent'),
  (tests.row('view-admin2'), tests.row('profile-active2'), tests.uid('admin2'), 'admin2 agent'),
  (tests.row('view-admin-inactive'), tests.row('profile-inactive'), tests.uid('admin'), 'admin agent');

insert into public.cv_documents (id, user_id, title, data) values
  (tests.row('cv-cand1'), tests.uid('cand1'), 'Cand1 CV', '{"summary": "one"}'),
  (tests.row('cv-cand2'), tests.uid('cand2'), 'Cand2 CV', '{"summary": "two"}');

insert into public.saved_jobs (user_id, job_id) values
  (tests.uid('cand1'), tests.job('active1')),
  (tests.uid('cand2'), tests.job('active1'));

-- The CVs the applications point at: an application must reference an object uploaded to bucket `cvs`
-- (sql/migrations/0100, 0101). As the owner, like the Storage API's row after an upload.
insert into storage.objects (bucket_id, name, metadata) values
  ('cvs', 'applications/ann.pdf', '{"mimetype": "application/pdf", "size": 1024}'),
  ('cvs', 'applications/vic.pdf', '{"mimetype": "application/pdf", "size": 1024}'),
  ('cvs', 'applications/c1.pdf', '{"mimetype": "application/pdf", "size": 1024}');

insert into public.applications (id, job_id, first_name, last_name, email, phone, cv_object, privacy_consent) values
  (tests.row('application'), tests.job('active1'), 'Ann', 'Applicant', 'ann@pgtap.test', '07700900000',
   'applications/ann.pdf', true);

insert into public.enquiries (id, kind, name, email, message) values
  (tests.row('enquiry'), 'contact', 'Erin Enquirer', 'erin@pgtap.test', 'Hello');
