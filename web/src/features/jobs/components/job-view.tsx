// The job page content. public.render_job_page (sql/migrations 0151, 0402, 0435, 0490) emits the same markup for the
// server-rendered page, so the browser's render replaces it without moving anything; web/e2e/job-page-twin.test.mjs
// fails when the two differ (text, headings, links): change both and run it.
import type { ReactNode } from 'react';
import { site } from '@/content/site';
import { EMPLOYMENT_TYPE_LABELS, WORK_ARRANGEMENT_LABELS } from '@/lib/job-vocabulary';
import { advertiserText, clientTypeLabel, descriptionParagraphs, jobReference, postedText, requirementList } from '@/lib/jobs/format';
import type { JobRow } from '@/lib/jobs/types';

/**
 * The description and requirements: the stored rendering (jobs.description_html / requirements_html, allowlisted by
 * the database; sql/README.md "Job text") in the wrappers public.job_description_html / job_requirements_html emit.
 * Built-in sample jobs have no stored rendering and show their plain text.
 */
function jobText(job: JobRow): { description: ReactNode; requirements: ReactNode } {
  if (job.description_html !== undefined || job.requirements_html !== undefined) {
    return {
      description: job.description_html ? <div className="job-text" dangerouslySetInnerHTML={{ __html: job.description_html }} /> : null,
      requirements: job.requirements_html ? <div className="job-text job-reqs" dangerouslySetInnerHTML={{ __html: job.requirements_html }} /> : null,
    };
  }
  const requirements = requirementList(job.requirements);
  return {
    description: descriptionParagraphs(job.description).map((p, i) => <p key={i}>{p}</p>),
    requirements: requirements.length ? (
      <ul className="job-reqs">
        {requirements.map((r, i) => (
          <li key={i}>{r}</li>
        ))}
      </ul>
    ) : null,
  };
}

export function JobView({ job, actions, children }: { job: JobRow; actions: ReactNode; children?: ReactNode }) {
  const posted = postedText(job);
  const text = jobText(job);
  const benefits = job.benefits ?? [];
  return (
    <div className="job-page" data-testid="job-page">
      <section className="page-hero job-hero">
        <div className="container">
          <div className="job-hero__meta">
            {job.type && <span className="badge badge--accent">{job.type}</span>}
            {posted && <span className="job-hero__posted">Posted {posted}</span>}
          </div>
          <h1 className="job-hero__title">{job.title}</h1>
          {job.company && <p className="job-hero__company">{job.company}</p>}
        </div>
      </section>
      <div className="container section job-layout">
        <aside className="job-sidebar card" aria-labelledby="job-details-title">
          <h2 id="job-details-title" className="job-sidebar__title">
            Role Details
          </h2>
          <dl className="job-facts">
            <div>
              <dt>Location</dt>
              <dd>{job.location ?? 'Not specified'}</dd>
            </div>
            {job.work_arrangement && (
              <div>
                <dt>Work arrangement</dt>
                <dd>{WORK_ARRANGEMENT_LABELS[job.work_arrangement]}</dd>
              </div>
            )}
            {job.employment_type && (
              <div>
                <dt>Job type</dt>
                <dd>{EMPLOYMENT_TYPE_LABELS[job.employment_type]}</dd>
              </div>
            )}
            <div>
              <dt>Salary</dt>
              <dd>{job.salary ?? 'Competitive'}</dd>
            </div>
            <div>
              <dt>Benefits</dt>
              <dd>
                {benefits.length ? (
                  <ul className="job-benefits">
                    {benefits.map((b) => (
                      <li key={b}>{b}</li>
                    ))}
                  </ul>
                ) : (
                  'Discussed at interview'
                )}
              </dd>
            </div>
            <div>
              <dt>Type of Client</dt>
              <dd>{clientTypeLabel(job.client_type)}</dd>
            </div>
            <div>
              <dt>Job ID</dt>
              <dd>{jobReference(job)}</dd>
            </div>
          </dl>
          <div className="job-actions">{actions}</div>
          <p className="job-advertiser" data-testid="job-advertiser">
            {advertiserText(job.employment_type ?? null, site.name)}
          </p>
        </aside>
        <div className="job-main">
          <section className="job-block" aria-labelledby="job-about-title">
            <h2 id="job-about-title">About the Role</h2>
            {text.description}
          </section>
          {text.requirements && (
            <section className="job-block" aria-labelledby="job-req-title">
              <h2 id="job-req-title">Requirements</h2>
              {text.requirements}
            </section>
          )}
        </div>
      </div>
      {children}
    </div>
  );
}
