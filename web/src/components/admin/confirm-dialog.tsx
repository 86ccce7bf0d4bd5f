// A confirmation dialog (Cancel + a destructive confirm button) on the shared <Dialog>.
import { useState, type ReactNode } from 'react';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';

type ConfirmDialogProps = {
  open: boolean;
  title: string;
  description: ReactNode;
  confirmLabel: string;
  onCancel: () => void;
  onConfirm: () => Promise<void> | void;
  testId?: string;
};

export function ConfirmDialog({ open, title, description, confirmLabel, onCancel, onConfirm, testId }: ConfirmDialogProps) {
  const [busy, setBusy] = useState(false);
  async function confirm() {
    setBusy(true);
    try {
      await onConfirm();
    } finally {
      setBusy(false);
    }
  }
  return (
    <Dialog open={open} onClose={onCancel} title={title} description={description} size="sm" testId={testId}>
      <div className="btn-row admin-dialog__actions">
        <Button variant="outline" onClick={onCancel} disabled={busy}>
          Cancel
        </Button>
        <Button className="btn--danger" onClick={() => void confirm()} disabled={busy} aria-busy={busy}>
          {busy && <span className="spinner" aria-hidden="true" />}
          {confirmLabel}
        </Button>
      </div>
    </Dialog>
  );
}
