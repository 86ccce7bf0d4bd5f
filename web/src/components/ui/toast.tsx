// Toast notifications: one at a time (spec §9), announced politely to screen readers, dismissed after 6 s or by hand.
import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';

export type ToastInput = { title: string; description?: string; variant?: 'default' | 'destructive' };
type ToastItem = ToastInput & { id: number };

const ToastContext = createContext<((t: ToastInput) => void) | null>(null);

export function ToastProvider({ children }: { children: ReactNode }) {
  const [current, setCurrent] = useState<ToastItem | null>(null);
  const toast = useCallback((t: ToastInput) => setCurrent({ ...t, id: Date.now() }), []);
  useEffect(() => {
    if (!current) return;
    const timer = window.setTimeout(() => setCurrent(null), 6000);
    return () => window.clearTimeout(timer);
  }, [current]);
  const value = useMemo(() => toast, [toast]);
  return (
    <ToastContext.Provider value={value}>
      {children}
      <div className="toaster" role="status" aria-live="polite" aria-atomic="true">
        {current && (
          <div
            key={current.id}
            className={`toast${current.variant === 'destructive' ? ' toast--destructive' : ''}`}
            data-testid="toast"
          >
            <div>
              <p className="toast__title">{current.title}</p>
              {current.description && <p className="toast__description">{current.description}</p>}
            </div>
            <button type="button" className="toast__close" aria-label="Dismiss notification" onClick={() => setCurrent(null)}>
              <span aria-hidden="true">✕</span>
            </button>
          </div>
        )}
      </div>
    </ToastContext.Provider>
  );
}

export function useToast(): { toast: (t: ToastInput) => void } {
  const toast = useContext(ToastContext);
  if (!toast) throw new Error('useToast must be used within a ToastProvider');
  return { toast };
}
