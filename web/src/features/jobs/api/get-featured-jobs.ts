// Featured jobs for the home page: active ones with their job embedded, by display_order (spec §7), at most 5; each
// displayed value is the custom override when present, otherwise the job's own value.
import { getSupabase, unwrap } from '@/lib/api';

export const FEATURED_LIMIT = 5;

type FeaturedRow = {
  id: string;
  job_id: string;
  is_active: boolean;
  display_order: number;
  custom_excerpt: string | null;
  custom_title: string | null;
  custom_company: string | null;
  custom_sector: string | null;
  custom_location: string | null;
  custom_salary: string | null;
  custom_type: string | null;
  tags: string[] | null;
  jobs: { id: string; title: string; company: string | null; location: string | null; salary: string | null; type: string | null } | null;
};

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

export function toFeaturedJob(row: FeaturedRow): FeaturedJob {
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
    tags: row.tags ?? [],
  };
}

export async function getFeaturedJobs(): Promise<FeaturedJob[]> {
  const client = await getSupabase();
  const rows = unwrap(
    await client
      .from('featured_jobs')
      .select('*, jobs(id, title, company, location, salary, type)')
      .eq('is_active', true)
      .order('display_order', { ascending: true }),
  ) as unknown as FeaturedRow[];
  return rows.map(toFeaturedJob).slice(0, FEATURED_LIMIT);
}
