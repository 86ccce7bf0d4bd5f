// The Login tab: e-mail and password (both required). Success: 'Welcome back!' and the dashboard; failure: 'Login
// failed' with the provider's message (spec §8).
import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { useToast } from '@/components/ui/toast';
import { useCandidateAuth } from '@/lib/candidate-auth';
import { FormError } from './form-error';

export function LoginForm({ next, onForgot }: { next: string; onForgot: () => void }) {
  const { signIn } = useCandidateAuth();
  const { toast } = useToast();
  const navigate = useNavigate();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    const result = await signIn(email.trim(), password);
    setBusy(false);
    if (result.error) {
      setError(result.error);
      toast({ title: 'Login failed', description: result.error, variant: 'destructive' });
      return;
    }
    toast({ title: 'Welcome back!', description: "You've successfully logged in." });
    navigate(next, { replace: true });
  };

  return (
    <form className="stack" onSubmit={onSubmit} aria-busy={busy} aria-describedby="login-error">
      <div className="field">
        <label htmlFor="login-email">Email</label>
        <input id="login-email" type="email" autoComplete="email" required value={email} onChange={(e) => setEmail(e.target.value)} />
      </div>
      <div className="field">
        <label htmlFor="login-password">Password</label>
        <input id="login-password" type="password" autoComplete="current-password" required value={password} onChange={(e) => setPassword(e.target.value)} />
      </div>
      <FormError id="login-error" message={error} />
      <button type="submit" className="btn btn--primary btn--block" disabled={busy}>
        {busy ? 'Logging in...' : 'Login'}
      </button>
      <button type="button" className="auth-card__link" onClick={onForgot}>
        Forgot password?
      </button>
    </form>
  );
}
