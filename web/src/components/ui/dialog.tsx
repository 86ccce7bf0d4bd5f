// Modal dialog on the native <dialog> element: focus is trapped and restored by the browser, Escape closes it.
import { useEffect, useId, useRef, type ReactNode } from 'react';

type DialogProps = {
  open: boolean;
  onClose: () => void;
  title: string;
  description?: ReactNode;
  children: ReactNode;
  size?: 'sm' | 'md';
  testId?: string;
};

export function Dialog({ open, onClose, title, description, children, size = 'md', testId }: DialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const descId = useId();
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    if (open && !el.open) el.showModal();
    if (!open && el.open) el.close();
  }, [open]);
  return (
    <dialog
      ref={ref}
      className={`dialog${size === 'sm' ? ' dialog--sm' : ''}`}
      aria-labelledby={titleId}
      aria-describedby={description ? descId : undefined}
      onClose={onClose}
      onCancel={(e) => {
        e.preventDefault();
        onClose();
      }}
      onClick={(e) => {
        if (e.target === e.currentTarget) onClose();
      }}
      data-testid={testId}
    >
      {open && (
        <>
          <div className="dialog__header">
            <div>
              <h2 id={titleId}>{title}</h2>
              {description && (
                <p id={descId} className="muted" style={{ margin: 'var(--sp-2) 0 0' }}>
                  {description}
                </p>
              )}
            </div>
            <button type="button" className="dialog__close" aria-label="Close dialog" onClick={onClose}>
              <svg width="20" height="20" viewBox="0 0 20 20" aria-hidden="true">
                <path d="M5 5l10 10M15 5L5 15" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
              </svg>
            </button>
          </div>
          <div className="dialog__body">{children}</div>
        </>
      )}
    </dialog>
  );
}
