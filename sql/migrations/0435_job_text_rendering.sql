-- Vacancies (issue 24, editor 6/6): the job page, JobPosting and the feeds show the one stored rendering of a job's
-- text (0430: jobs.description_html / requirements_html — markdown-it's output from the editor and the CSV import,
-- the plain-text rendering for text sent without HTML, allowlisted whatever the writer). 0402 gave the page and the
-- feeds these two functions as their only way to a job's text; their bodies now read the stored HTML, the callers stay.
-- Each sits in a wrapper (class job-text; the requirements also keep the page's list class job-reqs), which the React
-- job page (web/src/features/jobs/components/job-view.tsx) renders the same way, with the same stored HTML inside.
set local client_min_messages = warning;

create or replace function public.job_description_html(job public.jobs) returns text
  language sql immutable set search_path = ''
as $$
  select coalesce('<div class="job-text">' || job.description_html || '</div>', '')
$$;
comment on function public.job_description_html(public.jobs) is
  'The job description as HTML: the stored rendering (jobs.description_html) in a job-text wrapper, or empty; what the job page, JobPosting and the feeds use.';

create or replace function public.job_requirements_html(job public.jobs) returns text
  language sql immutable set search_path = ''
as $$
  select coalesce('<div class="job-text job-reqs">' || job.requirements_html || '</div>', '')
$$;
comment on function public.job_requirements_html(public.jobs) is
  'The job requirements as HTML (the stored rendering, jobs.requirements_html, in a job-text job-reqs wrapper), or empty.';

-- JobPosting and the feeds take description and requirements together from public.job_full_html (0402), which now
-- reads the stored rendering; 0430's public.job_posting_description did the same and goes.
drop function public.job_posting_description(public.jobs);
