// 'Saved Jobs': jobs saved with Save Job on job pages, newest first; closed ones are marked, no longer linked, and
// shown as they last were in public.
import { Link } from 'react-router';
import { useToast } from '@/components/ui/toast';
import { listSavedJobs, removeSavedJob, formatDateTime } from '../api';
import { useQuery } from '@/lib/use-query';
import { FormError } from '@/components/ui/form-error';

export function SavedJobs() {
  const { data: items, error, refetch: reload } = useQuery(listSavedJobs, []);
  const { toast } = useToast();
  const remove = async (jobId: string, title: string) => {
    try {
      await removeSavedJob(jobId);
      toast({ title: 'Job removed', description: `${title} is no longer in your saved jobs.` });
      void reload();
    } catch (e) {
      toast({ title: 'Error', description: e instanceof Error ? e.message : String(e), variant: 'destructive' });
    }
  };
  return (
    <section className="card dash-card" aria-labelledby="saved-jobs-heading">
      <h2 id="saved-jobs-heading">Saved Jobs</h2>
      {error && <FormError message={error} />}
      {items === null && !error && <p className="muted">Loading...</p>}
      {items?.length === 0 && (
        <p className="muted">
          No saved jobs yet. Use Save Job on any <Link to="/#vacancies">vacancy</Link> to keep it here.
        </p>
      )}
      {items && items.length > 0 && (
        <ul className="dash-list" data-testid="saved-jobs">
          {items.map((job) => (
            <li key={job.job_id} className="dash-list__item">
              <div>
                {job.status === 'active' ? (
                  <Link to={`/jobs/${job.job_id}`} className="dash-list__title">
                    {job.title}
                  </Link>
                ) : (
                  <span className="dash-list__title">{job.title ?? 'A role no longer listed'}</span>
                )}{' '}
                {job.status === 'closed' && <span className="badge badge--outline">Closed</span>}
                <p className="dash-list__meta">
                  {[job.company, job.location, job.salary].filter(Boolean).join(' · ')} — saved {formatDateTime(job.saved_at)}
                </p>
              </div>
              <div className="dash-list__actions">
                <button type="button" className="btn btn--sm btn--ghost" aria-label={`Remove ${job.title ?? 'this role'} from saved jobs`} onClick={() => void remove(job.job_id, job.title ?? 'The role')}>
                  Remove
                </button>
              </div>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
