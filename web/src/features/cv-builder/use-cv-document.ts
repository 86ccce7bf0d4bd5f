// One CV being edited, persisted in cv_documents: created on the first edit (its id goes into ?id= so a reload
// reopens it), autosaved 800 ms after the last change, retried with back-off (2 s → 30 s) and when the browser
// comes back online, and kept in a local copy until the server acknowledges it. `flush()` saves now. A draft the
// database refuses as it is (a limit of the account, sql/migrations/0334) is not retried until the next edit; the
// refusal's message is shown instead.
import { useCallback, useEffect, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import { getCv, isRefusal, saveCv } from '@/lib/cv/api';
import { emptyDraft, normaliseDraft, type CvDraft, type TemplateId } from '@/lib/cv/model';
import { dropLocalCopy, readLocalCopy, writeLocalCopy } from './local-copy';

export type SaveStatus = 'idle' | 'pending' | 'saving' | 'saved' | 'offline' | 'error' | 'refused';
export type CvDoc = { id: string | null; title: string; draft: CvDraft };

const DEBOUNCE_MS = 800;
const RETRY_MIN_MS = 2000;
const RETRY_MAX_MS = 30000;

export function useCvDocument(userId: string, template: TemplateId | null) {
  const [params, setParams] = useSearchParams();
  const idParam = params.get('id');
  const [doc, setDoc] = useState<CvDoc | null>(null);
  const [status, setStatus] = useState<SaveStatus>('idle');
  const [loadError, setLoadError] = useState<string | null>(null);
  const [refusal, setRefusalState] = useState<string | null>(null);
  const refused = useRef<string | null>(null);
  const setRefusal = useCallback((reason: string | null) => {
    refused.current = reason;
    setRefusalState(reason);
  }, []);
  const latest = useRef<CvDoc | null>(null);
  const edits = useRef({ made: 0, saved: 0, inFlight: null as Promise<boolean> | null });
  const timers = useRef({ debounce: 0, retry: 0, retryDelay: RETRY_MIN_MS });

  const save = useCallback(async (): Promise<boolean> => {
    const current = latest.current;
    if (!current?.id) return true;
    if (edits.current.inFlight) await edits.current.inFlight;
    if (edits.current.saved === edits.current.made) return true;
    const version = edits.current.made;
    const id = current.id;
    setStatus('saving');
    const run = saveCv(id, latest.current!.title.trim() || 'My CV', latest.current!.draft)
      .then(() => {
        edits.current.saved = version;
        timers.current.retryDelay = RETRY_MIN_MS;
        setRefusal(null);
        if (edits.current.made === version) {
          dropLocalCopy(userId, id);
          setStatus('saved');
        }
        return true;
      })
      .catch((e: unknown) => {
        if (isRefusal(e)) {
          setRefusal(e.message);
          setStatus('refused');
          return false;
        }
        console.warn('Autosave failed, will retry:', e instanceof Error ? e.message : e);
        setStatus(navigator.onLine ? 'error' : 'offline');
        window.clearTimeout(timers.current.retry);
        timers.current.retry = window.setTimeout(() => void save(), timers.current.retryDelay);
        timers.current.retryDelay = Math.min(RETRY_MAX_MS, timers.current.retryDelay * 2);
        return false;
      });
    edits.current.inFlight = run;
    const ok = await run;
    edits.current.inFlight = null;
    if (ok && edits.current.made !== version) return save();
    return ok;
  }, [userId, setRefusal]);

  const schedule = useCallback(() => {
    window.clearTimeout(timers.current.debounce);
    timers.current.debounce = window.setTimeout(() => void save(), DEBOUNCE_MS);
  }, [save]);

  /** Applies an edit: gives a new CV its id on the first edit, keeps the local copy, schedules the save. */
  const update = useCallback(
    (change: (d: CvDoc) => CvDoc) => {
      const prev = latest.current;
      if (!prev) return;
      let next = change(prev);
      if (!next.id) {
        next = { ...next, id: crypto.randomUUID() };
        setParams((p) => (p.set('id', next.id!), p.delete('template'), p), { replace: true });
      }
      latest.current = next;
      edits.current.made += 1;
      writeLocalCopy(userId, next.id!, { title: next.title, draft: next.draft, at: Date.now() });
      setDoc(next);
      setStatus('pending');
      schedule();
    },
    [userId, schedule, setParams],
  );

  const flush = useCallback(async () => {
    window.clearTimeout(timers.current.debounce);
    return save();
  }, [save]);

  useEffect(() => {
    if (latest.current && latest.current.id === idParam) return; // our own ?id= after the first edit
    let live = true;
    const open = (d: CvDoc) => {
      latest.current = d;
      edits.current = { made: 0, saved: 0, inFlight: null };
      setDoc(d);
      setLoadError(null);
    };
    if (!idParam) {
      open({ id: null, title: 'My CV', draft: emptyDraft(template ?? 'professional') });
      setStatus('idle');
      return;
    }
    const local = readLocalCopy(userId, idParam);
    getCv(idParam)
      .then((row) => {
        if (!live) return;
        if (local) {
          open({ id: idParam, title: local.title, draft: normaliseDraft(local.draft) });
          edits.current.made = 1; // the local copy is newer than the server: push it
          setStatus('pending');
          schedule();
        } else if (row) {
          open({ id: row.id, title: row.title, draft: normaliseDraft(row.data) });
          setStatus('saved');
        } else setLoadError('This CV was not found. It may have been deleted.');
      })
      .catch((e: unknown) => {
        if (!live) return;
        if (!local) return setLoadError(e instanceof Error ? e.message : String(e));
        open({ id: idParam, title: local.title, draft: normaliseDraft(local.draft) });
        edits.current.made = 1;
        setStatus('offline');
        schedule();
      });
    return () => {
      live = false;
    };
  }, [idParam, userId, template, schedule]);

  useEffect(() => {
    const retryNow = () => {
      if (edits.current.made !== edits.current.saved) void save();
    };
    const onOffline = () => edits.current.made !== edits.current.saved && setStatus('offline');
    const t = timers.current;
    window.addEventListener('online', retryNow);
    window.addEventListener('offline', onOffline);
    return () => {
      window.removeEventListener('online', retryNow);
      window.removeEventListener('offline', onOffline);
      window.clearTimeout(t.debounce);
      window.clearTimeout(t.retry);
    };
  }, [save]);

  /** Why the last save was refused, read after `flush()` resolves (the state above is for rendering). */
  const lastRefusal = useCallback(() => refused.current, []);

  return { doc, status, refusal, lastRefusal, loadError, update, flush };
}
