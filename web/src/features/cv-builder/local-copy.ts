// The browser's copy of a CV with edits the server has not acknowledged yet, so no edit is lost to a network
// error, a closed tab or a reload: written on every change, removed once the server has the same version.
import type { CvDraft } from '@/lib/cv/model';

export type LocalCopy = { title: string; draft: CvDraft; at: number };

const key = (userId: string, id: string) => `career-hub:cv:${userId}:${id}`;

export function readLocalCopy(userId: string, id: string): LocalCopy | null {
  try {
    const raw = window.localStorage.getItem(key(userId, id));
    return raw ? (JSON.parse(raw) as LocalCopy) : null;
  } catch {
    return null;
  }
}

export function writeLocalCopy(userId: string, id: string, copy: LocalCopy): void {
  try {
    window.localStorage.setItem(key(userId, id), JSON.stringify(copy));
  } catch (e) {
    console.warn('Could not keep a local copy of the CV:', e instanceof Error ? e.message : e);
  }
}

export function dropLocalCopy(userId: string, id: string): void {
  try {
    window.localStorage.removeItem(key(userId, id));
  } catch {
    /* storage unavailable: nothing to drop */
  }
}
