// A client's own link to a profile (/profile/client#<token>): what the token opens (rpc client_profile: the public
// fields and the expiry while the link is active; otherwise only its state) and the view it records (rpc
// record_client_link_view: attributed to the link by the database; nothing for a dead link).
import { getSupabase, unwrap } from '@/lib/api';
import type { ProfileFields } from '../components/profile-view';

export type ClientLinkState = 'active' | 'expired' | 'revoked' | 'unavailable' | 'unknown';
export type ClientProfile = { status: 'active'; expires_at: string; profile: ProfileFields } | { status: Exclude<ClientLinkState, 'active'> };

/** The token from the address's fragment (#<token>, or #token=<token>), or ''. */
export function tokenFromHash(hash: string): string {
  return hash.replace(/^#/, '').replace(/^token=/, '').trim();
}

export async function getClientProfile(token: string): Promise<ClientProfile> {
  const client = await getSupabase();
  return unwrap(await client.rpc('client_profile', { token })) as unknown as ClientProfile;
}

export async function recordClientLinkView(token: string, referrer?: string): Promise<boolean> {
  const client = await getSupabase();
  return unwrap(
    await client.rpc('record_client_link_view', { token, user_agent: navigator.userAgent, referrer: referrer || document.referrer || undefined }),
  ) as boolean;
}
