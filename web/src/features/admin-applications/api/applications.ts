// The applications desk's calls: one page of the filtered list with counts per status (rpc admin_application_page),
// every row for the CSV export (rpc admin_application_export), one application (rpc admin_application), status and
// consultant changes for one or several (rpc admin_set_application_status, admin_assign_consultant), the staff to
// choose a consultant from (rpc admin_staff), the visit the dashboard counts from (rpc admin_mark_applications_seen),
// and the CV through a short-lived signed URL of the private `cvs` bucket (never a public one).
import { getSupabase, unwrap } from '@/lib/api';
import { isUuid } from '@/lib/admin/uuid';
import { deskNote, type DeskNote } from '@/lib/admin/notes';
import { Constants } from '@/lib/database.types';
import { array, bool, keyed, nullable, num, object, oneOf, str, type Decoder } from '@/lib/decode';
import type { ApplicationStatus } from '../status';

export const PAGE_SIZE = 25;
/** Seconds a CV's signed URL works: long enough to fetch or start a download, useless if copied later. */
export const CV_URL_SECONDS = 60;

export type Filters = { search: string; status: ApplicationStatus | null; jobId: string | null; fromDay: string | null; toDay: string | null };

/** What the applicant gave in the form (and when). */
type Applicant = { id: string; created_at: string; first_name: string; last_name: string; email: string; phone: string };

export type ApplicationRow = Applicant & {
  job_id: string | null;
  job_title: string | null;
  job_ref: string | null;
  job_status: string | null;
  status: ApplicationStatus;
  plain_status: string;
  status_changed_at: string;
  consultant_id: string | null;
  consultant_name: string | null;
  cv_object: string;
  has_account: boolean;
  notes: number;
};

export type JobChoice = { id: string; title: string; job_ref: string | null };

export type ApplicationPage = {
  total: number;
  matching: number;
  counts: Record<ApplicationStatus, number>;
  page_size: number;
  page_offset: number;
  jobs: JobChoice[];
  applications: ApplicationRow[];
};

export type ExportRow = {
  applied_at: string;
  first_name: string;
  last_name: string;
  email: string;
  phone: string;
  job_title: string | null;
  job_ref: string | null;
  pipeline_status: ApplicationStatus;
  candidate_sees: string;
  consultant: string | null;
  cv_file: string;
  notes: number;
};

export type { DeskNote as Note } from '@/lib/admin/notes';
export type HistoryEntry = { at: string; from: ApplicationStatus; to: ApplicationStatus; by: string | null; mailed: boolean };

export type ApplicationDetail = Applicant & {
  cover_letter: string | null;
  has_account: boolean;
  job: { id: string; title: string; job_ref: string | null; company: string; location: string | null; status: string } | null;
  status: ApplicationStatus;
  plain_status: string;
  status_changed_at: string;
  consultant: { id: string; name: string } | null;
  cv: { object: string; file_name: string; mimetype: string | null; size: number | null };
  notes: DeskNote[];
  history: HistoryEntry[];
};

export type MailTemplate = { status: Exclude<ApplicationStatus, 'new'>; subject: string; body: string; updated_at: string };

export type StaffMember = { id: string; email: string; name: string };
export type StatusChange = { changed: number; unchanged: number; mailed: number };

