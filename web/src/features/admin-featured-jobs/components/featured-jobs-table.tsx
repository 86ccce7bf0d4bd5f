// The featured jobs table: drag a row by its handle (mouse, touch, or keyboard: Space to lift, arrows to move, Space
// to drop; @dnd-kit announces each step to screen readers), or use Move up / Move down; switch a job on or off;
// edit; remove (after a confirmation).
import {
  DndContext,
  KeyboardSensor,
  PointerSensor,
  closestCenter,
  useSensor,
  useSensors,
  type Announcements,
  type DragEndEvent,
} from '@dnd-kit/core';
import { SortableContext, sortableKeyboardCoordinates, useSortable, verticalListSortingStrategy } from '@dnd-kit/sortable';
import { CSS } from '@dnd-kit/utilities';
import { Switch } from '@/components/admin/switch';
import { displayTitle, type FeaturedJobRow } from '../api/featured-jobs';
import { ArrowDownIcon, ArrowUpIcon, GripIcon, PencilIcon, TrashIcon } from '@/components/admin/row-icons';

type Props = {
  rows: FeaturedJobRow[];
  busy: boolean;
  onMove: (from: number, to: number) => void;
  onToggle: (row: FeaturedJobRow) => void;
  onEdit: (row: FeaturedJobRow) => void;
  onRemove: (row: FeaturedJobRow) => void;
};

type RowProps = Omit<Props, 'rows' | 'onMove'> & { row: FeaturedJobRow; index: number; count: number; onMove: Props['onMove'] };

function SortableRow({ row, index, count, busy, onMove, onToggle, onEdit, onRemove }: RowProps) {
  const { attributes, listeners, setNodeRef, setActivatorNodeRef, transform, transition, isDragging } = useSortable({ id: row.id, disabled: busy });
  const title = displayTitle(row);
  return (
    <tr ref={setNodeRef} style={{ transform: CSS.Translate.toString(transform), transition }} className={isDragging ? 'is-dragging' : undefined} data-testid="featured-row">
      <td data-label="Reorder" className="nowrap">
        <div className="row-actions">
          <button type="button" ref={setActivatorNodeRef} className="icon-btn drag-handle" aria-label={`Drag to reorder: ${title}`} {...attributes} {...listeners}>
            <GripIcon />
          </button>
          <button type="button" className="icon-btn" aria-label={`Move up: ${title}`} disabled={busy || index === 0} onClick={() => onMove(index, index - 1)}>
            <ArrowUpIcon />
          </button>
          <button type="button" className="icon-btn" aria-label={`Move down: ${title}`} disabled={busy || index === count - 1} onClick={() => onMove(index, index + 1)}>
            <ArrowDownIcon />
          </button>
        </div>
      </td>
      <td data-label="Order" className="num">{index + 1}</td>
      <td data-label="Job">
        <div>
          <strong data-testid="featured-row-title">{title}</strong>
          <div className="muted-small">{[row.custom_company || row.jobs?.company, row.custom_location || row.jobs?.location].filter(Boolean).join(' · ')}</div>
        </div>
      </td>
      <td data-label="Excerpt">{row.custom_excerpt}</td>
      <td data-label="Active">
        <Switch checked={row.is_active} label={`Active: ${title}`} onChange={() => onToggle(row)} disabled={busy} />
      </td>
      <td data-label="Actions">
        <div className="row-actions">
          <button type="button" className="icon-btn" aria-label={`Edit: ${title}`} title="Edit" onClick={() => onEdit(row)} disabled={busy}>
            <PencilIcon />
          </button>
          <button type="button" className="icon-btn icon-btn--danger" aria-label={`Remove: ${title}`} title="Remove" onClick={() => onRemove(row)} disabled={busy}>
            <TrashIcon />
          </button>
        </div>
      </td>
    </tr>
  );
}

export function FeaturedJobsTable({ rows, busy, onMove, onToggle, onEdit, onRemove }: Props) {
  const sensors = useSensors(useSensor(PointerSensor, { activationConstraint: { distance: 4 } }), useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }));
  const titleOf = (id: unknown) => {
    const row = rows.find((r) => r.id === id);
    return row ? displayTitle(row) : 'job';
  };
  const positionOf = (id: unknown) => rows.findIndex((r) => r.id === id) + 1;
  const announcements: Announcements = {
    onDragStart: ({ active }) => `Picked up ${titleOf(active.id)}, position ${positionOf(active.id)} of ${rows.length}.`,
    onDragOver: ({ active, over }) => (over ? `${titleOf(active.id)} is over position ${positionOf(over.id)} of ${rows.length}.` : `${titleOf(active.id)} is no longer over a position.`),
    onDragEnd: ({ active, over }) => (over ? `${titleOf(active.id)} dropped at position ${positionOf(over.id)} of ${rows.length}.` : `${titleOf(active.id)} dropped.`),
    onDragCancel: ({ active }) => `Reordering cancelled. ${titleOf(active.id)} returned to position ${positionOf(active.id)}.`,
  };
  function onDragEnd({ active, over }: DragEndEvent) {
    if (!over || active.id === over.id) return;
    onMove(rows.findIndex((r) => r.id === active.id), rows.findIndex((r) => r.id === over.id));
  }
  if (rows.length === 0) return <p className="empty-state">No featured jobs yet. Add your first one above!</p>;
  return (
    <DndContext
      sensors={sensors}
      collisionDetection={closestCenter}
      onDragEnd={onDragEnd}
      accessibility={{
        announcements,
        screenReaderInstructions: { draggable: 'To reorder, press Space to pick up a job, use the arrow keys to move it, Space to drop it, or Escape to cancel.' },
      }}
    >
      <div className="table-scroll" role="region" aria-label="Featured jobs" tabIndex={0}>
        <table className="admin-table admin-table--stack" data-testid="featured-table">
          <thead>
            <tr>
              <th scope="col">Reorder</th>
              <th scope="col" className="num">Order</th>
              <th scope="col">Job</th>
              <th scope="col">Excerpt</th>
              <th scope="col">Active</th>
              <th scope="col">Actions</th>
            </tr>
          </thead>
          <tbody>
            <SortableContext items={rows.map((r) => r.id)} strategy={verticalListSortingStrategy}>
              {rows.map((row, i) => (
                <SortableRow key={row.id} row={row} index={i} count={rows.length} busy={busy} onMove={onMove} onToggle={onToggle} onEdit={onEdit} onRemove={onRemove} />
              ))}
            </SortableContext>
          </tbody>
        </table>
      </div>
    </DndContext>
  );
}
