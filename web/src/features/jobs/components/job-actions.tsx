// The job page buttons: Apply Now (dialog), Save Job (signed-in candidates; others are asked to sign in), and
// 'Reach out to {name}' (mailto: the consultant).
import { useState } from 'react';
import { Link } from 'react-router';
import { Dialog } from '@/components/ui/dialog';
import { BookmarkIcon, MailIcon } from '@/components/ui/icons';
import { useToast } from '@/components/ui/toast';
import { site } from '@/content/site';
import { useAuth } from '@/lib/auth';
import { saveJob } from '../api/save-job';
import type { JobRow } from '@/lib/jobs/types';
import { ApplicationDialog } from './application-dialog';

export function JobActions({ job }: { job: JobRow }) {
  const [applyOpen, setApplyOpen] = useState(false);
  const [signInOpen, setSignInOpen] = useState(false);
  const [saving, setSaving] = useState(false);
  const { user } = useAuth();
  const { toast } = useToast();
  const contactName = job.consultant_name ?? 'our team';
  const contactEmail = job.consultant_email ?? site.email;

  const onSave = async () => {
    if (!user) {
      setSignInOpen(true);
      return;
    }
    setSaving(true);
    try {
      const result = await saveJob(user.id, job.id);
      toast({ title: result === 'saved' ? 'Job saved' : 'Already saved', description: 'Find it in your Career Hub.' });
    } catch (err) {
      toast({ title: 'Could not save job', description: err instanceof Error ? err.message : String(err), variant: 'destructive' });
    } finally {
      setSaving(false);
    }
  };

  return (
    <>
      <button type="button" className="btn btn--accent btn--block btn--lg" onClick={() => setApplyOpen(true)}>
        Apply Now
      </button>
      <button type="button" className="btn btn--outline btn--block" onClick={onSave} disabled={saving}>
        <BookmarkIcon size={18} /> Save Job
      </button>
      <a className="btn btn--ghost btn--block" href={`mailto:${contactEmail}?subject=${encodeURIComponent(`${job.title} (${job.job_id ?? job.id})`)}`}>
        <MailIcon size={18} /> Reach out to {contactName}
      </a>
      <ApplicationDialog open={applyOpen} onClose={() => setApplyOpen(false)} jobId={job.id} jobTitle={job.title} />
      <Dialog open={signInOpen} onClose={() => setSignInOpen(false)} title="Sign in to save jobs" size="sm" testId="save-signin-dialog">
        <p>Create a free Career Hub account or sign in to keep a shortlist of roles.</p>
        <Link to={`/career-hub/login?next=${encodeURIComponent(`/jobs/${job.id}`)}`} className="btn btn--primary btn--block">
          Sign in to the Career Hub
        </Link>
      </Dialog>
    </>
  );
}
