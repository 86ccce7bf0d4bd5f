// The applicant's CV: a PDF is fetched through a signed URL that works for a minute and drawn in the page (pdf.js),
// with its text below for screen readers and copying; a Word document, or a PDF that cannot be drawn, is offered as
// a download (again through a fresh signed URL). The bucket is private: no public URL exists.
import { useEffect, useRef, useState } from 'react';
import { Button } from '@/components/ui/button';
import { cvUrl, type ApplicationDetail } from '../api/applications';

type Cv = ApplicationDetail['cv'];
type State = { kind: 'loading' } | { kind: 'shown'; pages: number; text: string[] } | { kind: 'failed'; message: string };

const VIEW_WIDTH = 760;

function sizeText(bytes: number | null): string {
  if (!bytes) return '';
  return bytes < 1024 * 1024 ? `${Math.max(1, Math.round(bytes / 1024))} KB` : `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

async function download(cv: Cv) {
  const a = document.createElement('a');
  a.href = await cvUrl(cv.object, cv.file_name);
  a.rel = 'noopener';
  document.body.append(a);
  a.click();
  a.remove();
}

function PdfPages({ cv }: { cv: Cv }) {
  const holder = useRef<HTMLDivElement>(null);
  const [state, setState] = useState<State>({ kind: 'loading' });
  useEffect(() => {
    const into = holder.current;
    if (!into) return;
    let live = true;
    into.replaceChildren();
    setState({ kind: 'loading' });
    (async () => {
      const response = await fetch(await cvUrl(cv.object));
      if (!response.ok) throw new Error(`The CV could not be fetched (${response.status})`);
      const { renderPdf } = await import('../pdf');
      const width = Math.min(VIEW_WIDTH, into.clientWidth || VIEW_WIDTH);
      const shown = await renderPdf(await response.arrayBuffer(), into, width);
      if (live) setState({ kind: 'shown', ...shown });
    })().catch((e: Error) => live && setState({ kind: 'failed', message: e.message }));
    return () => {
      live = false;
    };
  }, [cv.object]);
  return (
    <>
      {state.kind === 'loading' && <p className="muted" aria-busy="true">Opening the CV...</p>}
      {state.kind === 'failed' && (
        <p role="alert" className="field__error">
          The CV could not be shown here ({state.message}). Download it instead.
        </p>
      )}
      <div ref={holder} className="cv-viewer__pages" data-testid="cv-pages" />
      {state.kind === 'shown' && (
        <details className="cv-viewer__text">
          <summary>Text of the CV{state.pages > state.text.length ? ` (first ${state.text.length} of ${state.pages} pages)` : ''}</summary>
          <div data-testid="cv-text">{state.text.join('\n\n')}</div>
        </details>
      )}
    </>
  );
}

export function CvViewer({ cv }: { cv: Cv }) {
  const [error, setError] = useState<string | null>(null);
  const isPdf = cv.mimetype === 'application/pdf';
  return (
    <section className="admin-panel cv-viewer" aria-labelledby="cv-title" data-testid="cv-viewer">
      <div className="admin-panel__head">
        <div>
          <h2 id="cv-title">CV</h2>
          <p className="muted-small">
            {cv.file_name}
            {cv.size ? ` · ${sizeText(cv.size)}` : ''}
          </p>
        </div>
        <Button variant="outline" size="sm" onClick={() => download(cv).catch((e: Error) => setError(e.message))}>
          Download CV
        </Button>
      </div>
      {error && <p role="alert" className="field__error">{error}</p>}
      {cv.mimetype === null ? (
        <p className="muted">The CV file is no longer stored.</p>
      ) : isPdf ? (
        <PdfPages cv={cv} />
      ) : (
        <p className="muted" data-testid="cv-download-only">
          This CV is a Word document: download it to read it.
        </p>
      )}
    </section>
  );
}
