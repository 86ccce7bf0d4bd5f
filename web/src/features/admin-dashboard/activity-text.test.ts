// The dashboard's recent activity: one audit entry as a sentence, naming who changed what and which fields.
import { describe, expect, it } from 'vitest';
import type { AuditEntry } from './api/get-overview';
import { activityText, changedFields } from './activity-text';

const entry = (over: Partial<AuditEntry>): AuditEntry => ({
  id: 1,
  at: '2026-07-01T09:00:00Z',
  actor_email: 'admin@example.com',
  actor_role: 'authenticated',
  table_name: 'featured_jobs',
  action: 'UPDATE',
  subject: 'Head of Development',
  old_data: null,
  new_data: null,
  changed_fields: ['is_active'],
  ...over,
});

describe('activityText', () => {
  it('names the person, the verb, the table in words, the subject and the fields', () => {
    expect(activityText(entry({}))).toBe("admin@example.com updated featured job 'Head of Development' (is_active)");
    expect(activityText(entry({ action: 'INSERT', table_name: 'desk_notes', subject: null, changed_fields: null }))).toBe('admin@example.com added note');
    expect(activityText(entry({ action: 'DELETE', table_name: 'new_table' }))).toBe("admin@example.com removed new_table 'Head of Development'");
  });

  it('says who acted without an e-mail: a service, or an operator by role', () => {
    expect(activityText(entry({ actor_email: null, actor_role: 'service_role', changed_fields: [] }))).toBe("A service (service_role) updated featured job 'Head of Development'");
    expect(activityText(entry({ actor_email: null, actor_role: 'postgres', changed_fields: [] }))).toMatch(/^An operator \(postgres\) updated/);
  });
});

describe('changedFields', () => {
  it('uses the fields recorded with the change, leaving out bookkeeping columns', () => {
    expect(changedFields(entry({ changed_fields: ['title', 'updated_at', 'search_vector', 'description_html'] }))).toEqual(['title']);
  });

  it('compares old and new values when no fields were recorded, nested values included', () => {
    const old_data = { title: 'A', benefits: ['x'], salary: 1, updated_at: 't1' };
    const new_data = { title: 'A', benefits: ['x', 'y'], salary: 2, updated_at: 't2' };
    expect(changedFields(entry({ changed_fields: null, old_data, new_data }))).toEqual(['benefits', 'salary']);
  });

  it('lists nothing for an insert, a delete or an update without data', () => {
    expect(changedFields(entry({ action: 'INSERT' }))).toEqual([]);
    expect(changedFields(entry({ action: 'DELETE' }))).toEqual([]);
    expect(changedFields(entry({ changed_fields: null }))).toEqual([]);
  });
});
