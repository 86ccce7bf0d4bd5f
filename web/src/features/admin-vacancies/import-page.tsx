// /admin/vacancies/import: a CSV of jobs, previewed before anything is written — the file parsed here (Papa Parse)
// and every row checked by the database (admin_import_jobs without applying) — with each row's errors; the import
// itself is one transaction upserting on external_id, possible only once no row has an error.
import { useState, type ChangeEvent } from 'react';
import { Link } from 'react-router';
import { Button } from '@/components/ui/button';
import { useToast } from '@/components/ui/toast';
import { downloadBlob } from '@/lib/download';
import { AdminPage } from '@/components/admin/admin-page';
import { importJobs, type ImportResult } from './import/api';
import { IMPORT_COLUMNS, MAX_IMPORT_ROWS, templateCsv } from './import/columns';
import { parseJobsCsv, type ImportRow } from './import/parse';
import vacanciesCss from './vacancies.css?inline';
import { injectStyle } from '@/lib/inject-style';

injectStyle('admin-vacancies', vacanciesCss);

const MAX_FILE_BYTES = 400 * 1024;

type Preview = { fileName: string; rows: ImportRow[]; result: ImportResult | null; fileErrors: string[] };

function rowErrors(preview: Preview, index: number): string[] {
  return [...preview.rows[index].errors, ...(preview.result?.rows[index]?.errors ?? [])];
}

