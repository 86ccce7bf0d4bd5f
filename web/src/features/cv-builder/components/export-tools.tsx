// Download PDF (pdfmake, fetched only when clicked), Print (the print stylesheet prints the preview page), and
// JSON Resume export and import (an import becomes a new CV and opens it).
import { useRef, useState, type ChangeEvent } from 'react';
import { useNavigate } from 'react-router';
import { useToast } from '@/components/ui/toast';
import { createCv } from '@/lib/cv/api';
import type { CvDraft } from '@/lib/cv/model';
import { downloadBlob, downloadJson } from '@/lib/download';
import { FormError } from '@/components/ui/form-error';

const fileBase = (title: string) => title.replace(/[^A-Za-z0-9 _-]+/g, '').trim().replace(/\s+/g, '-') || 'cv';

export function ExportTools({ draft, title, beforeExport }: { draft: CvDraft; title: string; beforeExport: () => Promise<unknown> }) {
  const { toast } = useToast();
  const navigate = useNavigate();
  const fileRef = useRef<HTMLInputElement>(null);
  const [busy, setBusy] = useState<'pdf' | 'import' | null>(null);
  const [importError, setImportError] = useState<string | null>(null);

  const onPdf = async () => {
    setBusy('pdf');
    try {
      void beforeExport();
      const { cvPdfBlob } = await import('@/lib/cv/cv-pdf');
      downloadBlob(await cvPdfBlob(draft, title), `${fileBase(title)}.pdf`);
    } catch (e) {
      toast({ title: 'Could not create the PDF', description: e instanceof Error ? e.message : String(e), variant: 'destructive' });
    } finally {
      setBusy(null);
    }
  };
  const onJson = async () => {
    const { toJsonResume } = await import('@/lib/cv/json-resume');
    downloadJson(toJsonResume(draft, title), `${fileBase(title)}.resume.json`);
  };
  const onImport = async (e: ChangeEvent<HTMLInputElement>) => {
    const file = e.target.files?.[0];
    e.target.value = '';
    if (!file) return;
    setBusy('import');
    setImportError(null);
    try {
      const { fromJsonResume, InvalidResumeError } = await import('@/lib/cv/json-resume');
      try {
        const imported = fromJsonResume(await file.text());
        const id = await createCv(imported.title, imported.draft);
        toast({ title: 'CV imported', description: `“${imported.title}” is now one of your CVs.` });
        navigate(`/career-hub/cv-builder?id=${id}`);
      } catch (err) {
        if (!(err instanceof InvalidResumeError)) throw err;
        setImportError(`This file could not be imported: ${err.message}`);
      }
    } catch (err) {
      setImportError(`The import failed: ${err instanceof Error ? err.message : String(err)}`);
    } finally {
      setBusy(null);
    }
  };

  return (
    <div className="export-tools">
      <div className="btn-row">
        <button type="button" className="btn btn--sm btn--primary" onClick={() => void onPdf()} disabled={busy === 'pdf'}>
          {busy === 'pdf' ? 'Creating PDF...' : 'Download PDF'}
        </button>
        <button type="button" className="btn btn--sm btn--outline" onClick={() => window.print()}>
          Print
        </button>
        <button type="button" className="btn btn--sm btn--outline" onClick={() => void onJson()}>
          Export JSON Resume
        </button>
        <button type="button" className="btn btn--sm btn--outline" onClick={() => fileRef.current?.click()} disabled={busy === 'import'}>
          Import JSON Resume
        </button>
        <input ref={fileRef} type="file" accept="application/json,.json" className="visually-hidden" tabIndex={-1} aria-label="JSON Resume file to import" onChange={(e) => void onImport(e)} data-testid="import-json" />
      </div>
      <FormError message={importError} />
    </div>
  );
}
