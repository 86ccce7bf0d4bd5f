// One audit entry as a sentence: "admin@example.com updated featured job 'Head of Development' (is_active)".
import type { AuditEntry } from './api/get-overview';

const TABLE_LABELS: Record<string, string> = {
  featured_jobs: 'featured job',
  candidate_profiles: 'candidate profile',
  user_roles: 'role',
  jobs: 'job',
  applications: 'application',
  profile_views: 'profile views',
  application_pipeline: 'application',
  enquiries: 'enquiry',
  desk_notes: 'note',
  profile_consents: 'consent',
  profile_client_links: 'client link',
  application_mail_templates: 'status e-mail',
};
const VERBS = { INSERT: 'added', UPDATE: 'updated', DELETE: 'removed' } as const;
const IGNORED = new Set(['updated_at', 'search_vector', 'description_html', 'requirements_html', 'published_at']);

export function changedFields(entry: AuditEntry): string[] {
  if (entry.action !== 'UPDATE') return [];
  // Recorded when the change was made, so it survives the erasure of a deleted profile's values (0331).
  if (entry.changed_fields) return entry.changed_fields.filter((k) => !IGNORED.has(k));
  if (!entry.old_data || !entry.new_data) return [];
  const before = entry.old_data;
  const after = entry.new_data;
  return Object.keys(after).filter((k) => !IGNORED.has(k) && JSON.stringify(before[k]) !== JSON.stringify(after[k]));
}

export function activityText(entry: AuditEntry): string {
  const who = entry.actor_email ?? (entry.actor_role === 'service_role' ? 'A service (service_role)' : `An operator (${entry.actor_role})`);
  const what = TABLE_LABELS[entry.table_name] ?? entry.table_name;
  const subject = entry.subject ? ` '${entry.subject}'` : '';
  const fields = changedFields(entry);
  return `${who} ${VERBS[entry.action]} ${what}${subject}${fields.length ? ` (${fields.join(', ')})` : ''}`;
}
