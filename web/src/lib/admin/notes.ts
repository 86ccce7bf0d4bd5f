// Internal notes on an application or an enquiry (table desk_notes: admins only; author and time are set by the
// database, so a note is always the signed-in admin's).
import { nullable, object, str, type Decoder } from '@/lib/decode';
import { getSupabase } from '@/lib/api';

export type NoteSubject = { application_id: string } | { enquiry_id: string };
export type DeskNote = { id: string; body: string; created_at: string; author: string | null };
/** A note as the detail RPCs embed it. */
export const deskNote: Decoder<DeskNote> = object({ id: str, body: str, created_at: str, author: nullable(str) });

export const NOTE_MAX = 5000;

export async function addNote(subject: NoteSubject, body: string): Promise<void> {
  const client = await getSupabase();
  // No .select(): the row comes back with the page that lists it.
  const { error } = await client.from('desk_notes').insert({ ...subject, body: body.trim() });
  if (error) throw new Error(error.message);
}
