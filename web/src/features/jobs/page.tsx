// /jobs/{id}: one active job. The gateway serves the page rendered by public.render_job_page (status 200 or 404)
// with the job's data in data-ssr-job; the browser renders from that data without a request. After client-side
// navigation the job is fetched. Ids 1-3 fall back to the built-in sample jobs.
import { useEffect, useState } from 'react';
import { Link, useParams } from 'react-router';
import { useAuth } from '@/lib/auth';
import { Seo, absoluteUrl } from '@/lib/seo';
import { getActiveJob } from './api/get-job';
import { jobPostingJsonLd } from './api/job-posting';
import type { JobRow } from '@/lib/jobs/types';
import { ClosedJob, readClosedJob, type ClosedJobData } from './components/closed-job';
import { JobActions } from './components/job-actions';
import { JobView } from './components/job-view';
import { OtherOpportunities } from './components/other-opportunities';
import { findSampleJob } from '@/lib/jobs/sample-jobs';
import './jobs.css';

type State = { kind: 'loading' } | { kind: 'ready'; job: JobRow } | { kind: 'not-found' } | { kind: 'closed'; closed: ClosedJobData };

/** The data the server-rendered page carries for this id, if any. */
function readServerRendered(id: string): State | null {
  if (typeof document === 'undefined') return null;
  const el = document.querySelector<HTMLElement>('[data-ssr-job-id]');
  if (!el || el.dataset.ssrJobId !== id) return null;
  if (el.dataset.ssrStatus === '404' || !el.dataset.ssrJob) return null;
  try {
    return { kind: 'ready', job: JSON.parse(el.dataset.ssrJob) as JobRow };
  } catch {
    return null;
  }
}

function initialState(id: string): State {
  const sample = findSampleJob(id);
  if (sample) return { kind: 'ready', job: sample };
  const server = readServerRendered(id);
  if (server) return server;
  const closed = readClosedJob(id);
  if (closed) return { kind: 'closed', closed };
  if (typeof document !== 'undefined') {
    const el = document.querySelector<HTMLElement>('[data-ssr-job-id]');
    if (el?.dataset.ssrJobId === id && el.dataset.ssrStatus === '404') return { kind: 'not-found' };
  }
  return { kind: 'loading' };
}

export default function JobPage() {
  const { jobId = '' } = useParams();
  const { isAdmin } = useAuth();
  const [state, setState] = useState<State>(() => initialState(jobId));
  // The server-rendered data is only readable before the first commit replaces that markup: remember it per id.
  const [firstId] = useState(jobId);
  const [firstState] = useState(state);

  useEffect(() => {
    const start = jobId === firstId ? firstState : initialState(jobId);
    setState(start);
    if (start.kind !== 'loading') return;
    let live = true;
    getActiveJob(jobId)
      .then((job) => live && setState(job ? { kind: 'ready', job } : { kind: 'not-found' }))
      .catch((err: unknown) => {
        console.warn('Job load failed:', err instanceof Error ? err.message : err);
        if (live) setState({ kind: 'not-found' });
      });
    return () => {
      live = false;
    };
  }, [jobId, firstId, firstState]);

  const path = `/jobs/${jobId}`;
  if (state.kind === 'closed') return <ClosedJob path={path} closed={state.closed} />;
  if (state.kind === 'loading') {
    return (
      <>
        <Seo title="Loading role" description="Loading the role details." path={path} noindex />
        <section className="page-hero job-hero" aria-busy="true">
          <div className="container">
            <p>Loading...</p>
          </div>
        </section>
      </>
    );
  }
  if (state.kind === 'not-found') {
    return (
      <>
        <Seo title="Job Not Found" description="The job you're looking for doesn't exist." path={path} noindex />
        <section className="page-hero job-hero" data-testid="job-not-found" data-not-found>
          <div className="container">
            <h1>Job Not Found</h1>
            <p>The job you&apos;re looking for doesn&apos;t exist.</p>
            <Link to={isAdmin ? '/vacancies' : '/jobs'} className="btn btn--accent">
              Back to Vacancies
            </Link>
          </div>
        </section>
      </>
    );
  }
  const { job } = state;
  const isSample = findSampleJob(job.id) !== null;
  const description = `${job.title}${job.company ? ` at ${job.company}` : ''}${job.location ? `, ${job.location}` : ''}${
    job.salary ? ` (${job.salary})` : ''
  }. Apply online with ${'your CV'}.`;
  return (
    <>
      <Seo
        title={[job.title, job.location].filter(Boolean).join(' – ')}
        description={description}
        path={path}
        noindex={isSample}
        jsonLd={isSample ? undefined : jobPostingJsonLd(job, absoluteUrl(path))}
      />
      <JobView job={job} actions={<JobActions job={job} />}>
        <OtherOpportunities currentId={job.id} sample={isSample} />
      </JobView>
    </>
  );
}
