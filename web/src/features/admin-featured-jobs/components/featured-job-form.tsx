// The add/edit form (spec §2, §5). Add needs a job and an excerpt; update needs an excerpt. Until then the button is
// disabled and the missing fields get a red border (once the form has been touched). Edit locks the job selector.
// Empty optional overrides are sent as null.
import { useId, useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { SECTOR_OPTIONS, TYPE_OPTIONS, type FeaturedFields, type JobOption } from '../api/featured-jobs';

export type FormValues = {
  jobId: string;
  excerpt: string;
  title: string;
  company: string;
  sector: string;
  location: string;
  salary: string;
  type: string;
};

export const EMPTY_FORM: FormValues = { jobId: '', excerpt: '', title: '', company: '', sector: '', location: '', salary: '', type: '' };

export function toFields(v: FormValues): FeaturedFields {
  const opt = (s: string) => (s.trim() ? s.trim() : null);
  return {
    custom_excerpt: v.excerpt.trim(),
    custom_title: opt(v.title),
    custom_company: opt(v.company),
    custom_sector: opt(v.sector),
    custom_location: opt(v.location),
    custom_salary: opt(v.salary),
    custom_type: opt(v.type),
  };
}

type Props = {
  mode: 'add' | 'edit';
  values: FormValues;
  onChange: (v: FormValues) => void;
  jobOptions: JobOption[];
  editingJobLabel?: string;
  saving: boolean;
  onSubmit: () => void;
  onCancel: () => void;
};

function TextField({ id, label, value, onChange, placeholder }: { id: string; label: string; value: string; onChange: (s: string) => void; placeholder?: string }) {
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input id={id} value={value} placeholder={placeholder} onChange={(e) => onChange(e.target.value)} />
    </div>
  );
}

export function FeaturedJobForm({ mode, values, onChange, jobOptions, editingJobLabel, saving, onSubmit, onCancel }: Props) {
  const id = useId();
  const [touched, setTouched] = useState(false);
  const set = (key: keyof FormValues) => (value: string) => {
    setTouched(true);
    onChange({ ...values, [key]: value });
  };
  const jobMissing = mode === 'add' && !values.jobId;
  const excerptMissing = !values.excerpt.trim();
  const valid = !jobMissing && !excerptMissing;
  const showErrors = touched || mode === 'edit';
  function submit(e: FormEvent) {
    e.preventDefault();
    setTouched(true);
    if (valid && !saving) onSubmit();
  }
  return (
    <form className="admin-form" onSubmit={submit} data-testid="featured-job-form" noValidate>
      <div className={`field${showErrors && jobMissing ? ' field--invalid' : ''}`}>
        <label htmlFor={`${id}-job`}>Job *</label>
        {mode === 'edit' ? (
          <select id={`${id}-job`} disabled value="editing">
            <option value="editing">{editingJobLabel}</option>
          </select>
        ) : (
          <select id={`${id}-job`} value={values.jobId} aria-invalid={showErrors && jobMissing} aria-describedby={`${id}-job-error`} onChange={(e) => set('jobId')(e.target.value)}>
            <option value="">Select a job to feature</option>
            {jobOptions.map((j) => (
              <option key={j.id} value={j.id}>
                {j.title} — {j.company}
                {j.job_id ? ` (${j.job_id})` : ''}
              </option>
            ))}
          </select>
        )}
        {showErrors && jobMissing && (
          <p id={`${id}-job-error`} className="field__error">
            Select a job
          </p>
        )}
        {mode === 'add' && jobOptions.length === 0 && <p className="field__hint">Every active job is already featured.</p>}
      </div>
      <div className={`field${showErrors && excerptMissing ? ' field--invalid' : ''}`}>
        <label htmlFor={`${id}-excerpt`}>Custom Excerpt *</label>
        <textarea
          id={`${id}-excerpt`}
          rows={3}
          value={values.excerpt}
          aria-invalid={showErrors && excerptMissing}
          aria-describedby={`${id}-excerpt-error`}
          placeholder="A short, compelling summary for the home page card"
          onChange={(e) => set('excerpt')(e.target.value)}
        />
        {showErrors && excerptMissing && (
          <p id={`${id}-excerpt-error`} className="field__error">
            Write an excerpt
          </p>
        )}
      </div>
      <div className="field-row">
        <TextField id={`${id}-title`} label="Custom Title" value={values.title} onChange={set('title')} placeholder="Leave empty to use the job's title" />
        <TextField id={`${id}-company`} label="Custom Company" value={values.company} onChange={set('company')} placeholder="Leave empty to use the job's company" />
      </div>
      <div className="field-row">
        <div className="field">
          <label htmlFor={`${id}-sector`}>Custom Sector</label>
          <select id={`${id}-sector`} value={values.sector} onChange={(e) => set('sector')(e.target.value)}>
            <option value="">No sector</option>
            {SECTOR_OPTIONS.map((s) => (
              <option key={s}>{s}</option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor={`${id}-type`}>Custom Type</label>
          <select id={`${id}-type`} value={values.type} onChange={(e) => set('type')(e.target.value)}>
            <option value="">Use the job's type</option>
            {TYPE_OPTIONS.map((t) => (
              <option key={t}>{t}</option>
            ))}
          </select>
        </div>
      </div>
      <div className="field-row">
        <TextField id={`${id}-location`} label="Custom Location" value={values.location} onChange={set('location')} placeholder="Leave empty to use the job's location" />
        <TextField id={`${id}-salary`} label="Custom Salary" value={values.salary} onChange={set('salary')} placeholder="Leave empty to use the job's salary" />
      </div>
      <div className="admin-form__actions">
        <Button type="submit" disabled={!valid || saving} aria-busy={saving} aria-describedby={valid ? undefined : `${id}-needs`}>
          {saving && <span className="spinner" aria-hidden="true" />}
          {mode === 'add' ? 'Add Featured Job' : 'Update Featured Job'}
        </Button>
        {mode === 'edit' && (
          <Button variant="outline" onClick={onCancel} disabled={saving}>
            Cancel
          </Button>
        )}
        {!valid && (
          <span id={`${id}-needs`} className="muted-small">
            {mode === 'add' ? 'Select a job and write an excerpt to add it.' : 'Write an excerpt to update it.'}
          </span>
        )}
      </div>
    </form>
  );
}
