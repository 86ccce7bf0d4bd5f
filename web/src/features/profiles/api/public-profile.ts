// The public profile page's calls (spec §7). Only public columns are ever asked for (the table refuses the others to
// anon and users: name, e-mail and location never reach this page, not even in the network responses).
import { getSupabase, unwrap } from '@/lib/api';

export const OTHER_PROFILES_LIMIT = 5;

export type PublicProfile = { id: string; candidate_id: string; job_title: string | null; candidate_reference: string | null; details: string | null; slug: string };
export type OtherProfile = { id: string; candidate_id: string; job_title: string | null; slug: string };

/** The active profile with this slug, or null (inactive, unknown and malformed slugs all look the same). */
export async function getProfileBySlug(slug: string): Promise<PublicProfile | null> {
  const client = await getSupabase();
  return unwrap(
    await client
      .from('candidate_profiles')
      .select('id,candidate_id,job_title,candidate_reference,details,slug')
      .eq('slug', slug)
      .eq('status', 'active')
      .maybeSingle(),
  ) as PublicProfile | null;
}

export async function getOtherProfiles(currentId: string, limit = OTHER_PROFILES_LIMIT): Promise<OtherProfile[]> {
  const client = await getSupabase();
  return unwrap(
    await client
      .from('candidate_profiles')
      .select('id,candidate_id,job_title,slug')
      .eq('status', 'active')
      .neq('id', currentId)
      .not('job_title', 'is', null)
      .limit(limit),
  ) as OtherProfile[];
}

/**
 * Records a view (spec §7: profile_id, user_id from the session or null, user_agent, referrer). The database adds the
 * visitor hash and marks repeats, bots and admin views (sql/migrations/0233); nothing is read back.
 */
export async function recordProfileView(profileId: string, userId: string | null, referrer?: string): Promise<void> {
  const client = await getSupabase();
  const { error } = await client.from('profile_views').insert({
    profile_id: profileId,
    user_id: userId,
    user_agent: navigator.userAgent,
    referrer: referrer || document.referrer || null,
  });
  if (error) throw new Error(error.message);
}
