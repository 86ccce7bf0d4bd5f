// The autosave state, visible and announced politely: Saving… / Saved / retrying while offline or after a failure.
import type { SaveStatus } from '../use-cv-document';

const TEXT: Record<SaveStatus, string> = {
  idle: 'Changes save automatically',
  pending: 'Saving…',
  saving: 'Saving…',
  saved: 'Saved',
  offline: 'Offline: your changes are kept on this device and saved when you reconnect',
  error: 'Not saved yet: retrying…',
};

export function SaveStatusLine({ status }: { status: SaveStatus }) {
  return (
    <p className={`save-status save-status--${status}`} role="status" aria-live="polite" data-testid="save-status" data-status={status}>
      {TEXT[status]}
    </p>
  );
}
