// Candidate profiles for the admin: one page of profiles searched on the server (rpc admin_candidate_profile_page:
// name, e-mail or location, case-insensitive; with counted views), and the writes (spec §7): create (source
// 'manual', external_id 'manual-<timestamp>'), update by id returning the row, activate/deactivate, delete.
import { getSupabase, unwrap } from '@/lib/api';

export const PAGE_SIZE = 25;
/** The columns anyone may read; every write asks for these back (never select('*'): see sql/README.md). */
export const PUBLIC_COLUMNS = 'id,candidate_id,job_title,candidate_reference,details,slug,status';

export type CandidateProfile = {
  id: string;
  candidate_id: string;
  name: string;
  email: string | null;
  location: string | null;
  job_title: string | null;
  candidate_reference: string | null;
  details: string | null;
  slug: string;
  status: 'active' | 'inactive';
  source: string | null;
  external_id: string | null;
  created_at: string;
  views: number;
  unique_viewers: number;
};

export type ProfilePage = { total_profiles: number; matching: number; page_size: number; page_offset: number; profiles: CandidateProfile[] };

export type ProfileInput = {
  name: string;
  candidate_id: string;
  job_title: string | null;
  candidate_reference: string | null;
  details: string | null;
  email: string | null;
  location: string | null;
};

export async function getProfilePage(search: string, offset: number): Promise<ProfilePage> {
  const client = await getSupabase();
  return unwrap(
    await client.rpc('admin_candidate_profile_page', { search: search.trim() || undefined, page_size: PAGE_SIZE, page_offset: offset }),
  ) as ProfilePage;
}

export async function createProfile(input: ProfileInput): Promise<void> {
  const client = await getSupabase();
  unwrap(
    await client
      .from('candidate_profiles')
      .insert({ ...input, source: 'manual', external_id: `manual-${Date.now()}` })
      .select(PUBLIC_COLUMNS),
  );
}

export async function updateProfile(id: string, input: Omit<ProfileInput, 'candidate_id'>): Promise<void> {
  const client = await getSupabase();
  unwrap(await client.from('candidate_profiles').update(input).eq('id', id).select(PUBLIC_COLUMNS).single());
}

export async function setProfileStatus(id: string, status: 'active' | 'inactive'): Promise<void> {
  const client = await getSupabase();
  unwrap(await client.from('candidate_profiles').update({ status }).eq('id', id).select(PUBLIC_COLUMNS).single());
}

export async function deleteProfile(id: string): Promise<void> {
  const client = await getSupabase();
  unwrap(await client.from('candidate_profiles').delete().eq('id', id));
}

export function shareLink(slug: string): string {
  return `${window.location.origin}/profile/${slug}`;
}
