// The job form: every field the jobs table holds, grouped as an advert is read, with each field's error beside it
// and a summary of them at the top (links that move focus to the field).
import type { ReactNode } from 'react';
import {
  CLIENT_TYPES,
  EMPLOYMENT_TYPE_LABELS,
  EMPLOYMENT_TYPES,
  JOB_TYPES,
  SALARY_PERIOD_LABELS,
  SALARY_PERIODS,
  SECTORS,
  UK_REGIONS,
  WORK_ARRANGEMENT_LABELS,
  WORK_ARRANGEMENTS,
  unchangedText,
  type EditorJob,
  type FieldErrors,
  type FieldName,
  type JobValues,
} from '../job-model';
import { MarkdownField } from './markdown-field';

export const fieldId = (name: FieldName) => `job-${name.replace(/_/g, '-')}`;

type Props = { values: JobValues; errors: FieldErrors; job: EditorJob | null; onChange: (name: FieldName, value: string | boolean) => void };

function Field({ name, label, errors, hint, children }: { name: FieldName; label: string; errors: FieldErrors; hint?: string; children: ReactNode }) {
  const error = errors[name];
  return (
    <div className={`field${error ? ' field--invalid' : ''}`}>
      <label htmlFor={fieldId(name)}>{label}</label>
      {hint && (
        <p id={`${fieldId(name)}-hint`} className="field__hint">
          {hint}
        </p>
      )}
      {children}
      {error && (
        <p id={`${fieldId(name)}-error`} className="field__error">
          {error}
        </p>
      )}
    </div>
  );
}

function aria(name: FieldName, errors: FieldErrors, hint = false) {
  const ids = [hint && `${fieldId(name)}-hint`, errors[name] && `${fieldId(name)}-error`].filter(Boolean).join(' ');
  return { id: fieldId(name), 'aria-invalid': Boolean(errors[name]), 'aria-describedby': ids || undefined };
}

export function ErrorSummary({ errors, general }: { errors: FieldErrors; general: string[] }) {
  const names = Object.keys(errors) as FieldName[];
  if (names.length === 0 && general.length === 0) return null;
  return (
    <div className="error-summary" role="alert" tabIndex={-1} id="job-error-summary" data-testid="job-error-summary">
      <h2>There is a problem</h2>
      <ul>
        {general.map((g) => (
          <li key={g}>{g}</li>
        ))}
        {names.map((n) => (
          <li key={n}>
            <a href={`#${fieldId(n)}`} onClick={(e) => (e.preventDefault(), document.getElementById(fieldId(n))?.focus())}>
              {errors[n]}
            </a>
          </li>
        ))}
      </ul>
    </div>
  );
}

