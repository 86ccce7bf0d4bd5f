// The internal notes of an application or an enquiry: newest first with author and time, and a form to add one.
// Notes are the firm's own: the panel says so, and nothing here ever reaches the candidate.
import { useId, useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { formatDateTime } from '@/lib/admin/format';
import { NOTE_MAX, type DeskNote } from '@/lib/admin/notes';

type Props = { notes: DeskNote[]; onAdd: (body: string) => Promise<boolean>; hint: string };

export function NotesPanel({ notes, onAdd, hint }: Props) {
  const id = useId();
  const [body, setBody] = useState('');
  const [saving, setSaving] = useState(false);
  async function submit(e: FormEvent) {
    e.preventDefault();
    if (!body.trim()) return;
    setSaving(true);
    if (await onAdd(body)) setBody('');
    setSaving(false);
  }
  return (
    <section className="admin-panel" aria-labelledby={`${id}-title`} data-testid="notes">
      <h2 id={`${id}-title`}>Internal notes</h2>
      <p className="muted-small">{hint}</p>
      <form className="admin-form desk-note-form" onSubmit={(e) => void submit(e)}>
        <div className="field">
          <label htmlFor={`${id}-body`}>Add a note</label>
          <textarea id={`${id}-body`} rows={3} maxLength={NOTE_MAX} value={body} onChange={(e) => setBody(e.target.value)} />
        </div>
        <div className="admin-form__actions">
          <Button type="submit" size="sm" disabled={saving || !body.trim()} aria-busy={saving}>
            {saving && <span className="spinner" aria-hidden="true" />}
            Add note
          </Button>
        </div>
      </form>
      {notes.length === 0 ? (
        <p className="muted">No notes yet.</p>
      ) : (
        <ul className="plain-list desk-notes">
          {notes.map((n) => (
            <li key={n.id} data-testid="note">
              <p className="desk-notes__body">{n.body}</p>
              <p className="muted-small">
                {n.author ?? 'A former admin'} · <time dateTime={n.created_at}>{formatDateTime(n.created_at)}</time>
              </p>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
