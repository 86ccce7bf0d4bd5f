// Analytics reads: the whole page in one call (rpc admin_profile_analytics: cards, one page of the per-profile table,
// the views per day of the last 30 days and top referrers, all computed in SQL without admin or bot views), every
// row for the CSV export (rpc admin_profile_figures), one profile's trend (rpc admin_profile_view_trend), and Clear
// Admin Views (rpc delete_admin_profile_views, spec §7).
import { getSupabase, unwrap } from '@/lib/api';

export const TREND_DAYS = 30;
/** Rows of the per-profile table per page (the server sorts by views and pages). */
export const TABLE_PAGE_SIZE = 50;

export type DayCount = { day: string; views: number; unique_viewers: number };
export type ReferrerCount = { referrer: string | null; views: number };
export type Trend = { profile_id: string | null; first_day: string; last_day: string; daily: DayCount[]; referrers: ReferrerCount[] };

export type ProfileFigures = {
  id: string;
  candidate_id: string;
  name: string | null;
  job_title: string | null;
  candidate_reference: string | null;
  status: 'active' | 'inactive';
  views: number;
  unique_viewers: number;
  first_viewed: string | null;
  last_viewed: string | null;
};

export type Analytics = {
  total_profiles: number;
  total_views: number;
  unique_viewers: number;
  profiles_viewed: number;
  engagement_rate: number;
  excluded_admin_views: number;
  excluded_bot_views: number;
  page_size: number;
  page_offset: number;
  /** One page of the table: TABLE_PAGE_SIZE rows from page_offset, by views. */
  profiles: ProfileFigures[];
  trend: Trend;
};

export async function getAnalytics(offset: number): Promise<Analytics> {
  const client = await getSupabase();
  return unwrap(
    await client.rpc('admin_profile_analytics', { days: TREND_DAYS, page_size: TABLE_PAGE_SIZE, page_offset: offset }),
  ) as Analytics;
}

/** Every row of the table, by views (for the CSV export). */
export async function getAllFigures(): Promise<ProfileFigures[]> {
  const client = await getSupabase();
  return unwrap(await client.rpc('admin_profile_figures')) as ProfileFigures[];
}

export async function getProfileTrend(profileId: string): Promise<Trend> {
  const client = await getSupabase();
  return unwrap(await client.rpc('admin_profile_view_trend', { profile_id: profileId, days: TREND_DAYS })) as Trend;
}

export async function clearAdminViews(): Promise<number> {
  const client = await getSupabase();
  return unwrap(await client.rpc('delete_admin_profile_views')) as number;
}
