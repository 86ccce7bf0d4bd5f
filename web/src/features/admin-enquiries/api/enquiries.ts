// The enquiries desk's calls: one page of the filtered list with counts (rpc admin_enquiry_page), every row for the
// CSV export (rpc admin_enquiry_export), one enquiry with its notes (rpc admin_enquiry), and handled / unhandled for
// one or several (an update of `handled`: who and when are set by the database).
import { getSupabase, unwrap } from '@/lib/api';
import { isUuid } from '@/lib/admin/uuid';
import { deskNote, type DeskNote } from '@/lib/admin/notes';
import { array, bool, nullable, num, object, oneOf, record, str, type Decoder } from '@/lib/decode';

export const PAGE_SIZE = 25;

/** The kinds of enquiry the site's forms send (the CHECK of public.enquiries.kind). */
export const KINDS = ['contact', 'hiring-audit', 'client', 'candidate', 'callback', 'other'] as const;
export type EnquiryKind = (typeof KINDS)[number];
export const KIND_LABELS: Record<EnquiryKind, string> = {
  contact: 'Contact',
  'hiring-audit': 'Hiring audit',
  client: 'Client',
  candidate: 'Candidate',
  callback: 'Callback',
  other: 'Other',
};

export function isKind(value: string | null | undefined): value is EnquiryKind {
  return KINDS.includes(value as EnquiryKind);
}

export type HandledFilter = 'unhandled' | 'handled' | null;
export type Filters = { search: string; kind: EnquiryKind | null; handled: HandledFilter };

export type EnquiryRow = {
  id: string;
  created_at: string;
  kind: EnquiryKind;
  name: string;
  email: string;
  phone: string | null;
  company: string | null;
  message: string | null;
  source_page: string | null;
  handled: boolean;
  handled_at: string | null;
  handled_by_name: string | null;
  notes: number;
};

export type EnquiryPage = {
  total: number;
  unhandled: number;
  matching: number;
  counts: Partial<Record<EnquiryKind, number>>;
  page_size: number;
  page_offset: number;
  enquiries: EnquiryRow[];
};

export type EnquiryDetail = Omit<EnquiryRow, 'handled_by_name' | 'notes'> & { handled_by: string | null; notes: DeskNote[] };

export type ExportRow = {
  received_at: string;
  enquiry_kind: EnquiryKind;
  name: string;
  email: string;
  phone: string | null;
  company: string | null;
  message: string | null;
  source_page: string | null;
  is_handled: boolean;
  handled_at: string | null;
  handled_by: string | null;
  notes: number;
};

const enquiryFields = {
  id: str,
  created_at: str,
  kind: oneOf(KINDS),
  name: str,
  email: str,
  phone: nullable(str),
  company: nullable(str),
  message: nullable(str),
  source_page: nullable(str),
  handled: bool,
  handled_at: nullable(str),
};
const enquiryPage: Decoder<EnquiryPage> = object({
  total: num,
  unhandled: num,
  matching: num,
  counts: record(num),
  page_size: num,
  page_offset: num,
  enquiries: array(object({ ...enquiryFields, handled_by_name: nullable(str), notes: num })),
});
const enquiryDetail: Decoder<EnquiryDetail | null> = nullable(object({ ...enquiryFields, handled_by: nullable(str), notes: array(deskNote) }));

function filterArgs(f: Filters) {
  return {
    search: f.search.trim() || undefined,
    kind: f.kind ?? undefined,
    handled: f.handled === null ? undefined : f.handled === 'handled',
  };
}

export async function getEnquiryPage(filters: Filters, offset: number): Promise<EnquiryPage> {
  const client = await getSupabase();
  return enquiryPage(unwrap(await client.rpc('admin_enquiry_page', { ...filterArgs(filters), page_size: PAGE_SIZE, page_offset: offset })));
}

export async function exportEnquiries(filters: Filters): Promise<ExportRow[]> {
  const client = await getSupabase();
  return unwrap(await client.rpc('admin_enquiry_export', filterArgs(filters))) as ExportRow[];
}

export async function getEnquiry(id: string): Promise<EnquiryDetail | null> {
  if (!isUuid(id)) return null;
  const client = await getSupabase();
  return enquiryDetail(unwrap(await client.rpc('admin_enquiry', { enquiry_id: id })));
}

export async function setHandled(ids: string[], handled: boolean): Promise<void> {
  const client = await getSupabase();
  unwrap(await client.from('enquiries').update({ handled }).in('id', ids));
}
