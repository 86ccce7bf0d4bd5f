// The enquiry write (spec §2 /contact; data contract `enquiries`): anon inserts one row, typed from the generated table.
import { getSupabase, unwrap } from '@/lib/api';
import type { TablesInsert } from '@/lib/database.types';
import type { EnquiryInput } from './validate-enquiry';

export type NewEnquiry = Pick<TablesInsert<'enquiries'>, 'kind' | 'name' | 'email' | 'phone' | 'company' | 'message' | 'source_page'>;

/** The row as stored: trimmed values, optional fields left empty become null. */
export function enquiryRow(input: EnquiryInput, sourcePage: string): NewEnquiry {
  return {
    kind: input.kind,
    name: input.name.trim(),
    email: input.email.trim(),
    phone: input.phone.trim() || null,
    company: input.company.trim() || null,
    message: input.message.trim(),
    source_page: sourcePage,
  };
}

/** Stores the enquiry; throws with the backend's message when it is refused. */
export async function sendEnquiry(row: NewEnquiry): Promise<void> {
  const client = await getSupabase();
  unwrap(await client.from('enquiries').insert(row));
}
