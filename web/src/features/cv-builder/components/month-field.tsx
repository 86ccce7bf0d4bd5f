// A month of a position (Start Date, End Date): the browser's month picker (spec §2: "month pickers"), giving the
// draft '' or 'YYYY-MM' only (the database accepts nothing else). Chromium draws no placeholder on a month input, so
// while the field is empty and has no focus it shows `emptyText` (End Date: 'Present', the spec's placeholder) in
// place of the picker's blank segments (cv-builder.css); the hint tells screen readers. Where the browser has no
// month picker (the input falls back to text), typed text reaches the draft only as a whole YYYY-MM. A half-entered
// month is named as an error, announced, when the field is left.
import { useId, useState, type ChangeEvent, type FocusEvent } from 'react';

const MONTH = /^\d{4}-(0[1-9]|1[0-2])$/;

type Props = {
  id: string;
  label: string;
  /** What the field is in messages, e.g. 'the end date of position 2'. */
  name: string;
  value: string;
  onChange: (value: string) => void;
  /** Shown while the field is empty and has no focus. */
  emptyText?: string;
  problem?: string;
  hint?: string;
};

const isMonth = (text: string) => text.trim() === '' || MONTH.test(text.trim());

/** Why the field's entry is not a whole month ('' when it is one or empty). */
function monthError(input: HTMLInputElement, name: string, emptyText?: string): string {
  const orEmpty = emptyText ? `, or clear it to show ${emptyText}` : '';
  if (input.type === 'month') return input.validity.badInput ? `Enter both the month and the year of ${name}${orEmpty}` : '';
  return isMonth(input.value) ? '' : `Enter ${name} as YYYY-MM, for example 2021-04${orEmpty}`;
}

export function MonthField({ id, label, name, value, onChange, emptyText, problem, hint }: Props) {
  // Text the fallback holds that is not a month yet, for the value it was typed over (a new value replaces it).
  const [typed, setTyped] = useState<{ text: string; over: string } | null>(null);
  const [error, setError] = useState('');
  const errorId = useId();
  const text = typed && typed.over === value ? typed.text : value;

  const change = (e: ChangeEvent<HTMLInputElement>) => {
    const v = e.target.value;
    if (e.target.type === 'month' || isMonth(v)) {
      setTyped(null);
      setError('');
      onChange(v.trim());
    } else setTyped({ text: v, over: value });
  };
  const blur = (e: FocusEvent<HTMLInputElement>) => setError(monthError(e.currentTarget, name, emptyText));

  const shown = error || problem;
  const empty = Boolean(emptyText) && text === '' && !error;
  const described = [hint && `${id}-hint`, error ? errorId : problem && `${id}-problem`].filter(Boolean).join(' ') || undefined;
  return (
    <div className={`field${shown ? ' field--invalid' : ''}`}>
      <label htmlFor={id}>{label}</label>
      <div className={`month-field${empty ? ' month-field--empty' : ''}`}>
        <input
          id={id}
          type="month"
          value={text}
          onChange={change}
          onBlur={blur}
          placeholder={emptyText ?? 'YYYY-MM'}
          maxLength={7}
          aria-invalid={shown ? true : undefined}
          aria-describedby={described}
        />
        {empty && (
          <span className="month-field__empty" aria-hidden="true" data-testid="month-empty">
            {emptyText}
          </span>
        )}
      </div>
      {hint && (
        <p id={`${id}-hint`} className="field__hint">
          {hint}
        </p>
      )}
      {error ? (
        <p id={errorId} className="field__problem" role="alert">
          {error}
        </p>
      ) : (
        problem && (
          <p id={`${id}-problem`} className="field__problem">
            {problem}
          </p>
        )
      )}
    </div>
  );
}
