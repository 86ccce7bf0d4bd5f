// /admin: links to the featured-job and candidate areas, job stats (Total, Active, Incomplete by spec §5), the first
// 10 jobs, the Data Quality Issues panel (each incomplete job and what it lacks), recent activity from the audit log,
// what the data retention pass has due (issue 14: "an admin can see what is due"), and the desk: new applications
// since the admin's last visit and unhandled enquiries (issue 25).
import { Link } from 'react-router';
import { AdminPage } from '@/components/admin/admin-page';
import { formatDateTime, formatRelative } from '@/lib/admin/format';
import { useQuery } from '@/lib/use-query';
import { useAuth } from '@/lib/auth';
import { activityText } from './activity-text';
import { getJobOverview, getRecentActivity, type AuditEntry, type OverviewJob } from './api/get-overview';
import { getRetention } from './api/get-retention';
import { RetentionPanel } from './components/retention-panel';
import { MISSING_LABELS } from '@/lib/admin/issue-labels';
import { DeskCards } from './components/desk-cards';

function Stat({ label, value, warn, to }: { label: string; value: number | string; warn?: boolean; to?: string }) {
  return (
    <div className={`stat-card${warn ? ' stat-card--warn' : ''}`} data-testid={`stat-${label.toLowerCase().replace(/\s+/g, '-')}`}>
      <p className="stat-card__label">{to ? <Link to={to}>{label}</Link> : label}</p>
      <p className="stat-card__value">{value}</p>
    </div>
  );
}

function JobList({ jobs }: { jobs: OverviewJob[] }) {
  if (jobs.length === 0) return <p className="empty-state">No jobs found in the system.</p>;
  return (
    <ul className="plain-list" data-testid="dashboard-jobs">
      {jobs.map((j) => (
        <li key={j.id}>
          <Link to={`/admin/vacancies/${j.id}`} className="strong-link">
            {j.title}
          </Link>{' '}
          <span className={`badge${j.status === 'active' ? ' status-badge--active' : ' status-badge--inactive'}`}>{j.status}</span>
          <div className="muted-small">
            {[j.company, j.location, j.job_id].filter(Boolean).join(' · ')} · posted {formatDateTime(j.posted_date)}
          </div>
        </li>
      ))}
    </ul>
  );
}

function QualityPanel({ issues }: { issues: OverviewJob[] }) {
  return (
    <section className="admin-panel" aria-labelledby="dq-title" data-testid="data-quality">
      <div className="admin-panel__head">
        <h2 id="dq-title">Data Quality Issues</h2>
        {issues.length > 0 && <Link to="/admin/vacancies?issue=incomplete">Fix in the job editor</Link>}
      </div>
      {issues.length === 0 ? (
        <p className="muted">Every job has a description, requirements, a named company and a salary.</p>
      ) : (
        <ul className="plain-list">
          {issues.map((j) => (
            <li key={j.id}>
              <Link to={`/admin/vacancies/${j.id}`} className="strong-link">
                {j.title}
              </Link>{' '}
              <span className="muted-small">{j.job_id}</span>
              <div className="issue-tags">
                {j.missing.map((m) => (
                  <span key={m} className="badge issue-tag">
                    {MISSING_LABELS[m] ?? m}
                  </span>
                ))}
              </div>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function RecentActivity({ entries }: { entries: AuditEntry[] | null }) {
  return (
    <section className="admin-panel" aria-labelledby="activity-title" data-testid="recent-activity">
      <h2 id="activity-title">Recent activity</h2>
      {!entries ? (
        <p className="muted">Loading...</p>
      ) : entries.length === 0 ? (
        <p className="muted">No admin changes recorded yet.</p>
      ) : (
        <ul className="plain-list">
          {entries.map((e) => (
            <li key={e.id}>
              {activityText(e)}
              <div className="muted-small">
                <time dateTime={e.at} title={formatDateTime(e.at)}>
                  {formatRelative(e.at)}
                </time>
              </div>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function Dashboard() {
  const overview = useQuery(getJobOverview, []);
  const activity = useQuery(getRecentActivity, []);
  const retention = useQuery(getRetention, []);
  const data = overview.data;
  return (
    <>
      <div className="link-cards">
        <article className="card card--interactive link-card">
          <h2>
            <Link to="/admin/jobs" className="card__stretched">
              Manage Featured Jobs
            </Link>
          </h2>
          <p className="muted">Choose, word and order the roles on the home page.</p>
        </article>
        <article className="card card--interactive link-card">
          <h2>
            <Link to="/admin/candidates" className="card__stretched">
              Manage Candidates
            </Link>
          </h2>
          <p className="muted">Create and share anonymised candidate profiles and see who views them.</p>
        </article>
        <article className="card card--interactive link-card">
          <h2>
            <Link to="/admin/vacancies" className="card__stretched">
              Manage Vacancies
            </Link>
          </h2>
          <p className="muted">Write, publish, close and import the firm's jobs.</p>
        </article>
      </div>
      <DeskCards />
      {overview.error && <p role="alert" className="field__error">{overview.error}</p>}
      <div className="stat-grid">
        <Stat label="Total Jobs" value={data ? data.total : '…'} />
        <Stat label="Active Jobs" value={data ? data.active : '…'} />
        <Stat label="Incomplete Jobs" value={data ? data.incomplete : '…'} warn={Boolean(data && data.incomplete > 0)} to="/admin/vacancies?issue=incomplete" />
      </div>
      <div className="dashboard-grid">
        <section className="admin-panel" aria-labelledby="jobs-title">
          <div className="admin-panel__head">
            <h2 id="jobs-title">Jobs</h2>
            <Link to="/admin/vacancies">All jobs</Link>
          </div>
          {data ? <JobList jobs={data.jobs} /> : <p className="muted">Loading...</p>}
        </section>
        {data ? <QualityPanel issues={data.issues} /> : <section className="admin-panel"><p className="muted">Loading...</p></section>}
      </div>
      <div className="dashboard-grid">
        <RecentActivity entries={activity.data} />
        <RetentionPanel data={retention.data} error={retention.error} />
      </div>
    </>
  );
}

export default function AdminDashboardPage() {
  const { user } = useAuth();
  return (
    <AdminPage
      title="Admin Dashboard"
      subtitle={user?.email ? `Signed in as ${user.email}` : undefined}
      path="/admin"
      policy="dashboard"
    >
      <Dashboard />
    </AdminPage>
  );
}
