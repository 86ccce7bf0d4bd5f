// The dashboard's data: job figures with the Data Quality rule (rpc admin_job_overview) and the latest audit entries.
import { getSupabase, unwrap } from '@/lib/api';
import { array, nullable, num, object, str, type Decoder } from '@/lib/decode';

export type OverviewJob = {
  id: string;
  job_id: string | null;
  title: string;
  company: string;
  location?: string | null;
  salary?: string | null;
  status: string;
  posted_date: string;
  missing: string[];
};

export type JobOverview = { total: number; active: number; incomplete: number; jobs: OverviewJob[]; issues: OverviewJob[] };

export type AuditEntry = {
  id: number;
  at: string;
  actor_email: string | null;
  actor_role: string;
  table_name: string;
  action: 'INSERT' | 'UPDATE' | 'DELETE';
  subject: string | null;
  old_data: Record<string, unknown> | null;
  new_data: Record<string, unknown> | null;
  changed_fields: string[] | null;
};

const overviewJob: Decoder<OverviewJob> = object({
  id: str,
  job_id: nullable(str),
  title: str,
  company: str,
  location: nullable(str),
  salary: nullable(str),
  status: str,
  posted_date: str,
  missing: array(str),
});
const jobOverview: Decoder<JobOverview> = object({ total: num, active: num, incomplete: num, jobs: array(overviewJob), issues: array(overviewJob) });

export const DASHBOARD_JOB_LIMIT = 10;
export const RECENT_ACTIVITY_LIMIT = 10;

export async function getJobOverview(): Promise<JobOverview> {
  const client = await getSupabase();
  return jobOverview(unwrap(await client.rpc('admin_job_overview', { list_limit: DASHBOARD_JOB_LIMIT })));
}

export async function getRecentActivity(): Promise<AuditEntry[]> {
  const client = await getSupabase();
  return unwrap(
    await client
      .from('audit_log')
      .select('id,at,actor_email,actor_role,table_name,action,subject,old_data,new_data,changed_fields')
      .order('id', { ascending: false })
      .limit(RECENT_ACTIVITY_LIMIT),
  ) as AuditEntry[];
}
