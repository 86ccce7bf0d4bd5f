// The busy flag and announced error of an account form, and `submit` to run one auth action with them.
import { useState } from 'react';

export function useAuthForm() {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  /** Runs the action; returns its error message (also shown under the form), or null when it succeeded. */
  const submit = async (action: () => Promise<{ error: string | null }>): Promise<string | null> => {
    setBusy(true);
    setError(null);
    const result = await action();
    setBusy(false);
    if (result.error) setError(result.error);
    return result.error;
  };
  return { busy, error, setError, submit };
}
