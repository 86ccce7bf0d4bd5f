// 'My CVs': the account's CVs, last edited first, a page at a time (the list never loads the drafts themselves),
// with open, rename, duplicate and delete (confirmed).
import { useEffect, useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { Dialog } from '@/components/ui/dialog';
import { useToast } from '@/components/ui/toast';
import { CV_PAGE_SIZE, deleteCv, duplicateCv, listCvs, renameCv, type CvSummary } from '@/lib/cv/api';
import { formatDateTime } from '../api';
import { useQuery } from '@/lib/use-query';
import { FormError } from '@/components/ui/form-error';

type Pending = { kind: 'rename' | 'delete'; cv: CvSummary } | null;

export function MyCvs() {
  const [offset, setOffset] = useState(0);
  const { data: page, error, refetch: reload } = useQuery(() => listCvs(offset), [offset]);
  const items = page?.rows ?? null;
  // A page emptied by a delete: show the one before it.
  useEffect(() => {
    if (page && page.rows.length === 0 && offset > 0) setOffset(Math.max(0, offset - CV_PAGE_SIZE));
  }, [page, offset]);
  const { toast } = useToast();
  const [pending, setPending] = useState<Pending>(null);
  const [title, setTitle] = useState('');
  const [busy, setBusy] = useState(false);

  const act = async (work: () => Promise<void>, done: string) => {
    setBusy(true);
    try {
      await work();
      toast({ title: done });
      setPending(null);
      void reload();
    } catch (e) {
      toast({ title: 'Error', description: e instanceof Error ? e.message : String(e), variant: 'destructive' });
    } finally {
      setBusy(false);
    }
  };
  const onRename = (e: FormEvent) => {
    e.preventDefault();
    if (pending && title.trim()) void act(() => renameCv(pending.cv.id, title.trim()), 'CV renamed');
  };

  return (
    <section className="card dash-card" aria-labelledby="my-cvs-heading">
      <div className="dash-card__head">
        <h2 id="my-cvs-heading">My CVs</h2>
        <Link to="/career-hub/cv-builder" className="btn btn--sm btn--outline">
          New CV
        </Link>
      </div>
      {error && <FormError message={error} />}
      {items === null && !error && <p className="muted">Loading...</p>}
      {page?.total === 0 && <p className="muted">You haven't created any CVs yet</p>}
      {items && items.length > 0 && (
        <ul className="dash-list" data-testid="my-cvs">
          {items.map((cv) => (
            <li key={cv.id} className="dash-list__item">
              <div>
                <Link to={`/career-hub/cv-builder?id=${cv.id}`} className="dash-list__title">
                  {cv.title}
                </Link>
                <p className="dash-list__meta">Last edited {formatDateTime(cv.updated_at)}</p>
              </div>
              <div className="dash-list__actions">
                <button type="button" className="btn btn--sm btn--ghost" aria-label={`Rename ${cv.title}`} onClick={() => (setTitle(cv.title), setPending({ kind: 'rename', cv }))}>
                  Rename
                </button>
                <button type="button" className="btn btn--sm btn--ghost" aria-label={`Duplicate ${cv.title}`} disabled={busy} onClick={() => void act(() => duplicateCv(cv.id), 'CV duplicated')}>
                  Duplicate
                </button>
                <button type="button" className="btn btn--sm btn--ghost dash-danger" aria-label={`Delete ${cv.title}`} onClick={() => setPending({ kind: 'delete', cv })}>
                  Delete
                </button>
              </div>
            </li>
          ))}
        </ul>
      )}
      {page && page.total > CV_PAGE_SIZE && (
        <nav className="dash-pager" aria-label="CV pages">
          <span>
            Showing {offset + 1}–{offset + page.rows.length} of {page.total}
          </span>
          <span className="btn-row">
            <button type="button" className="btn btn--sm btn--outline" disabled={offset === 0} onClick={() => setOffset(Math.max(0, offset - CV_PAGE_SIZE))}>
              Previous
            </button>
            <button type="button" className="btn btn--sm btn--outline" disabled={offset + CV_PAGE_SIZE >= page.total} onClick={() => setOffset(offset + CV_PAGE_SIZE)}>
              Next
            </button>
          </span>
        </nav>
      )}
      <Dialog open={pending?.kind === 'rename'} onClose={() => setPending(null)} title="Rename CV" size="sm">
        <form className="stack" onSubmit={onRename}>
          <div className="field">
            <label htmlFor="rename-cv">CV name</label>
            <input id="rename-cv" required maxLength={200} value={title} onChange={(e) => setTitle(e.target.value)} />
          </div>
          <button type="submit" className="btn btn--primary" disabled={busy || !title.trim()}>
            Save name
          </button>
        </form>
      </Dialog>
      <Dialog open={pending?.kind === 'delete'} onClose={() => setPending(null)} title="Delete this CV?" size="sm">
        <p>“{pending?.cv.title}” will be deleted for good.</p>
        <div className="btn-row">
          <button type="button" className="btn btn--outline" onClick={() => setPending(null)}>
            Cancel
          </button>
          <button type="button" className="btn btn--primary dash-danger-fill" disabled={busy} onClick={() => pending && void act(() => deleteCv(pending.cv.id), 'CV deleted')}>
            Delete CV
          </button>
        </div>
      </Dialog>
    </section>
  );
}
