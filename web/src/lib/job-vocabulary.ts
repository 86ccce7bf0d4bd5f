// The job vocabularies (generated enums) and the words the public pages show for them: the job page and the search.
import type { Database } from './database.types';

export type EmploymentType = Database['public']['Enums']['employment_type'];
export type WorkArrangement = Database['public']['Enums']['work_arrangement'];
export type UkRegion = Database['public']['Enums']['uk_region'];

export const EMPLOYMENT_TYPE_LABELS: Record<EmploymentType, string> = {
  permanent: 'Permanent',
  'fixed-term': 'Fixed-term contract',
  contract: 'Contract',
  interim: 'Interim',
  temporary: 'Temporary',
};

export const WORK_ARRANGEMENT_LABELS: Record<WorkArrangement, string> = {
  'on-site': 'On-site',
  hybrid: 'Hybrid',
  remote: 'Remote',
};
