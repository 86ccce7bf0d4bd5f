// /admin/vacancies/new and /admin/vacancies/:jobId: the job form. Save as a draft needs what the table needs;
// Publish (and saving a live job) also needs reg. 27, checked here first and then by the database, whose refusal names
// the fields the same way. A live job can be closed, a closed one reopened, any job duplicated as a new draft.
// ?publish=1 (from the list, after a refused publish) shows what publishing still needs.
import { useEffect, useState, type FormEvent } from 'react';
import { Link, useNavigate, useParams, useSearchParams } from 'react-router';
import { Button } from '@/components/ui/button';
import { useToast } from '@/components/ui/toast';
import { AdminPage } from '@/components/admin/admin-page';
import { formatDateTime } from '@/lib/admin/format';
import { createJob, duplicateJob, getJob, JobWriteError, updateJob } from './api/jobs';
import { ErrorSummary, fieldId, JobForm } from './components/job-form';
import {
  EMPTY_VALUES,
  publishErrorsFromDetail,
  rowFromValues,
  STATUS_LABELS,
  validate,
  valuesFromJob,
  type EditorJob,
  type FieldErrors,
  type FieldName,
  type JobStatus,
  type JobValues,
} from './job-model';
import vacanciesCss from './vacancies.css?inline';
import { injectStyle } from '@/lib/inject-style';

injectStyle('admin-vacancies', vacanciesCss);

type Problems = { fields: FieldErrors; general: string[] };
const NO_PROBLEMS: Problems = { fields: {}, general: [] };

function focusFirst(fields: FieldErrors) {
  const first = Object.keys(fields)[0] as FieldName | undefined;
  window.setTimeout(() => {
    const summary = document.getElementById('job-error-summary');
    if (summary) summary.focus();
    else if (first) document.getElementById(fieldId(first))?.focus();
  });
}

function useEditorJob(id: string | undefined) {
  const [job, setJob] = useState<EditorJob | null>(null);
  const [state, setState] = useState<'loading' | 'ready' | 'missing' | 'error'>(id ? 'loading' : 'ready');
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    if (!id) {
      setJob(null);
      setState('ready');
      return;
    }
    let live = true;
    setState('loading');
    getJob(id).then(
      (j) => live && (setJob(j), setState(j ? 'ready' : 'missing')),
      (e: Error) => live && (setError(e.message), setState('error')),
    );
    return () => {
      live = false;
    };
  }, [id]);
  return { job, setJob, state, error };
}

