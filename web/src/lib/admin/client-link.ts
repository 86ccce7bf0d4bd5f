// A client link as the admin reads it (sql 0457: admin_profile_sharing per profile, admin_client_link_views across
// profiles): its state, counted views, the words for its state, and the decoder both api modules check it with.
import { nullable, num, object, oneOf, str, type Decoder } from '@/lib/decode';

export const LINK_STATES = ['active', 'expired', 'revoked', 'unavailable'] as const;
export type LinkState = (typeof LINK_STATES)[number];
export const LINK_STATE_LABELS: Record<LinkState, string> = { active: 'Active', expired: 'Expired', revoked: 'Revoked', unavailable: 'Profile inactive' };

export type ClientLink = {
  id: string;
  client_name: string;
  client_company: string;
  created_at: string;
  created_by: string | null;
  expires_at: string;
  revoked_at: string | null;
  revoked_by: string | null;
  state: LinkState;
  views: number;
  unique_viewers: number;
  first_viewed: string | null;
  last_viewed: string | null;
};

export const clientLinkFields = {
  id: str,
  client_name: str,
  client_company: str,
  created_at: str,
  created_by: nullable(str),
  expires_at: str,
  revoked_at: nullable(str),
  revoked_by: nullable(str),
  state: oneOf(LINK_STATES),
  views: num,
  unique_viewers: num,
  first_viewed: nullable(str),
  last_viewed: nullable(str),
};

export const clientLink: Decoder<ClientLink> = object(clientLinkFields);