function PreviewTable({ preview }: { preview: Preview }) {
  return (
    <div className="table-scroll" role="region" aria-label="Rows of the file" tabIndex={0}>
      <table className="admin-table admin-table--stack" data-testid="import-preview">
        <thead>
          <tr>
            <th scope="col">Row</th>
            <th scope="col">External id</th>
            <th scope="col">Title</th>
            <th scope="col">Status</th>
            <th scope="col">Will</th>
            <th scope="col">Problems</th>
          </tr>
        </thead>
        <tbody>
          {preview.rows.map((r, i) => {
            const errors = rowErrors(preview, i);
            const action = preview.result?.rows[i]?.action;
            return (
              <tr key={r.line} data-testid="import-row" className={errors.length ? 'is-invalid' : undefined}>
                <td data-label="Row">{r.line}</td>
                <td data-label="External id">{String(r.values.external_id ?? '—')}</td>
                <td data-label="Title">{String(r.values.title ?? '—')}</td>
                <td data-label="Status">{String(r.values.status ?? (action === 'insert' ? 'draft' : 'unchanged'))}</td>
                <td data-label="Will">{errors.length ? '—' : action === 'insert' ? 'Add' : action === 'update' ? 'Update' : '—'}</td>
                <td data-label="Problems" data-testid="import-row-errors">
                  {errors.length === 0 ? (
                    <span className="muted-small">None</span>
                  ) : (
                    <ul className="import-errors">
                      {errors.map((e) => (
                        <li key={e}>{e}</li>
                      ))}
                    </ul>
                  )}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

function ColumnList() {
  return (
    <details className="import-columns">
      <summary>The columns a file may have</summary>
      <dl>
        {IMPORT_COLUMNS.map((c) => (
          <div key={c.name}>
            <dt>
              <code>{c.name}</code>
              {c.required ? ' (required)' : ''}
            </dt>
            <dd>{c.help}</dd>
          </div>
        ))}
      </dl>
    </details>
  );
}

function Importer() {
  const { toast } = useToast();
  const [preview, setPreview] = useState<Preview | null>(null);
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState<ImportResult | null>(null);

  async function check(fileName: string, text: string) {
    const parsed = parseJobsCsv(text);
    const next: Preview = { fileName, rows: parsed.rows, result: null, fileErrors: parsed.fileErrors };
    setPreview(next);
    if (parsed.fileErrors.length) return;
    setBusy(true);
    try {
      setPreview({ ...next, result: await importJobs(parsed.rows.map((r) => r.values), fileName, false) });
    } catch (e) {
      setPreview({ ...next, fileErrors: [(e as Error).message] });
    } finally {
      setBusy(false);
    }
  }

  async function choose(e: ChangeEvent<HTMLInputElement>) {
    const file = e.target.files?.[0];
    setDone(null);
    if (!file) return setPreview(null);
    if (file.size > MAX_FILE_BYTES) return setPreview({ fileName: file.name, rows: [], result: null, fileErrors: [`The file is larger than ${MAX_FILE_BYTES / 1024} kB; split it`] });
    await check(file.name, await file.text());
  }

  async function apply() {
    if (!preview) return;
    setBusy(true);
    try {
      const result = await importJobs(preview.rows.map((r) => r.values), preview.fileName, true);
      if (result.applied) {
        setDone(result);
        setPreview(null);
        toast({ title: 'Success', description: `Imported ${result.inserted + result.updated} jobs` });
      } else {
        setPreview({ ...preview, result });
        toast({ title: 'Nothing was imported', description: `${result.failed} rows have problems`, variant: 'destructive' });
      }
    } catch (e) {
      toast({ title: 'Error', description: (e as Error).message, variant: 'destructive' });
    } finally {
      setBusy(false);
    }
  }

  const failing = preview ? preview.rows.filter((_, i) => rowErrors(preview, i).length > 0).length : 0;
  const ready = Boolean(preview?.result && preview.fileErrors.length === 0 && failing === 0);
  return (
    <>
      <section className="admin-panel" aria-labelledby="import-file-title">
        <h2 id="import-file-title">Choose a CSV file</h2>
        <p className="muted">
          One job per row, with a header row naming the columns (UTF-8, comma-separated, at most {MAX_IMPORT_ROWS} rows). Rows are matched to jobs by{' '}
          <code>external_id</code>: a known one updates the job, a new one adds a draft unless its status says otherwise. Nothing is written until you
          import, and then all rows are written together or none.
        </p>
        <div className="btn-row">
          <Button variant="outline" onClick={() => downloadBlob(new Blob([templateCsv()], { type: 'text/csv;charset=utf-8' }), 'vacancies-template.csv')}>
            Download the template
          </Button>
        </div>
        <div className="field import-file">
          <label htmlFor="import-file">CSV file</label>
          <input id="import-file" type="file" accept=".csv,text/csv" onChange={(e) => void choose(e)} disabled={busy} />
        </div>
        <ColumnList />
      </section>
      {done && (
        <p className="admin-panel import-done" role="status" data-testid="import-done">
          Imported: {done.inserted} added, {done.updated} updated. <Link to="/admin/vacancies">See the jobs</Link>
        </p>
      )}
      {preview && (
        <section className="admin-panel" aria-labelledby="import-preview-title">
          <h2 id="import-preview-title">Preview of {preview.fileName}</h2>
          {preview.fileErrors.length > 0 ? (
            <div role="alert" className="error-summary" data-testid="import-file-errors">
              <h3>The file cannot be imported</h3>
              <ul>
                {preview.fileErrors.map((e) => (
                  <li key={e}>{e}</li>
                ))}
              </ul>
            </div>
          ) : (
            <>
              <p aria-live="polite" data-testid="import-summary" className={failing ? 'field__error' : 'muted'}>
                {!preview.result
                  ? 'Checking every row...'
                  : failing
                    ? `${failing} of ${preview.rows.length} rows have problems. Nothing has been written: fix the file and choose it again.`
                    : `${preview.rows.length} rows are ready: ${preview.result.inserted} to add, ${preview.result.updated} to update. Nothing has been written yet.`}
              </p>
              <PreviewTable preview={preview} />
              <div className="btn-row import-actions">
                <Button onClick={() => void apply()} disabled={!ready || busy} aria-busy={busy}>
                  Import {preview.rows.length} jobs
                </Button>
                <Button variant="ghost" onClick={() => setPreview(null)} disabled={busy}>
                  Cancel
                </Button>
              </div>
            </>
          )}
        </section>
      )}
    </>
  );
}

export default function AdminVacancyImportPage() {
  return (
    <AdminPage title="Import jobs" subtitle="Add or update jobs from a spreadsheet (CSV)." path="/admin/vacancies/import" back={{ to: '/admin/vacancies', label: 'Vacancies' }}>
      <Importer />
    </AdminPage>
  );
}
