// The applications list's state in the address: ?q= (name or e-mail) &status= &job= &from= &to= (UK days) &offset=.
import { useUrlList } from '@/lib/admin/use-url-list';
import { getApplicationPage, type Filters } from './api/applications';
import { isStatus } from './status';

function parse(params: URLSearchParams): Filters {
  const status = params.get('status');
  return {
    search: params.get('q') ?? '',
    status: isStatus(status) ? status : null,
    jobId: params.get('job'),
    fromDay: params.get('from'),
    toDay: params.get('to'),
  };
}

const NAMES = ['status', 'job', 'from', 'to'] as const;

export function useApplicationList() {
  return useUrlList(NAMES, parse, getApplicationPage);
}
