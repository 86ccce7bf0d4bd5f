// /admin/applications/{id}: one application: the applicant's details and cover letter, the CV (a PDF drawn in the
// page from a short-lived signed URL, anything else downloadable), the job, the status with what the candidate sees
// and the form to change it, the consultant, the history and the internal notes (never shown to the candidate).
import { useParams } from 'react-router';
import { AdminPage } from '@/components/admin/admin-page';
import { formatDateTime } from '@/lib/admin/format';
import { GonePanel, useAddNote } from '@/components/admin/detail';
import { NotesPanel } from '@/components/admin/notes-panel';
import { useQuery } from '@/lib/use-query';
import { getApplication, type ApplicationDetail } from './api/applications';
import { ConsultantPicker } from './components/consultant-picker';
import { CvViewer } from './components/cv-viewer';
import { History } from './components/history';
import { StatusBadge } from './components/status-badge';
import { StatusChangeForm } from './components/status-change-form';
import { injectStyle } from '@/lib/inject-style';
import deskCss from '@/components/admin/desk.css?inline';

injectStyle('desk', deskCss);

function Applicant({ a }: { a: ApplicationDetail }) {
  return (
    <section className="admin-panel" aria-labelledby="applicant-title" data-testid="applicant">
      <h2 id="applicant-title">Applicant</h2>
      <dl className="desk-facts">
        <dt>Name</dt>
        <dd>
          {a.first_name} {a.last_name}
        </dd>
        <dt>E-mail</dt>
        <dd>
          <a href={`mailto:${a.email}`}>{a.email}</a>
        </dd>
        <dt>Phone</dt>
        <dd>
          <a href={`tel:${a.phone.replace(/[^\d+]/g, '')}`}>{a.phone}</a>
        </dd>
        <dt>Applied</dt>
        <dd>{formatDateTime(a.created_at)}</dd>
        <dt>Job</dt>
        <dd>
          {a.job ? (
            <>
              {a.job.status === 'active' ? <a href={`/jobs/${a.job.id}`}>{a.job.title}</a> : `${a.job.title} (${a.job.status})`}
              <span className="muted-small"> · {[a.job.company, a.job.location, a.job.job_ref].filter(Boolean).join(' · ')}</span>
            </>
          ) : (
            'A role no longer listed'
          )}
        </dd>
      </dl>
      <h3 className="desk-subtitle">Cover letter</h3>
      {a.cover_letter ? <p className="desk-prose" data-testid="cover-letter">{a.cover_letter}</p> : <p className="muted">No cover letter.</p>}
    </section>
  );
}

function Progress({ a, reload }: { a: ApplicationDetail; reload: () => Promise<void> }) {
  return (
    <section className="admin-panel" aria-labelledby="status-title" data-testid="progress">
      <h2 id="status-title">Status</h2>
      <p className="desk-status">
        <StatusBadge status={a.status} /> <span className="muted-small">since {formatDateTime(a.status_changed_at)}</span>
      </p>
      <p className="muted-small" data-testid="candidate-sees">
        The candidate sees: <strong>{a.plain_status}</strong>
      </p>
      <StatusChangeForm ids={[a.id]} current={a.status} onDone={reload} />
      <hr className="desk-rule" />
      <ConsultantPicker key={a.consultant?.id ?? 'none'} ids={[a.id]} current={a.consultant?.id ?? null} onDone={reload} />
    </section>
  );
}

function Application({ id }: { id: string }) {
  const query = useQuery(() => getApplication(id), [id]);
  const note = useAddNote({ application_id: id }, query.refetch);
  const a = query.data;
  if (query.error) return <p role="alert" className="field__error">{query.error}</p>;
  if (query.loading && !a) return <p className="muted">Loading...</p>;
  if (!a) return <GonePanel what="Application" back="/admin/applications" backLabel="Back to Applications" />;
  return (
    <div className="desk-detail">
      <div className="desk-detail__main">
        <Applicant a={a} />
        <CvViewer cv={a.cv} />
      </div>
      <div className="desk-detail__side">
        <Progress a={a} reload={query.refetch} />
        <NotesPanel notes={a.notes} onAdd={note} hint="Only admins see these notes: never the candidate, never in an e-mail." />
        <History application={a} />
      </div>
    </div>
  );
}

export default function AdminApplicationPage() {
  const { applicationId = '' } = useParams();
  return (
    <AdminPage title="Application" subtitle="The applicant, their CV, where the application stands and the firm's notes." path={`/admin/applications/${applicationId}`} back={{ to: '/admin/applications', label: 'Applications' }}>
      <Application id={applicationId} />
    </AdminPage>
  );
}
