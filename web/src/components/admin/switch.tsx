// An on/off switch (role="switch"), labelled for assistive technology.
type SwitchProps = { checked: boolean; label: string; onChange: () => void; disabled?: boolean };

export function Switch({ checked, label, onChange, disabled }: SwitchProps) {
  return (
    <button
      type="button"
      role="switch"
      aria-checked={checked}
      aria-label={label}
      className={`switch${checked ? ' switch--on' : ''}`}
      onClick={onChange}
      disabled={disabled}
    >
      <span className="switch__thumb" aria-hidden="true" />
    </button>
  );
}