const status = oneOf(Constants.public.Enums.application_status);
const applicant = { id: str, created_at: str, first_name: str, last_name: str, email: str, phone: str };
const applicationRow = object({
  ...applicant,
  job_id: nullable(str),
  job_title: nullable(str),
  job_ref: nullable(str),
  job_status: nullable(str),
  status,
  plain_status: str,
  status_changed_at: str,
  consultant_id: nullable(str),
  consultant_name: nullable(str),
  cv_object: str,
  has_account: bool,
  notes: num,
});
const applicationPage: Decoder<ApplicationPage> = object({
  total: num,
  matching: num,
  counts: keyed(Constants.public.Enums.application_status, num),
  page_size: num,
  page_offset: num,
  jobs: array(object({ id: str, title: str, job_ref: nullable(str) })),
  applications: array(applicationRow),
});
const applicationDetail: Decoder<ApplicationDetail | null> = nullable(
  object({
    ...applicant,
    cover_letter: nullable(str),
    has_account: bool,
    job: nullable(object({ id: str, title: str, job_ref: nullable(str), company: str, location: nullable(str), status: str })),
    status,
    plain_status: str,
    status_changed_at: str,
    consultant: nullable(object({ id: str, name: str })),
    cv: object({ object: str, file_name: str, mimetype: nullable(str), size: nullable(num) }),
    notes: array(deskNote),
    history: array(object({ at: str, from: status, to: status, by: nullable(str), mailed: bool })),
  }),
);
const statusChange: Decoder<StatusChange> = object({ changed: num, unchanged: num, mailed: num });

function filterArgs(f: Filters) {
  return {
    search: f.search.trim() || undefined,
    status: f.status ?? undefined,
    job_id: f.jobId ?? undefined,
    from_day: f.fromDay || undefined,
    to_day: f.toDay || undefined,
  };
}

export async function getApplicationPage(filters: Filters, offset: number): Promise<ApplicationPage> {
  const client = await getSupabase();
  return applicationPage(unwrap(await client.rpc('admin_application_page', { ...filterArgs(filters), page_size: PAGE_SIZE, page_offset: offset })));
}

export async function exportApplications(filters: Filters): Promise<ExportRow[]> {
  const client = await getSupabase();
  return unwrap(await client.rpc('admin_application_export', filterArgs(filters))) as ExportRow[];
}

/** One application, or null when there is none with this id (also for an address that is no id at all). */
export async function getApplication(id: string): Promise<ApplicationDetail | null> {
  if (!isUuid(id)) return null;
  const client = await getSupabase();
  return applicationDetail(unwrap(await client.rpc('admin_application', { application_id: id })));
}

export async function setStatus(ids: string[], status: ApplicationStatus, note: string, notify: boolean): Promise<StatusChange> {
  const client = await getSupabase();
  return statusChange(unwrap(await client.rpc('admin_set_application_status', { application_ids: ids, status, note: note.trim() || undefined, notify })));
}

export async function assignConsultant(ids: string[], consultantId: string | null): Promise<number> {
  const client = await getSupabase();
  // null unassigns: the function's argument is a uuid that may be null.
  return unwrap(await client.rpc('admin_assign_consultant', { application_ids: ids, consultant_id: consultantId as string })) as number;
}

export async function getStaff(): Promise<StaffMember[]> {
  const client = await getSupabase();
  return unwrap(await client.rpc('admin_staff')) as StaffMember[];
}

/** Records this visit to the list; returns the one before (null the first time). */
export async function markApplicationsSeen(): Promise<string | null> {
  const client = await getSupabase();
  return unwrap(await client.rpc('admin_mark_applications_seen')) as string | null;
}

/** A signed URL of the CV; `download` makes the browser save it under the file's name. */
export async function cvUrl(object: string, download?: string): Promise<string> {
  const client = await getSupabase();
  const { data, error } = await client.storage.from('cvs').createSignedUrl(object, CV_URL_SECONDS, download ? { download } : undefined);
  if (error || !data) throw new Error(error?.message ?? 'The CV could not be opened');
  return data.signedUrl;
}

export async function getTemplates(): Promise<MailTemplate[]> {
  const client = await getSupabase();
  return unwrap(await client.from('application_mail_templates').select('status,subject,body,updated_at')) as MailTemplate[];
}

export async function saveTemplate(t: Pick<MailTemplate, 'status' | 'subject' | 'body'>): Promise<void> {
  const client = await getSupabase();
  unwrap(await client.from('application_mail_templates').update({ subject: t.subject, body: t.body }).eq('status', t.status).select('status').single());
}
