// Job alerts: the search an alert holds (the /jobs filters without page, sort or date posted), the words it is
// shown in (as the database's public.job_alert_label) and the consent wording recorded with each sign-up.
import { site } from '@/content/site';
import {
  EMPLOYMENT_TYPE_LABELS,
  WORK_ARRANGEMENT_LABELS,
  emptyFilters,
  money,
  type EmploymentType,
  type Filters,
  type UkRegion,
  type WorkArrangement,
} from '@/lib/job-search/model';
import type { Database } from '@/lib/database.types';

export type AlertFrequency = Database['public']['Enums']['alert_frequency'];
export type AlertStatus = Database['public']['Enums']['job_alert_status'];

export type AlertSearch = {
  q: string | null;
  location: string | null;
  sectors: string[] | null;
  regions: UkRegion[] | null;
  employment_types: EmploymentType[] | null;
  work_arrangements: WorkArrangement[] | null;
  salary_min: number | null;
};

export type JobAlert = AlertSearch & {
  id: string;
  email: string;
  status: AlertStatus;
  frequency: AlertFrequency;
  consent_at: string;
  confirmed_at: string | null;
  last_sent_at: string | null;
  created_at: string;
};

export const ALERT_COLUMNS =
  'id,email,status,frequency,q,location,sectors,regions,employment_types,work_arrangements,salary_min,consent_at,confirmed_at,last_sent_at,created_at';

/** The words a person agrees to; stored with the alert exactly as shown. */
export const ALERT_CONSENT = `I agree to receive job alert e-mails from ${site.name} for this search. I can stop them at any time with the link in every e-mail.`;

const listOrNull = <T,>(v: T[]) => (v.length ? v : null);

export function searchOfFilters(f: Filters): AlertSearch {
  return {
    q: f.q ?? null,
    location: f.location ?? null,
    sectors: listOrNull(f.sector),
    regions: listOrNull(f.region),
    employment_types: listOrNull(f.type),
    work_arrangements: listOrNull(f.arrangement),
    salary_min: f.salary ?? null,
  };
}

export function filtersOfSearch(s: AlertSearch): Filters {
  return {
    ...emptyFilters(),
    q: s.q ?? undefined,
    location: s.location ?? undefined,
    sector: s.sectors ?? [],
    region: s.regions ?? [],
    type: s.employment_types ?? [],
    arrangement: s.work_arrangements ?? [],
    salary: s.salary_min ?? undefined,
  };
}

/** "“asset manager” · London · Permanent · £50,000+", or "All new roles". */
export function alertLabel(s: AlertSearch): string {
  const parts = [
    s.q?.trim() ? `“${s.q.trim()}”` : null,
    s.location?.trim() || null,
    s.sectors?.length ? s.sectors.join(', ') : null,
    s.regions?.length ? s.regions.join(', ') : null,
    s.employment_types?.length ? s.employment_types.map((t) => EMPLOYMENT_TYPE_LABELS[t]).join(', ') : null,
    s.work_arrangements?.length ? s.work_arrangements.map((w) => WORK_ARRANGEMENT_LABELS[w]).join(', ') : null,
    s.salary_min != null ? `${money(s.salary_min)}+` : null,
  ].filter(Boolean);
  return parts.length ? parts.join(' · ') : 'All new roles';
}
