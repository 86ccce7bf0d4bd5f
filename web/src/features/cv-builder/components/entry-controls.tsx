// Move up / Move down / Remove for one entry of a list (buttons, so keyboard and pointer alike: WCAG 2.5.7).
type Props = { idPrefix: string; label: string; index: number; count: number; onMove: (delta: -1 | 1) => void; onRemove: () => void };

export function EntryControls({ idPrefix, label, index, count, onMove, onRemove }: Props) {
  return (
    <div className="entry-controls">
      <button type="button" id={`${idPrefix}-up`} className="btn btn--sm btn--ghost" disabled={index === 0} aria-label={`Move ${label} up`} onClick={() => onMove(-1)}>
        ↑ Up
      </button>
      <button type="button" id={`${idPrefix}-down`} className="btn btn--sm btn--ghost" disabled={index === count - 1} aria-label={`Move ${label} down`} onClick={() => onMove(1)}>
        ↓ Down
      </button>
      <button type="button" id={`${idPrefix}-remove`} className="btn btn--sm btn--ghost" aria-label={`Remove ${label}`} onClick={onRemove}>
        Remove
      </button>
    </div>
  );
}
