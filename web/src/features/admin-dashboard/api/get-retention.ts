// The dashboard's Data retention panel: who is due the retention notice or erasure within the next 30 days or is
// overdue (rpc retention_due), and the latest passes (rpc retention_runs). Both refuse non-admins (sql/migrations/0320).
import { getSupabase, unwrap } from '@/lib/api';

export const RETENTION_WINDOW = '30 days';
export const RETENTION_RUNS = 10;

export type RetentionDue = {
  email: string;
  applications: number;
  enquiries: number;
  accounts: number;
  profiles: number;
  last_contact_at: string;
  status: 'notice due' | 'awaiting answer' | 'deletion due' | 'active';
  next_step: 'notice' | 'erasure';
  next_step_at: string;
};

export type RetentionRun = {
  ran_at: string;
  kind: 'scheduled' | 'request';
  notices: number;
  people_erased: number;
  deleted: Record<string, number>;
};

export type Retention = { due: RetentionDue[]; runs: RetentionRun[] };

export async function getRetention(): Promise<Retention> {
  const client = await getSupabase();
  const [due, runs] = await Promise.all([
    client.rpc('retention_due', { within: RETENTION_WINDOW }),
    client.rpc('retention_runs', { max_rows: RETENTION_RUNS }),
  ]);
  return { due: unwrap(due) as RetentionDue[], runs: unwrap(runs) as RetentionRun[] };
}
