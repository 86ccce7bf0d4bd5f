// 'Your data' (UK GDPR access and erasure, as the privacy notice promises): download everything the site holds about
// the candidate as one JSON file, or delete the account and the same data after typing DELETE. Both are SQL functions
// of the caller walking one registry of what is held (sql/migrations/0335).
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { Dialog } from '@/components/ui/dialog';
import { useToast } from '@/components/ui/toast';
import { useCandidateAuth } from '@/lib/candidate-auth';
import { downloadJson } from '@/lib/download';
import { deleteMyAccount, exportMyData } from '../api';

export function YourData() {
  const { signOut } = useCandidateAuth();
  const { toast } = useToast();
  const navigate = useNavigate();
  const [open, setOpen] = useState(false);
  const [typed, setTyped] = useState('');
  const [busy, setBusy] = useState(false);

  const onDownload = async () => {
    try {
      downloadJson(await exportMyData(), `my-career-hub-data-${new Date().toISOString().slice(0, 10)}.json`);
    } catch (e) {
      toast({ title: 'Error', description: e instanceof Error ? e.message : String(e), variant: 'destructive' });
    }
  };
  const onDelete = async () => {
    setBusy(true);
    try {
      await deleteMyAccount();
      await signOut('local');
      navigate('/career-hub', { replace: true });
      toast({ title: 'Account deleted', description: 'Your account and everything we held about you have been deleted.' });
    } catch (e) {
      toast({ title: 'Error', description: e instanceof Error ? e.message : String(e), variant: 'destructive' });
      setBusy(false);
    }
  };

  return (
    <section className="card dash-card" aria-labelledby="your-data-heading">
      <h2 id="your-data-heading">Your data</h2>
      <p className="muted">
        Download a copy of everything we hold about you: your account and sign-in sessions, CVs, saved jobs, uploaded files, the profiles you viewed, and the applications, enquiries and e-mails linked to your confirmed e-mail address. Or delete your account, which erases the same.
      </p>
      <div className="btn-row">
        <button type="button" className="btn btn--outline" onClick={() => void onDownload()}>
          Download my data
        </button>
        <button type="button" className="btn btn--ghost dash-danger" onClick={() => (setTyped(''), setOpen(true))}>
          Delete my account
        </button>
      </div>
      <Dialog open={open} onClose={() => !busy && setOpen(false)} title="Delete your account?" size="sm">
        <form
          className="stack"
          onSubmit={(e) => {
            e.preventDefault();
            if (typed === 'DELETE') void onDelete();
          }}
        >
          <p>This removes your account and everything we hold about you: your CVs, saved jobs and uploaded files, and the applications (with their CV files), enquiries and e-mails linked to your confirmed address. It cannot be undone.</p>
          <div className="field">
            <label htmlFor="delete-confirm">Type DELETE to confirm</label>
            <input id="delete-confirm" autoComplete="off" value={typed} onChange={(e) => setTyped(e.target.value)} />
          </div>
          <button type="submit" className="btn btn--primary dash-danger-fill" disabled={typed !== 'DELETE' || busy}>
            {busy ? 'Deleting...' : 'Delete my account'}
          </button>
        </form>
      </Dialog>
    </section>
  );
}
