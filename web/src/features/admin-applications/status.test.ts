// The application pipeline's vocabulary: every status has the admin's label, the candidate's plain words and a tone.
import { describe, expect, it } from 'vitest';
import { Constants } from '@/lib/database.types';
import { isStatus, PLAIN_STATUS, STATUS_LABELS, STATUSES, statusTone } from './status';

describe('application statuses', () => {
  it('are the database enum, in the order the firm works through', () => {
    expect([...STATUSES].sort()).toEqual([...Constants.public.Enums.application_status].sort());
    expect(STATUSES[0]).toBe('new');
  });

  it('each have a label and the words the candidate sees', () => {
    for (const s of STATUSES) {
      expect(STATUS_LABELS[s]).toMatch(/^[A-Z]/);
      expect(PLAIN_STATUS[s]).toMatch(/^[A-Z]/);
    }
    expect(PLAIN_STATUS.shortlisted).toBe('In review');
  });

  it('have a tone: good news, closed, or open', () => {
    expect(STATUSES.map(statusTone)).toEqual(['open', 'open', 'open', 'open', 'good', 'good', 'closed', 'closed']);
  });

  it('are told apart from other text', () => {
    expect(isStatus('placed')).toBe(true);
    for (const v of ['Placed', 'hired', '', null, undefined]) expect(isStatus(v)).toBe(false);
  });
});
