// One labelled input or textarea of the wizard; a starred label marks a required field, and a field named in the
// Complete check's problems is marked invalid and described by its message.
import type { ChangeEvent } from 'react';

type Props = {
  id: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  required?: boolean;
  problem?: string;
  type?: 'text' | 'email' | 'tel' | 'number';
  rows?: number;
  maxLength?: number;
  placeholder?: string;
  hint?: string;
  autoComplete?: string;
};

export function TextField({ id, label, value, onChange, required, problem, type = 'text', rows, maxLength = 200, placeholder, hint, autoComplete }: Props) {
  const change = (e: ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) => onChange(e.target.value);
  const described = [hint && `${id}-hint`, problem && `${id}-problem`].filter(Boolean).join(' ') || undefined;
  const common = { id, value, onChange: change, maxLength, placeholder, 'aria-required': required || undefined, 'aria-invalid': problem ? true : undefined, 'aria-describedby': described, autoComplete };
  return (
    <div className={`field${problem ? ' field--invalid' : ''}`}>
      <label htmlFor={id}>
        {label}
        {required && <span aria-hidden="true"> *</span>}
      </label>
      {rows ? <textarea rows={rows} {...common} /> : <input type={type} {...common} {...(type === 'number' ? { min: 1950, max: 2100, inputMode: 'numeric' as const } : {})} />}
      {hint && (
        <p id={`${id}-hint`} className="field__hint">
          {hint}
        </p>
      )}
      {problem && (
        <p id={`${id}-problem`} className="field__problem">
          {problem}
        </p>
      )}
    </div>
  );
}
