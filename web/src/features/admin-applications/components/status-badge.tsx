// An application's status as a badge (the admin's word), coloured by whether it is open, good news or closed.
import { STATUS_LABELS, statusTone, type ApplicationStatus } from '../status';

export function StatusBadge({ status }: { status: ApplicationStatus }) {
  return (
    <span className={`badge app-status app-status--${statusTone(status)}`} data-testid="application-status">
      {STATUS_LABELS[status]}
    </span>
  );
}
