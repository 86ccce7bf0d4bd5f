// The autosave state, visible and announced politely: Saving… / Saved / retrying while offline or after a failure /
// not saved, with the reason, when the database refuses the draft as it is.
import type { SaveStatus } from '../use-cv-document';

const TEXT: Record<SaveStatus, string> = {
  idle: 'Changes save automatically',
  pending: 'Saving…',
  saving: 'Saving…',
  saved: 'Saved',
  offline: 'Offline: your changes are kept on this device and saved when you reconnect',
  error: 'Not saved yet: retrying…',
  refused: 'Not saved',
};

export function SaveStatusLine({ status, reason }: { status: SaveStatus; reason?: string | null }) {
  return (
    <p className={`save-status save-status--${status}`} role="status" aria-live="polite" data-testid="save-status" data-status={status}>
      {status === 'refused' && reason ? `Not saved: ${reason}` : TEXT[status]}
    </p>
  );
}
