// /admin/candidates/analytics: 'Candidate Engagement Analytics' (admin views excluded): the cards (Total Views,
// Unique Viewers, Profiles Viewed 'Out of N total profiles', Engagement Rate), views per day for the last 30 days with
// the top referrers (all profiles, or the chosen one), the per-profile table (paged on the server, by views), CSV
// export of every row, and Clear Admin Views; then views per client (each client's own link). Live: a recorded view
// reloads the figures (useLiveProfileViews).
import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { useToast } from '@/components/ui/toast';
import { AdminPage } from '@/components/admin/admin-page';
import { ConfirmDialog } from '@/components/admin/confirm-dialog';
import { LiveBadge } from '@/components/admin/live-badge';
import { Pager } from '@/components/admin/pager';
import { useLiveProfileViews } from '@/lib/admin/use-live-profile-views';
import { clearAdminViews, getAllFigures, TABLE_PAGE_SIZE, TREND_DAYS, type Analytics } from './api/profile-analytics';
import { AnalyticsTable } from './components/analytics-table';
import { ClientViews } from './components/client-views';
import { TopReferrers } from './components/top-referrers';
import { ViewsChart } from './components/views-chart';
import { analyticsCsv } from './csv';
import { datedFileName, downloadCsv } from '@/lib/admin/csv';
import { useProfileAnalytics } from './use-profile-analytics';
import { injectStyle } from '@/lib/inject-style';
import analyticsCss from './analytics.css?inline';

injectStyle('admin-analytics', analyticsCss);

function Cards({ a }: { a: Analytics }) {
  return (
    <div className="stat-grid" data-testid="analytics-cards">
      <div className="stat-card" data-testid="card-total-views">
        <p className="stat-card__label">Total Views</p>
        <p className="stat-card__value">{a.total_views}</p>
      </div>
      <div className="stat-card" data-testid="card-unique-viewers">
        <p className="stat-card__label">Unique Viewers</p>
        <p className="stat-card__value">{a.unique_viewers}</p>
        <p className="stat-card__note">Each visitor once per profile per day; reloads within 30 minutes not counted</p>
      </div>
      <div className="stat-card" data-testid="card-profiles-viewed">
        <p className="stat-card__label">Profiles Viewed</p>
        <p className="stat-card__value">{a.profiles_viewed}</p>
        <p className="stat-card__note">Out of {a.total_profiles} total profiles</p>
      </div>
      <div className="stat-card" data-testid="card-engagement-rate">
        <p className="stat-card__label">Engagement Rate</p>
        <p className="stat-card__value">{a.engagement_rate}%</p>
      </div>
    </div>
  );
}

function AnalyticsView() {
  const { toast } = useToast();
  const { analytics, error, selected, select, setOffset, trend, refetch } = useProfileAnalytics();
  const live = useLiveProfileViews(refetch);
  const [confirming, setConfirming] = useState(false);
  if (!analytics) return error ? <p role="alert" className="field__error">{error}</p> : <p className="muted">Loading...</p>;
  // The chosen row with today's figures when it is on this page.
  const chosen = selected ? (analytics.profiles.find((p) => p.id === selected.id) ?? selected) : null;
  async function exportCsv() {
    try {
      downloadCsv(datedFileName('profile-analytics'), analyticsCsv(await getAllFigures()));
    } catch {
      toast({ title: 'Error', description: 'The export failed. Please try again.', variant: 'destructive' });
    }
  }
  const chartLabel = chosen ? `Views per day, last ${TREND_DAYS} days: ${chosen.candidate_id}` : `Views per day, last ${TREND_DAYS} days: all profiles`;
  return (
    <>
      <Cards a={analytics} />
      <p className="muted-small" data-testid="excluded-note">
        Not counted: {analytics.excluded_admin_views} admin {analytics.excluded_admin_views === 1 ? 'view' : 'views'} and {analytics.excluded_bot_views}{' '}
        from crawlers, link previews and e-mail scanners.
      </p>
      <section className="admin-panel" aria-labelledby="trend-title">
        <div className="admin-panel__head">
          <h2 id="trend-title">{chosen ? `Views per day: ${chosen.name ?? 'Unknown'} (${chosen.candidate_id})` : 'Views per day: all profiles'}</h2>
          {chosen && (
            <Button variant="outline" size="sm" onClick={() => select(null)}>
              Show all profiles
            </Button>
          )}
        </div>
        {trend ? (
          <div className="trend-grid">
            <ViewsChart trend={trend} label={chartLabel} />
            <TopReferrers referrers={trend.referrers} />
          </div>
        ) : (
          <p className="muted">Loading...</p>
        )}
      </section>
      <section className="admin-panel" aria-labelledby="table-title">
        <div className="admin-panel__head">
          <div className="admin-panel__title">
            <h2 id="table-title">Views per profile</h2>
            <LiveBadge live={live} />
          </div>
          <div className="btn-row">
            <Button variant="outline" size="sm" onClick={() => void exportCsv()}>
              Export CSV
            </Button>
            <Button variant="outline" size="sm" className="btn--danger-outline" onClick={() => setConfirming(true)}>
              Clear Admin Views
            </Button>
          </div>
        </div>
        <AnalyticsTable rows={analytics.profiles} selected={chosen?.id ?? null} onSelect={select} />
        <Pager total={analytics.total_profiles} offset={analytics.page_offset} pageSize={TABLE_PAGE_SIZE} onOffset={setOffset} label="Pages of the table" testId="analytics-page-range" />
      </section>
      <ClientViews version={analytics} />
      <ConfirmDialog
        open={confirming}
        title="Clear Admin Views?"
        description="This will permanently delete all profile views made by admin users from the database. This action cannot be undone."
        confirmLabel="Clear Views"
        onCancel={() => setConfirming(false)}
        onConfirm={async () => {
          try {
            const count = await clearAdminViews();
            toast({ title: `Cleared ${count} admin views` });
          } catch {
            toast({ title: 'Failed to clear admin views', variant: 'destructive' });
          } finally {
            setConfirming(false);
            await refetch();
          }
        }}
        testId="clear-admin-views-dialog"
      />
    </>
  );
}

export default function AdminAnalyticsPage() {
  return (
    <AdminPage
      title="Candidate Engagement Analytics"
      subtitle="How clients engage with shared profiles (admin views excluded)."
      path="/admin/candidates/analytics"
      back={{ to: '/admin/candidates', label: 'Back to Candidates' }}
    >
      <AnalyticsView />
    </AdminPage>
  );
}
