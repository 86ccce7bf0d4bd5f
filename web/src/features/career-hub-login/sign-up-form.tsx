// The Sign Up tab: full name, e-mail and password (≥ 6 characters, spec §5). The full name goes in the user's
// metadata as full_name; the confirmation e-mail's link signs the user in on /career-hub/dashboard.
import { useState, type FormEvent } from 'react';
import { useToast } from '@/components/ui/toast';
import { PASSWORD_MIN_LENGTH, useCandidateAuth } from '@/lib/candidate-auth';
import { FormError } from './form-error';

export function SignUpForm({ onCreated }: { onCreated: () => void }) {
  const { signUp } = useCandidateAuth();
  const { toast } = useToast();
  const [fullName, setFullName] = useState('');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    if (!fullName.trim() || !email.trim()) {
      setError('Enter your full name and email address.');
      return;
    }
    if (password.length < PASSWORD_MIN_LENGTH) {
      setError(`Password must be at least ${PASSWORD_MIN_LENGTH} characters.`);
      return;
    }
    setBusy(true);
    setError(null);
    const result = await signUp(fullName.trim(), email.trim(), password);
    setBusy(false);
    if (result.error) {
      setError(result.error);
      toast({ title: 'Signup failed', description: result.error, variant: 'destructive' });
      return;
    }
    toast({ title: 'Account created!', description: 'Please check your email to verify your account.' });
    onCreated();
  };

  return (
    <form className="stack" onSubmit={onSubmit} aria-busy={busy} aria-describedby="signup-error" noValidate>
      <div className="field">
        <label htmlFor="signup-name">Full Name</label>
        <input id="signup-name" autoComplete="name" required value={fullName} onChange={(e) => setFullName(e.target.value)} />
      </div>
      <div className="field">
        <label htmlFor="signup-email">Email</label>
        <input id="signup-email" type="email" autoComplete="email" required value={email} onChange={(e) => setEmail(e.target.value)} />
      </div>
      <div className="field">
        <label htmlFor="signup-password">Password</label>
        <input
          id="signup-password"
          type="password"
          autoComplete="new-password"
          required
          minLength={PASSWORD_MIN_LENGTH}
          placeholder="Minimum 6 characters"
          value={password}
          onChange={(e) => setPassword(e.target.value)}
        />
      </div>
      <FormError id="signup-error" message={error} />
      <button type="submit" className="btn btn--accent btn--block" disabled={busy}>
        {busy ? 'Creating account...' : 'Create Account'}
      </button>
    </form>
  );
}
