// Apply Now: the application form in a dialog. Checks the CV (PDF/DOC/DOCX, 10 MB) before uploading, submits for real
// (CV to storage, then the application row), shows the spec's toasts, and clears and closes on success.
import { useRef, useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { Dialog } from '@/components/ui/dialog';
import { UploadIcon } from '@/components/ui/icons';
import { useToast } from '@/components/ui/toast';
import { checkCv, submitApplication } from '../api/submit-application';

type Props = { open: boolean; onClose: () => void; jobId: string; jobTitle: string };

const empty = { firstName: '', lastName: '', email: '', phone: '', coverLetter: '' };

export function ApplicationDialog({ open, onClose, jobId, jobTitle }: Props) {
  const { toast } = useToast();
  const [fields, setFields] = useState(empty);
  const [cv, setCv] = useState<File | null>(null);
  const [consent, setConsent] = useState(false);
  const [submitting, setSubmitting] = useState(false);
  const fileRef = useRef<HTMLInputElement>(null);

  const set = (k: keyof typeof empty) => (e: { target: { value: string } }) => setFields((f) => ({ ...f, [k]: e.target.value }));

  const reset = () => {
    setFields(empty);
    setCv(null);
    setConsent(false);
    if (fileRef.current) fileRef.current.value = '';
  };

  const onFile = (file: File | null) => {
    if (!file) {
      setCv(null);
      return;
    }
    const problem = checkCv(file);
    if (problem) {
      if (fileRef.current) fileRef.current.value = '';
      setCv(null);
      toast(
        problem === 'type'
          ? { title: 'Invalid file type', description: 'Please upload a PDF or Word document', variant: 'destructive' }
          : { title: 'File too large', description: 'Please upload a CV of 10MB or less', variant: 'destructive' },
      );
      return;
    }
    setCv(file);
  };

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    if (!cv || submitting) return;
    setSubmitting(true);
    try {
      await submitApplication({ jobId, ...fields, privacyConsent: consent, cv });
      toast({
        title: 'Application submitted successfully!',
        description: "We'll review your application and get back to you soon.",
      });
      reset();
      onClose();
    } catch (err) {
      console.warn('Application failed:', err instanceof Error ? err.message : err);
      toast({ title: 'Error submitting application', description: 'Please try again later.', variant: 'destructive' });
    } finally {
      setSubmitting(false);
    }
  };

  return (
    <Dialog
      open={open}
      onClose={() => !submitting && onClose()}
      title={`Apply for ${jobTitle}`}
      description="Complete the form below and attach your CV. We will be in touch within 2 weeks."
      testId="application-dialog"
    >
      <form className="stack" onSubmit={onSubmit} aria-busy={submitting}>
        <div className="field-row">
          <div className="field">
            <label htmlFor="apply-first">First Name *</label>
            <input id="apply-first" name="firstName" required autoComplete="given-name" value={fields.firstName} onChange={set('firstName')} />
          </div>
          <div className="field">
            <label htmlFor="apply-last">Last Name *</label>
            <input id="apply-last" name="lastName" required autoComplete="family-name" value={fields.lastName} onChange={set('lastName')} />
          </div>
        </div>
        <div className="field-row">
          <div className="field">
            <label htmlFor="apply-email">Email *</label>
            <input id="apply-email" name="email" type="email" required autoComplete="email" value={fields.email} onChange={set('email')} />
          </div>
          <div className="field">
            <label htmlFor="apply-phone">Phone *</label>
            <input id="apply-phone" name="phone" type="tel" required autoComplete="tel" value={fields.phone} onChange={set('phone')} />
          </div>
        </div>
        <div className="field">
          <label htmlFor="apply-cover">Cover Letter (optional)</label>
          <textarea id="apply-cover" name="coverLetter" rows={4} value={fields.coverLetter} onChange={set('coverLetter')} />
        </div>
        <div className="field">
          <label htmlFor="apply-cv">CV *</label>
          <div className="file-drop">
            <UploadIcon size={20} />
            <input
              ref={fileRef}
              id="apply-cv"
              name="cv"
              type="file"
              required
              accept=".pdf,.doc,.docx,application/pdf,application/msword,application/vnd.openxmlformats-officedocument.wordprocessingml.document"
              aria-describedby="apply-cv-hint"
              onChange={(e) => onFile(e.target.files?.[0] ?? null)}
            />
          </div>
          <span id="apply-cv-hint" className="field__hint">
            PDF, DOC, or DOCX (max 10MB){cv ? ` — selected: ${cv.name}` : ''}
          </span>
        </div>
        <label className="checkbox" htmlFor="apply-consent">
          <input id="apply-consent" type="checkbox" required checked={consent} onChange={(e) => setConsent(e.target.checked)} />
          <span>
            I agree that my details and CV are processed to consider me for this and similar roles, as described in the{' '}
            <Link to="/privacy" target="_blank" rel="noopener">
              privacy notice<span className="visually-hidden"> (opens in a new tab)</span>
            </Link>
            . *
          </span>
        </label>
        <p className="field__hint">We aim to contact every applicant within 2 weeks.</p>
        <div className="btn-row">
          <button type="submit" className="btn btn--primary" disabled={!cv || submitting}>
            {submitting ? 'Submitting...' : 'Submit Application'}
          </button>
          <button type="button" className="btn btn--ghost" onClick={onClose} disabled={submitting}>
            Cancel
          </button>
        </div>
      </form>
    </Dialog>
  );
}
