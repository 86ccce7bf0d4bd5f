// Featured jobs for the home page: active ones with their job embedded, by display_order (spec §7), at most 5; each
// displayed value is the custom override when present, otherwise the job's own value.
import { getSupabase, unwrap } from '@/lib/api';
import { FEATURED_SELECT, type FeaturedJobRow } from '@/lib/featured-job-row';

export const FEATURED_LIMIT = 5;

export type FeaturedJob = {
  id: string;
  jobId: string;
  title: string;
  company: string | null;
  location: string | null;
  salary: string | null;
  type: string | null;
  sector: string | null;
  excerpt: string | null;
  tags: string[];
};

export function toFeaturedJob(row: FeaturedJobRow): FeaturedJob {
  const job = row.jobs;
  return {
    id: row.id,
    jobId: job?.id ?? row.job_id,
    title: row.custom_title || job?.title || '',
    company: row.custom_company || job?.company || null,
    location: row.custom_location || job?.location || null,
    salary: row.custom_salary || job?.salary || null,
    type: row.custom_type || job?.type || null,
    sector: row.custom_sector || null,
    excerpt: row.custom_excerpt,
    tags: row.tags,
  };
}

export async function getFeaturedJobs(): Promise<FeaturedJob[]> {
  const client = await getSupabase();
  const rows: FeaturedJobRow[] = unwrap(
    await client.from('featured_jobs').select(FEATURED_SELECT).eq('is_active', true).order('display_order', { ascending: true }),
  );
  return rows.map(toFeaturedJob).slice(0, FEATURED_LIMIT);
}
