// The enquiries list's state in the address: ?q= (name, e-mail, company or message) &kind= &handled= &offset=.
import { useUrlList } from '@/lib/admin/use-url-list';
import { getEnquiryPage, isKind, type Filters } from './api/enquiries';

function parse(params: URLSearchParams): Filters {
  const kind = params.get('kind');
  const handled = params.get('handled');
  return {
    search: params.get('q') ?? '',
    kind: isKind(kind) ? kind : null,
    handled: handled === 'handled' || handled === 'unhandled' ? handled : null,
  };
}

const NAMES = ['kind', 'handled'] as const;

export function useEnquiryList() {
  return useUrlList(NAMES, parse, getEnquiryPage);
}
