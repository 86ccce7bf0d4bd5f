// 'Other Opportunities in Property': up to three other live roles, newest first. On a page the server rendered they
// come with it (public.render_job_page, sql/migrations/0301: data-ssr-other-jobs), so the page needs no request; after
// client-side navigation they load when the section nears the viewport. Links must lead to real job pages, so no
// sample role is offered beside a real job; only the built-in sample jobs (shown when there are no jobs) list the
// other samples. With no other live role the section is not shown.
import { useEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import { MapPinIcon } from '@/components/ui/icons';
import { useNearViewport } from '@/lib/use-near-viewport';
import { getActiveJobs } from '@/lib/jobs/get-jobs';
import type { JobRow } from '@/lib/jobs/types';
import { sampleJobs } from '@/lib/jobs/sample-jobs';

export const OTHER_OPPORTUNITIES_MAX = 3;

type JobSummary = Pick<JobRow, 'id' | 'title' | 'company' | 'location' | 'salary' | 'type'>;

function others(jobs: JobSummary[], currentId: string): JobSummary[] {
  return jobs.filter((j) => j.id !== currentId).slice(0, OTHER_OPPORTUNITIES_MAX);
}

/** The other roles the server rendered with this job, read before the first render replaces its markup. */
function serverRendered(currentId: string): JobSummary[] | null {
  if (typeof document === 'undefined') return null;
  const el = document.querySelector<HTMLElement>('[data-ssr-other-jobs-for]');
  if (!el || el.dataset.ssrOtherJobsFor !== currentId) return null;
  try {
    return others(JSON.parse(el.dataset.ssrOtherJobs ?? '[]') as JobSummary[], currentId);
  } catch {
    return null;
  }
}

function useOtherJobs(currentId: string, sample: boolean, near: boolean): JobSummary[] | null {
  const [server] = useState(() => ({ id: currentId, jobs: serverRendered(currentId) }));
  const known = (id: string) => (sample ? others(sampleJobs, id) : id === server.id ? server.jobs : null);
  const [jobs, setJobs] = useState<JobSummary[] | null>(() => known(currentId));
  useEffect(() => {
    const ready = known(currentId);
    setJobs(ready);
    if (ready || !near) return;
    let live = true;
    getActiveJobs(OTHER_OPPORTUNITIES_MAX + 1)
      .then((rows) => live && setJobs(others(rows, currentId)))
      .catch((err: unknown) => {
        console.warn('Other opportunities failed to load:', err instanceof Error ? err.message : err);
        if (live) setJobs([]);
      });
    return () => {
      live = false;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- `known` reads only `sample` and the first render's data
  }, [currentId, sample, near]);
  return jobs;
}

function RoleCard({ job }: { job: JobSummary }) {
  return (
    <article className="card card--interactive">
      {job.type && <span className="badge">{job.type}</span>}
      <h3 className="card__title" style={{ marginTop: 'var(--sp-3)' }}>
        {job.title}
      </h3>
      <p className="card__meta">
        {job.company && <span>{job.company}</span>}
        {job.location && (
          <span>
            <MapPinIcon size={14} style={{ display: 'inline', verticalAlign: '-2px' }} /> {job.location}
          </span>
        )}
        {job.salary && <span>{job.salary}</span>}
      </p>
      <div className="card__footer">
        <Link to={`/jobs/${job.id}`} className="btn btn--outline btn--sm card__stretched">
          View Details<span className="visually-hidden">: {job.title}</span>
        </Link>
      </div>
    </article>
  );
}

export function OtherOpportunities({ currentId, sample }: { currentId: string; sample: boolean }) {
  const ref = useRef<HTMLElement>(null);
  const near = useNearViewport(ref);
  const jobs = useOtherJobs(currentId, sample, near);
  if (jobs !== null && jobs.length === 0) return null;
  return (
    <section ref={ref} className="section section--white" aria-labelledby="other-opps-title" aria-busy={near && jobs === null} data-testid="other-opportunities">
      <div className="container">
        <h2 id="other-opps-title">Other Opportunities in Property</h2>
        <div className="grid grid--3">{jobs?.map((j) => <RoleCard key={j.id} job={j} />)}</div>
      </div>
    </section>
  );
}
