// Views per client (rpc admin_client_link_views): each client link with the client, the profile, its state and
// counted views (no admins, no bots; repeats within 30 minutes are views, not new viewers), viewed links first.
import { getSupabase, unwrap } from '@/lib/api';
import { clientLinkFields, type ClientLink } from '@/lib/admin/client-link';
import { array, num, object, str, type Decoder } from '@/lib/decode';

export const CLIENT_PAGE_SIZE = 50;

export type ClientLinkViews = ClientLink & { profile_id: string; candidate_id: string; profile_name: string };
export type ClientViewsPage = { total_links: number; viewed_links: number; page_size: number; page_offset: number; links: ClientLinkViews[] };

const clientViewsPage: Decoder<ClientViewsPage> = object({
  total_links: num,
  viewed_links: num,
  page_size: num,
  page_offset: num,
  links: array(object({ ...clientLinkFields, profile_id: str, candidate_id: str, profile_name: str })),
});

export async function getClientViews(offset: number): Promise<ClientViewsPage> {
  const client = await getSupabase();
  return clientViewsPage(unwrap(await client.rpc('admin_client_link_views', { page_size: CLIENT_PAGE_SIZE, page_offset: offset })));
}
