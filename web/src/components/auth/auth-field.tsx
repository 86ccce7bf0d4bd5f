// A labelled input of the account forms.
import type { InputHTMLAttributes } from 'react';

type Props = { id: string; label: string; value: string; onValue: (v: string) => void } & Omit<InputHTMLAttributes<HTMLInputElement>, 'value' | 'onChange' | 'id'>;

export function AuthField({ id, label, value, onValue, ...rest }: Props) {
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input id={id} value={value} onChange={(e) => onValue(e.target.value)} {...rest} />
    </div>
  );
}
