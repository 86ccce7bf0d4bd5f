// The Login tab: e-mail and password (both required). Success: 'Welcome back!' and the dashboard; failure: 'Login
// failed' with the provider's message (spec §8).
import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { useToast } from '@/components/ui/toast';
import { useCandidateAuth } from '@/lib/candidate-auth';
import { AuthField } from '@/components/auth/auth-field';
import { FormError } from '@/components/ui/form-error';
import { useAuthForm } from '@/lib/use-auth-form';

export function LoginForm({ next, onForgot }: { next: string; onForgot: () => void }) {
  const { signIn } = useCandidateAuth();
  const { toast } = useToast();
  const navigate = useNavigate();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const { busy, error, submit } = useAuthForm();

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    const failed = await submit(() => signIn(email.trim(), password));
    if (failed) return toast({ title: 'Login failed', description: failed, variant: 'destructive' });
    toast({ title: 'Welcome back!', description: "You've successfully logged in." });
    navigate(next, { replace: true });
  };

  return (
    <form className="stack" onSubmit={onSubmit} aria-busy={busy} aria-describedby="login-error">
      <AuthField id="login-email" label="Email" type="email" autoComplete="email" required value={email} onValue={setEmail} />
      <AuthField id="login-password" label="Password" type="password" autoComplete="current-password" required value={password} onValue={setPassword} />
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
