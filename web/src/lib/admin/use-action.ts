// Runs an admin write and says how it went as a toast: the success message (made from the write's result, if it
// has one) or the database's own error. `busy` is true while it runs; `run` resolves to whether it succeeded.
import { useState } from 'react';
import { useToast, type ToastInput } from '@/components/ui/toast';

export function useAction() {
  const { toast } = useToast();
  const [busy, setBusy] = useState(false);
  async function run<T>(action: () => Promise<T>, success: (result: T) => ToastInput): Promise<boolean> {
    setBusy(true);
    try {
      toast(success(await action()));
      return true;
    } catch (e) {
      toast({ title: 'Error', description: (e as Error).message, variant: 'destructive' });
      return false;
    } finally {
      setBusy(false);
    }
  }
  return { busy, run };
}