function Editor({ id }: { id: string | undefined }) {
  const { toast } = useToast();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const { job, setJob, state, error } = useEditorJob(id);
  const [values, setValues] = useState<JobValues>(EMPTY_VALUES);
  const [problems, setProblems] = useState<Problems>(NO_PROBLEMS);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    const v = job ? valuesFromJob(job) : EMPTY_VALUES;
    setValues(v);
    if (job && params.get('publish') === '1' && job.status !== 'active') setProblems({ fields: validate(v, 'active'), general: [] });
    else setProblems(NO_PROBLEMS);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [job]);

  function change(name: FieldName, value: string | boolean) {
    setValues((v) => ({ ...v, [name]: value }));
    setProblems((p) => ({ ...p, fields: { ...p.fields, [name]: undefined } }));
  }

  async function save(status: JobStatus, success: string) {
    const fields = validate(values, status);
    const found = Object.values(fields).some(Boolean);
    setProblems({ fields, general: [] });
    if (found) return focusFirst(fields);
    setBusy(true);
    try {
      const row = { ...rowFromValues(values, job), status };
      const saved = job ? await updateJob(job.id, row) : await createJob(row);
      setJob(saved);
      toast({ title: 'Success', description: success });
      if (!job) navigate(`/admin/vacancies/${saved.id}`, { replace: true });
    } catch (e) {
      const refused = e instanceof JobWriteError && e.code === '23514' ? publishErrorsFromDetail(e.details) : null;
      const next = refused ?? { fields: {}, general: [(e as Error).message] };
      setProblems(next);
      focusFirst(next.fields);
      toast({ title: refused ? 'Cannot publish yet' : 'Error', description: (e as Error).message, variant: 'destructive' });
    } finally {
      setBusy(false);
    }
  }

  async function duplicate() {
    if (!job) return;
    setBusy(true);
    try {
      const copy = await duplicateJob(job.id);
      toast({ title: 'Success', description: 'Job duplicated as a draft' });
      navigate(`/admin/vacancies/${copy.id}`);
    } catch (e) {
      toast({ title: 'Error', description: (e as Error).message, variant: 'destructive' });
    } finally {
      setBusy(false);
    }
  }

  function submit(e: FormEvent) {
    e.preventDefault();
    const status = job?.status ?? 'draft';
    void save(status, status === 'draft' ? 'Draft saved' : 'Job saved');
  }

  if (state === 'loading') return <p className="muted">Loading...</p>;
  if (state === 'error') return <p role="alert" className="field__error">{error}</p>;
  if (state === 'missing')
    return (
      <div className="card admin-access" data-not-found>
        <h2>Job not found</h2>
        <p className="muted">No job has this address. It may have been removed by the CRM.</p>
        <Link to="/admin/vacancies">Back to Vacancies</Link>
      </div>
    );

  const status = job?.status ?? 'draft';
  return (
    <form className="admin-form job-editor" onSubmit={submit} noValidate aria-labelledby="job-editor-title">
      <div className="job-editor__status" data-testid="job-editor-status">
        <h2 id="job-editor-title" className="visually-hidden">
          {job ? `Edit ${job.title}` : 'New job'}
        </h2>
        <span className={`badge status-badge--${status === 'active' ? 'active' : 'inactive'}`}>{job ? STATUS_LABELS[status] : 'New draft'}</span>
        {job && (
          <span className="muted-small">
            Posted {formatDateTime(job.posted_date)} · last changed {formatDateTime(job.updated_at)}
            {job.external_id && ` · from the CRM (${job.external_id}): the next import may overwrite edits`}
          </span>
        )}
        {job?.status === 'active' && (
          <a href={`/jobs/${job.id}`} target="_blank" rel="noopener" className="job-editor__live">
            View the live page (opens in a new tab)
          </a>
        )}
      </div>
      <ErrorSummary errors={problems.fields} general={problems.general} />
      <JobForm values={values} errors={problems.fields} onChange={change} job={job} />
      <div className="admin-form__actions job-editor__actions">
        {status === 'draft' ? (
          <>
            <Button type="submit" variant="outline" disabled={busy}>
              Save draft
            </Button>
            <Button onClick={() => void save('active', 'Job published')} disabled={busy} aria-busy={busy}>
              Publish
            </Button>
          </>
        ) : status === 'active' ? (
          <>
            <Button type="submit" disabled={busy}>
              Save changes
            </Button>
            <Button variant="outline" className="btn--danger-outline" onClick={() => void save('closed', 'Job closed')} disabled={busy}>
              Close job
            </Button>
          </>
        ) : (
          <>
            <Button type="submit" variant="outline" disabled={busy}>
              Save changes
            </Button>
            <Button onClick={() => void save('active', 'Job reopened')} disabled={busy}>
              Reopen
            </Button>
          </>
        )}
        {job && (
          <Button variant="ghost" onClick={() => void duplicate()} disabled={busy}>
            Duplicate
          </Button>
        )}
        <Link to="/admin/vacancies" className="job-editor__cancel">
          Back to the list
        </Link>
      </div>
    </form>
  );
}

export default function AdminVacancyEditorPage() {
  const { jobId } = useParams();
  return (
    <AdminPage
      title={jobId ? 'Edit job' : 'New job'}
      subtitle="Everything the job page, feeds and job boards show."
      path={jobId ? `/admin/vacancies/${jobId}` : '/admin/vacancies/new'}
      back={{ to: '/admin/vacancies', label: 'Vacancies' }}
    >
      <Editor key={jobId ?? 'new'} id={jobId} />
    </AdminPage>
  );
}