export function JobForm({ values: v, errors, job, onChange }: Props) {
  const stored = (name: 'description' | 'requirements') => (unchangedText(v, job, name) ? (job?.[`${name}_html`] ?? null) : undefined);
  const text = (name: FieldName) => ({
    value: v[name] as string,
    onChange: (e: { target: { value: string } }) => onChange(name, e.target.value),
  });
  return (
    <>
      <fieldset className="admin-panel job-fieldset">
        <legend>The role</legend>
        <Field name="title" label="Job title *" errors={errors}>
          <input {...aria('title', errors)} {...text('title')} maxLength={300} required />
        </Field>
        <div className="field-row">
          <Field name="employment_type" label="Employment type (to publish) *" errors={errors} hint="Permanent or temporary work: every advert must say (reg. 27).">
            <select {...aria('employment_type', errors, true)} {...text('employment_type')}>
              <option value="">Choose…</option>
              {EMPLOYMENT_TYPES.map((t) => (
                <option key={t} value={t}>
                  {EMPLOYMENT_TYPE_LABELS[t]}
                </option>
              ))}
            </select>
          </Field>
          <Field name="work_arrangement" label="Work arrangement" errors={errors}>
            <select {...aria('work_arrangement', errors)} {...text('work_arrangement')}>
              <option value="">Not stated</option>
              {WORK_ARRANGEMENTS.map((w) => (
                <option key={w} value={w}>
                  {WORK_ARRANGEMENT_LABELS[w]}
                </option>
              ))}
            </select>
          </Field>
        </div>
        <div className="field-row">
          <Field name="type" label="Job type (badge)" errors={errors} hint="Shown as the job page's badge, e.g. Senior Leadership.">
            <input {...aria('type', errors, true)} {...text('type')} list="job-type-options" maxLength={100} />
          </Field>
          <Field name="sector" label="Sector" errors={errors}>
            <input {...aria('sector', errors)} {...text('sector')} list="job-sector-options" maxLength={200} />
          </Field>
        </div>
        <datalist id="job-type-options">
          {JOB_TYPES.map((t) => (
            <option key={t} value={t} />
          ))}
        </datalist>
        <datalist id="job-sector-options">
          {SECTORS.map((t) => (
            <option key={t} value={t} />
          ))}
        </datalist>
        <Field name="job_id" label="Job reference" errors={errors} hint="Shown as the Job ID, e.g. PPR-1042. Leave blank to show the job's own id.">
          <input {...aria('job_id', errors, true)} {...text('job_id')} maxLength={60} />
        </Field>
      </fieldset>

      <fieldset className="admin-panel job-fieldset">
        <legend>Client and location</legend>
        <div className="field-row">
          <Field name="company" label="Company *" errors={errors} hint="The hiring organisation. A confidential client is shown as Confidential.">
            <input {...aria('company', errors, true)} {...text('company')} maxLength={300} />
          </Field>
          <div className="field">
            <span className="field__label" id="job-client-type-label">
              Type of client
            </span>
            <div className="radio-row" role="radiogroup" aria-labelledby="job-client-type-label">
              {CLIENT_TYPES.map((c) => (
                <label key={c.value} className="radio">
                  <input type="radio" name="client_type" checked={v.client_type.toLowerCase() === c.value} onChange={() => onChange('client_type', c.value)} />
                  {c.label}
                </label>
              ))}
            </div>
          </div>
        </div>
        <div className="field-row">
          <Field name="location" label="Location" errors={errors} hint="Town or area, e.g. Canary Wharf, London. Required to publish when pay is stated.">
            <input {...aria('location', errors, true)} {...text('location')} maxLength={300} />
          </Field>
          <Field name="region" label="Region" errors={errors} hint="Left blank, it is looked up from the location.">
            <select {...aria('region', errors, true)} {...text('region')}>
              <option value="">From the location</option>
              {UK_REGIONS.map((r) => (
                <option key={r} value={r}>
                  {r}
                </option>
              ))}
            </select>
          </Field>
        </div>
      </fieldset>

      <fieldset className="admin-panel job-fieldset">
        <legend>Pay and dates</legend>
        <Field name="salary" label="Salary (as shown)" errors={errors} hint="e.g. £85,000 - £95,000 + bonus, or Competitive.">
          <input {...aria('salary', errors, true)} {...text('salary')} maxLength={200} />
        </Field>
        <div className="field-row field-row--3">
          <Field name="salary_min" label="Minimum salary (£)" errors={errors}>
            <input {...aria('salary_min', errors)} {...text('salary_min')} inputMode="numeric" />
          </Field>
          <Field name="salary_max" label="Maximum salary (£)" errors={errors}>
            <input {...aria('salary_max', errors)} {...text('salary_max')} inputMode="numeric" />
          </Field>
          <Field name="salary_period" label="Salary period" errors={errors}>
            <select {...aria('salary_period', errors)} {...text('salary_period')}>
              {SALARY_PERIODS.map((p) => (
                <option key={p} value={p}>
                  {SALARY_PERIOD_LABELS[p]}
                </option>
              ))}
            </select>
          </Field>
        </div>
        <Field name="closing_date" label="Closing date" errors={errors} hint="The last day to apply (UK). The job closes by itself when the day ends.">
          <input type="date" {...aria('closing_date', errors, true)} {...text('closing_date')} />
        </Field>
      </fieldset>

      <fieldset className="admin-panel job-fieldset">
        <legend>The advert</legend>
        <MarkdownField
          id={fieldId('description')}
          label="Description"
          hint="The nature of the work (required to publish when pay is stated)."
          value={v.description}
          error={errors.description}
          storedHtml={stored('description')}
          rows={10}
          onChange={(value) => onChange('description', value)}
        />
        <MarkdownField
          id={fieldId('requirements')}
          label="Requirements"
          hint="The minimum experience, training or qualifications (required to publish when pay is stated)."
          value={v.requirements}
          error={errors.requirements}
          storedHtml={stored('requirements')}
          onChange={(value) => onChange('requirements', value)}
        />
        <Field name="benefits" label="Benefits" errors={errors} hint="One per line.">
          <textarea {...aria('benefits', errors, true)} {...text('benefits')} rows={4} />
        </Field>
      </fieldset>

      <fieldset className="admin-panel job-fieldset">
        <legend>Consultant and image</legend>
        <div className="field-row">
          <Field name="consultant_name" label="Consultant name" errors={errors} hint="Shown as 'Reach out to …'.">
            <input {...aria('consultant_name', errors, true)} {...text('consultant_name')} maxLength={200} />
          </Field>
          <Field name="consultant_email" label="Consultant e-mail" errors={errors}>
            <input type="email" {...aria('consultant_email', errors)} {...text('consultant_email')} maxLength={320} />
          </Field>
        </div>
        <Field name="hero_image" label="Hero image" errors={errors} hint="An https:// address or a path on this site, e.g. /images/jobs/canary-wharf.jpg.">
          <input {...aria('hero_image', errors, true)} {...text('hero_image')} />
        </Field>
      </fieldset>
    </>
  );
}

