// Create / Edit Candidate Profile dialog (spec §2, §5): the spec's labels and messages, candidate_id read-only when
// editing, 'Create Profile' / 'Update Profile' disabled with a spinner while saving. E-mail and location are kept for
// the admin search (internal, never shown on the public page).
import { useEffect, useId, useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import type { CandidateProfile, ProfileInput } from '../api/candidate-profiles';

type Values = { name: string; candidate_id: string; job_title: string; candidate_reference: string; details: string; email: string; location: string };
const EMPTY: Values = { name: '', candidate_id: '', job_title: '', candidate_reference: '', details: '', email: '', location: '' };

function fromProfile(p: CandidateProfile | null): Values {
  if (!p) return EMPTY;
  return {
    name: p.name,
    candidate_id: p.candidate_id,
    job_title: p.job_title ?? '',
    candidate_reference: p.candidate_reference ?? '',
    details: p.details ?? '',
    email: p.email ?? '',
    location: p.location ?? '',
  };
}

function toInput(v: Values): ProfileInput {
  const opt = (s: string) => (s.trim() ? s.trim() : null);
  return {
    name: v.name.trim(),
    candidate_id: v.candidate_id.trim(),
    job_title: opt(v.job_title),
    candidate_reference: opt(v.candidate_reference),
    details: v.details.trim() ? v.details : null,
    email: opt(v.email),
    location: opt(v.location),
  };
}

type Props = { open: boolean; editing: CandidateProfile | null; onClose: () => void; onSave: (input: ProfileInput) => Promise<boolean> };

export function ProfileDialog({ open, editing, onClose, onSave }: Props) {
  const id = useId();
  const [values, setValues] = useState<Values>(EMPTY);
  const [errors, setErrors] = useState<{ name?: string; candidate_id?: string }>({});
  const [saving, setSaving] = useState(false);
  useEffect(() => {
    if (open) {
      setValues(fromProfile(editing));
      setErrors({});
    }
  }, [open, editing]);
  const set = (key: keyof Values) => (e: { target: { value: string } }) => {
    setValues((v) => ({ ...v, [key]: e.target.value }));
    if (key === 'name' || key === 'candidate_id') setErrors((er) => ({ ...er, [key]: undefined }));
  };
  async function submit(e: FormEvent) {
    e.preventDefault();
    const found = {
      name: values.name.trim() ? undefined : 'Name is required (for internal use)',
      candidate_id: values.candidate_id.trim() ? undefined : 'Candidate ID is required',
    };
    setErrors(found);
    if (found.name || found.candidate_id) {
      document.getElementById(found.name ? `${id}-name` : `${id}-cid`)?.focus();
      return;
    }
    setSaving(true);
    const saved = await onSave(toInput(values));
    setSaving(false);
    if (saved) setValues(EMPTY);
  }
  const field = (key: 'name' | 'candidate_id', fieldId: string, label: string, readOnly = false) => (
    <div className={`field${errors[key] ? ' field--invalid' : ''}`}>
      <label htmlFor={fieldId}>{label}</label>
      <input
        id={fieldId}
        value={values[key]}
        onChange={set(key)}
        readOnly={readOnly}
        aria-invalid={Boolean(errors[key])}
        aria-describedby={errors[key] ? `${fieldId}-error` : readOnly ? `${fieldId}-hint` : undefined}
        required
      />
      {errors[key] && (
        <p id={`${fieldId}-error`} className="field__error">
          {errors[key]}
        </p>
      )}
      {readOnly && (
        <p id={`${fieldId}-hint`} className="field__hint">
          The candidate ID cannot be changed.
        </p>
      )}
    </div>
  );
  return (
    <Dialog
      open={open}
      onClose={onClose}
      title={editing ? 'Edit Candidate Profile' : 'Create Candidate Profile'}
      description={editing ? 'Update the candidate profile details' : 'Add a new candidate profile to share with clients'}
      testId="profile-dialog"
    >
      <form className="admin-form" onSubmit={(e) => void submit(e)} noValidate>
        {field('name', `${id}-name`, 'Candidate Name (Internal Use Only) *')}
        {field('candidate_id', `${id}-cid`, 'Candidate ID *', Boolean(editing))}
        <div className="field-row">
          <div className="field">
            <label htmlFor={`${id}-title`}>Job Title</label>
            <input id={`${id}-title`} value={values.job_title} onChange={set('job_title')} />
          </div>
          <div className="field">
            <label htmlFor={`${id}-ref`}>Candidate Reference</label>
            <input id={`${id}-ref`} value={values.candidate_reference} onChange={set('candidate_reference')} />
          </div>
        </div>
        <div className="field-row">
          <div className="field">
            <label htmlFor={`${id}-email`}>Email (Internal Use Only)</label>
            <input id={`${id}-email`} type="email" value={values.email} onChange={set('email')} />
          </div>
          <div className="field">
            <label htmlFor={`${id}-location`}>Location (Internal Use Only)</label>
            <input id={`${id}-location`} value={values.location} onChange={set('location')} />
          </div>
        </div>
        <div className="field">
          <label htmlFor={`${id}-details`}>Profile Details</label>
          <textarea id={`${id}-details`} className="textarea--tall" value={values.details} onChange={set('details')} />
        </div>
        <div className="btn-row admin-dialog__actions">
          <Button variant="outline" onClick={onClose} disabled={saving}>
            Cancel
          </Button>
          <Button type="submit" disabled={saving} aria-busy={saving}>
            {saving && <span className="spinner" aria-hidden="true" />}
            {editing ? 'Update Profile' : 'Create Profile'}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
