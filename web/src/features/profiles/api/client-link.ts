// A client's own link to a profile (/profile/client#<token>): what the token opens (rpc client_profile: the public
// fields and the expiry while the link is active; otherwise only its state) and the view it records (rpc
// record_client_link_view: attributed to the link by the database; nothing for a dead link).
import { getSupabase, unwrap } from '@/lib/api';
import { nullable, object, oneOf, str, type Decoder } from '@/lib/decode';
import type { ProfileFields } from '../components/profile-view';

const CLIENT_LINK_STATES = ['active', 'expired', 'revoked', 'unavailable', 'unknown'] as const;
export type ClientLinkState = (typeof CLIENT_LINK_STATES)[number];
export type ClientProfile = { status: 'active'; expires_at: string; profile: ProfileFields } | { status: Exclude<ClientLinkState, 'active'> };

const profileFields: Decoder<ProfileFields> = object({ candidate_id: str, job_title: nullable(str), candidate_reference: nullable(str), details: nullable(str) });
const linkState = object({ status: oneOf(CLIENT_LINK_STATES) });
const openLink = object({ expires_at: str, profile: profileFields });

/** The profile and expiry are read only while the link is active; any other state carries nothing else. */
const clientProfile: Decoder<ClientProfile> = (v, p) => {
  const { status } = linkState(v, p);
  return status === 'active' ? { status, ...openLink(v, p) } : { status };
};

/** The token from the address's fragment (#<token>, or #token=<token>), or ''. */
export function tokenFromHash(hash: string): string {
  return hash.replace(/^#/, '').replace(/^token=/, '').trim();
}

export async function getClientProfile(token: string): Promise<ClientProfile> {
  const client = await getSupabase();
  return clientProfile(unwrap(await client.rpc('client_profile', { token })));
}

export async function recordClientLinkView(token: string, referrer?: string): Promise<boolean> {
  const client = await getSupabase();
  return unwrap(
    await client.rpc('record_client_link_view', { token, user_agent: navigator.userAgent, referrer: referrer || document.referrer || undefined }),
  ) as boolean;
}
