// What the desk's detail pages (an application, an enquiry) share: the panel for a record that is gone, and adding
// a note with the page reloaded after it (or the error as a toast).
import { Link } from 'react-router';
import { useToast } from '@/components/ui/toast';
import { addNote, type NoteSubject } from '@/lib/admin/notes';

export function GonePanel({ what, back, backLabel }: { what: string; back: string; backLabel: string }) {
  return (
    <div className="admin-panel" data-not-found>
      <h2>{what} not found</h2>
      <p>It may have been erased under the retention rules or at the person's request.</p>
      <Link to={back}>{backLabel}</Link>
    </div>
  );
}

/** A note adder for NotesPanel: true once saved and the page reloaded. */
export function useAddNote(subject: NoteSubject, reload: () => Promise<void>): (body: string) => Promise<boolean> {
  const { toast } = useToast();
  return async (body) => {
    try {
      await addNote(subject, body);
      await reload();
      return true;
    } catch (e) {
      toast({ title: 'Error', description: (e as Error).message, variant: 'destructive' });
      return false;
    }
  };
}
