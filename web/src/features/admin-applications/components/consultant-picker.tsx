// The consultant of one or several applications, chosen from the admins (rpc admin_staff); "Nobody" unassigns.
import { useId, useState } from 'react';
import { Button } from '@/components/ui/button';
import { useToast } from '@/components/ui/toast';
import { useQuery } from '../../admin-common/use-query';
import { assignConsultant, getStaff } from '../api/applications';

type Props = { ids: string[]; current?: string | null; onDone: () => Promise<void> | void };

export function ConsultantPicker({ ids, current = null, onDone }: Props) {
  const id = useId();
  const { toast } = useToast();
  const staff = useQuery(getStaff, []);
  const [choice, setChoice] = useState<string>(current ?? '');
  const [saving, setSaving] = useState(false);
  async function assign() {
    setSaving(true);
    try {
      const n = await assignConsultant(ids, choice || null);
      toast({ title: 'Consultant saved', description: `${n} ${n === 1 ? 'application' : 'applications'} changed` });
      await onDone();
    } catch (err) {
      toast({ title: 'Error', description: (err as Error).message, variant: 'destructive' });
    } finally {
      setSaving(false);
    }
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
