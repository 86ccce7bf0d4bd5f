// /admin/jobs: add or edit a featured job, and the table of featured jobs (switch, edit, remove with confirmation,
// reorder by drag and drop or Move up/down, saved in one transaction). Toasts as spec §8 says. The home page's
// Featured Opportunities read the table on every load, so a change shows on the next load.
import { useMemo, useState } from 'react';
import { useToast } from '@/components/ui/toast';
import { AdminPage } from '@/components/admin/admin-page';
import { ConfirmDialog } from '@/components/admin/confirm-dialog';
import { useQuery } from '@/lib/use-query';
import { ButtonLink } from '@/components/ui/button';
import {
  addFeaturedJob,
  displayTitle,
  listFeaturedJobs,
  listJobOptions,
  removeFeaturedJob,
  reorderFeaturedJobs,
  updateFeaturedJob,
  type FeaturedJobRow,
} from './api/featured-jobs';
import { EMPTY_FORM, FeaturedJobForm, toFields, type FormValues } from './components/featured-job-form';
import { FeaturedJobsTable } from './components/featured-jobs-table';

function toForm(row: FeaturedJobRow): FormValues {
  return {
    jobId: row.job_id,
    excerpt: row.custom_excerpt ?? '',
    title: row.custom_title ?? '',
    company: row.custom_company ?? '',
    sector: row.custom_sector ?? '',
    location: row.custom_location ?? '',
    salary: row.custom_salary ?? '',
    type: row.custom_type ?? '',
  };
}

function moved<T>(list: T[], from: number, to: number): T[] {
  const next = [...list];
  const [item] = next.splice(from, 1);
  next.splice(to, 0, item);
  return next;
}

function FeaturedJobs() {
  const { toast } = useToast();
  const featured = useQuery(listFeaturedJobs, []);
  const jobs = useQuery(listJobOptions, []);
  const [form, setForm] = useState<FormValues>(EMPTY_FORM);
  const [editing, setEditing] = useState<FeaturedJobRow | null>(null);
  const [formKey, setFormKey] = useState(0);
  const [saving, setSaving] = useState(false);
  const [busy, setBusy] = useState(false);
  const [removing, setRemoving] = useState<FeaturedJobRow | null>(null);
  const [order, setOrder] = useState<FeaturedJobRow[] | null>(null);
  const rows = order ?? featured.data ?? [];

  const featuredIds = useMemo(() => new Set((featured.data ?? []).map((r) => r.job_id)), [featured.data]);
  const options = (jobs.data ?? []).filter((j) => !featuredIds.has(j.id));

  function reset() {
    setForm(EMPTY_FORM);
    setEditing(null);
    setFormKey((k) => k + 1);
  }

  async function run(action: () => Promise<void>, success: string, after?: () => void) {
    try {
      await action();
      toast({ title: 'Success', description: success });
      after?.();
    } catch (e) {
      toast({ title: 'Error', description: (e as Error).message, variant: 'destructive' });
    } finally {
      setOrder(null);
      await featured.refetch();
    }
  }

  async function submit() {
    setSaving(true);
    if (editing) await run(() => updateFeaturedJob(editing.id, toFields(form)), 'Featured job updated successfully', reset);
    else await run(() => addFeaturedJob(form.jobId, toFields(form)), 'Featured job added successfully', reset);
    setSaving(false);
  }

  async function mutate(action: () => Promise<void>, success: string) {
    setBusy(true);
    await run(action, success);
    setBusy(false);
  }

  function startEdit(row: FeaturedJobRow) {
    setEditing(row);
    setForm(toForm(row));
    setFormKey((k) => k + 1);
    window.scrollTo({ top: 0, behavior: 'smooth' });
    window.setTimeout(() => document.querySelector<HTMLTextAreaElement>('[data-testid=featured-job-form] textarea')?.focus({ preventScroll: true }), 0);
  }

  function move(from: number, to: number) {
    if (to < 0 || to >= rows.length || from === to) return;
    const next = moved(rows, from, to);
    setOrder(next);
    void mutate(() => reorderFeaturedJobs(next.map((r) => r.id)), 'Featured jobs reordered');
  }

  return (
    <>
      <section className="admin-panel" aria-labelledby="form-title">
        <h2 id="form-title">{editing ? 'Edit Featured Job' : 'Add Featured Job'}</h2>
        <FeaturedJobForm
          key={formKey}
          mode={editing ? 'edit' : 'add'}
          values={form}
          onChange={setForm}
          jobOptions={options}
          editingJobLabel={editing ? `${editing.jobs?.title ?? displayTitle(editing)}${editing.jobs?.company ? ` — ${editing.jobs.company}` : ''}` : undefined}
          saving={saving}
          onSubmit={() => void submit()}
          onCancel={reset}
        />
      </section>
      <section className="admin-panel" aria-labelledby="list-title">
        <div className="admin-panel__head">
          <h2 id="list-title">Current Featured Jobs</h2>
          <span className="muted-small">The first 5 active jobs appear on the home page, in this order.</span>
        </div>
        {featured.error && <p role="alert" className="field__error">{featured.error}</p>}
        {featured.data === null && !featured.error ? (
          <p className="muted">Loading...</p>
        ) : (
          <FeaturedJobsTable
            rows={rows}
            busy={busy}
            onMove={move}
            onToggle={(row) => void mutate(() => updateFeaturedJob(row.id, { is_active: !row.is_active }), 'Featured job updated successfully')}
            onEdit={startEdit}
            onRemove={setRemoving}
          />
        )}
      </section>
      <ConfirmDialog
        open={removing !== null}
        title="Remove featured job?"
        description="Are you sure you want to remove this featured job?"
        confirmLabel="Remove"
        onCancel={() => setRemoving(null)}
        onConfirm={async () => {
          const row = removing;
          setRemoving(null);
          if (!row) return;
          if (editing?.id === row.id) reset();
          await mutate(() => removeFeaturedJob(row.id), 'Featured job removed successfully');
        }}
        testId="remove-featured-dialog"
      />
    </>
  );
}

export default function AdminFeaturedJobsPage() {
  return (
    <AdminPage
      title="Featured Jobs"
      subtitle="Choose the roles on the home page, word their cards and set their order."
      path="/admin/jobs"
      actions={
        <ButtonLink to="/admin" variant="outline-light">
          Back to Admin Dashboard
        </ButtonLink>
      }
    >
      <FeaturedJobs />
    </AdminPage>
  );
}
