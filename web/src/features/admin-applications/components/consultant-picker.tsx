// The consultant of one or several applications, chosen from the admins (rpc admin_staff); "Nobody" unassigns.
import { useId, useState } from 'react';
import { Button } from '@/components/ui/button';
import { useAction } from '@/lib/admin/use-action';
import { useQuery } from '@/lib/use-query';
import { assignConsultant, getStaff } from '../api/applications';

type Props = { ids: string[]; current?: string | null; onDone: () => Promise<void> | void };

export function ConsultantPicker({ ids, current = null, onDone }: Props) {
  const id = useId();
  const { busy: saving, run } = useAction();
  const staff = useQuery(getStaff, []);
  const [choice, setChoice] = useState<string>(current ?? '');
  async function assign() {
    const done = await run(
      () => assignConsultant(ids, choice || null),
      (n) => ({ title: 'Consultant saved', description: `${n} ${n === 1 ? 'application' : 'applications'} changed` }),
    );
    if (done) await onDone();
  }
  return (
    <div className="consultant-picker">
      <div className="field">
        <label htmlFor={`${id}-consultant`}>Consultant</label>
        <select id={`${id}-consultant`} value={choice} onChange={(e) => setChoice(e.target.value)}>
          <option value="">Nobody</option>
          {staff.data?.map((s) => (
            <option key={s.id} value={s.id}>
              {s.name}
            </option>
          ))}
        </select>
      </div>
      <Button variant="outline" size="sm" onClick={() => void assign()} disabled={saving || (ids.length === 1 && choice === (current ?? ''))} aria-busy={saving}>
        {ids.length === 1 ? 'Assign' : `Assign to ${ids.length}`}
      </Button>
    </div>
  );
}
