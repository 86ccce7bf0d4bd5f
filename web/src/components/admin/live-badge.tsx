// "Live" beside figures that update as profile views are recorded (shown once the Realtime subscription is ready).
export function LiveBadge({ live }: { live: boolean }) {
  if (!live) return null;
  return (
    <span className="live-badge" data-testid="live-status" title="New views appear here as they are recorded">
      <span className="live-badge__dot" aria-hidden="true" /> Live
    </span>
  );
}
