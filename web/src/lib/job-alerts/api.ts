// Job alert calls: sign-up (public.create_job_alert: anon, or the signed-in candidate whose verified address needs no
// confirmation) and the owner's own alerts through the table (RLS: list, change, delete).
import { getSupabase, unwrap } from '@/lib/api';
import { object, oneOf, type Decoder } from '@/lib/decode';
import { getPublicData } from '@/lib/public-data';
import { ALERT_COLUMNS, type AlertFrequency, type AlertSearch, type JobAlert } from './model';

export type SignupResult = { status: 'pending' | 'active' };
const signupResult: Decoder<SignupResult> = object({ status: oneOf(['pending', 'active']) });

export async function createJobAlert(
  input: AlertSearch & { email: string; frequency: AlertFrequency; consent_text: string },
  signedIn: boolean,
): Promise<SignupResult> {
  const args = {
    email: input.email,
    consent_text: input.consent_text,
    frequency: input.frequency,
    q: input.q ?? undefined,
    location: input.location ?? undefined,
    sectors: input.sectors ?? undefined,
    regions: input.regions ?? undefined,
    employment_types: input.employment_types ?? undefined,
    work_arrangements: input.work_arrangements ?? undefined,
    salary_min: input.salary_min ?? undefined,
  };
  // Signed in, the call carries the session, so a verified account address is active at once.
  const result = signedIn ? await (await getSupabase()).rpc('create_job_alert', args) : await (await getPublicData()).rpc('create_job_alert', args);
  return signupResult(unwrap(result));
}

export async function listMyAlerts(): Promise<JobAlert[]> {
  const client = await getSupabase();
  return unwrap(await client.from('job_alerts').select(ALERT_COLUMNS).order('created_at', { ascending: false }));
}

export async function updateAlert(id: string, patch: Partial<AlertSearch> & { frequency?: AlertFrequency }): Promise<void> {
  const client = await getSupabase();
  unwrap(await client.from('job_alerts').update(patch).eq('id', id).select('id').single());
}

export async function deleteAlert(id: string): Promise<void> {
  const client = await getSupabase();
  unwrap(await client.from('job_alerts').delete().eq('id', id).select('id').single());
}
