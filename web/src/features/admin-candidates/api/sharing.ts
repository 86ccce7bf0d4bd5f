// Sharing a profile with named clients, consent first (sql 0456, 0457): the consent in force and earlier ones, the
// client links with their state and views (rpc admin_profile_sharing); recording and withdrawing consent
// (profile_consents: who and when are set by the database; withdrawing revokes the profile's links); making a link
// (rpc admin_create_client_link: its token is returned this once), revoking and extending it; and which clients
// viewed each profile of a page (rpc admin_profile_clients).
import { getSupabase, unwrap } from '@/lib/api';
import { clientLink, type ClientLink } from '@/lib/admin/client-link';
import { Constants, type Database } from '@/lib/database.types';
import { array, nullable, object, oneOf, str, type Decoder } from '@/lib/decode';

export type ConsentMethod = Database['public']['Enums']['consent_method'];
export const CONSENT_METHODS: readonly ConsentMethod[] = Constants.public.Enums.consent_method;
export const METHOD_LABELS: Record<ConsentMethod, string> = { email: 'By e-mail', phone: 'By phone', in_writing: 'In writing' };

/** Default and longest life of a link, in days (the database refuses more than a year). */
export const LINK_DAYS = 30;
export const LINK_MAX_DAYS = 365;

export type Consent = { id: string; given_on: string; method: ConsentMethod; scope: string | null; recorded_at: string; recorded_by: string | null };
export type EarlierConsent = Omit<Consent, 'recorded_by'> & { withdrawn_at: string; withdrawn_by: string | null };


export type Sharing = { profile_id: string; candidate_id: string; status: 'active' | 'inactive'; consent: Consent | null; earlier_consents: EarlierConsent[]; links: ClientLink[] };
export type ProfileClient = { profile_id: string; link_id: string; client_name: string; client_company: string; views: number; last_viewed: string };
export type NewLink = { id: string; url: string; expires_at: string };
export type { ClientLink };

const consentFields = { id: str, given_on: str, method: oneOf(Constants.public.Enums.consent_method), scope: nullable(str), recorded_at: str };
const sharing: Decoder<Sharing> = object({
  profile_id: str,
  candidate_id: str,
  status: oneOf(['active', 'inactive']),
  consent: nullable(object({ ...consentFields, recorded_by: nullable(str) })),
  earlier_consents: array(object({ ...consentFields, withdrawn_at: str, withdrawn_by: nullable(str) })),
  links: array(clientLink),
});
const madeLink = object({ id: str, token: str, expires_at: str });

export async function getSharing(profileId: string): Promise<Sharing> {
  const client = await getSupabase();
  return sharing(unwrap(await client.rpc('admin_profile_sharing', { profile_id: profileId })));
}

export async function recordConsent(profileId: string, givenOn: string, method: ConsentMethod, scope: string): Promise<void> {
  const client = await getSupabase();
  unwrap(await client.from('profile_consents').insert({ profile_id: profileId, given_on: givenOn, method, scope: scope.trim() || null }));
}

export async function withdrawConsent(consentId: string): Promise<void> {
  const client = await getSupabase();
  unwrap(await client.from('profile_consents').update({ withdrawn: true }).eq('id', consentId).select('id').single());
}

/** The client's link: /profile/client#<token> (the token stays out of requests, logs and referrers). */
export function clientLinkUrl(token: string): string {
  return `${window.location.origin}/profile/client#${token}`;
}

export async function createLink(profileId: string, clientName: string, clientCompany: string, expiresAt: string): Promise<NewLink> {
  const client = await getSupabase();
  const made = madeLink(
    unwrap(
      await client.rpc('admin_create_client_link', { profile_id: profileId, client_name: clientName.trim(), client_company: clientCompany.trim(), expires_at: expiresAt }),
    ),
  );
  return { id: made.id, url: clientLinkUrl(made.token), expires_at: made.expires_at };
}

export async function revokeLink(linkId: string): Promise<void> {
  const client = await getSupabase();
  unwrap(await client.from('profile_client_links').update({ revoked: true }).eq('id', linkId).select('id').single());
}

export async function extendLink(linkId: string, expiresAt: string): Promise<void> {
  const client = await getSupabase();
  unwrap(await client.from('profile_client_links').update({ expires_at: expiresAt }).eq('id', linkId).select('id').single());
}

export async function getProfileClients(profileIds: string[]): Promise<ProfileClient[]> {
  if (profileIds.length === 0) return [];
  const client = await getSupabase();
  return unwrap(await client.rpc('admin_profile_clients', { profile_ids: profileIds })) as ProfileClient[];
}

/** A day (yyyy-mm-dd, the date input's value) `days` from today, in the browser's calendar. */
export function dayFromToday(days: number): string {
  const d = new Date();
  d.setDate(d.getDate() + days);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
}

/** The end of a chosen day (the link works through it), as an ISO time. */
export function endOfDay(day: string): string {
  return new Date(`${day}T23:59:59`).toISOString();
}
