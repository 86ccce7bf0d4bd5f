// The Sign Up tab: full name, e-mail and password (≥ 6 characters, spec §5). The full name goes in the user's
// metadata as full_name; the confirmation e-mail's link signs the user in on /career-hub/dashboard.
import { useState, type FormEvent } from 'react';
import { useToast } from '@/components/ui/toast';
import { useCandidateAuth } from '@/lib/candidate-auth';
import { PASSWORD_MIN_LENGTH, signUpProblem } from '@/lib/account-checks';
import { AuthField } from '@/components/auth/auth-field';
import { FormError } from '@/components/ui/form-error';
import { useAuthForm } from '@/lib/use-auth-form';

export function SignUpForm({ onCreated }: { onCreated: () => void }) {
  const { signUp } = useCandidateAuth();
  const { toast } = useToast();
  const [fullName, setFullName] = useState('');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const { busy, error, setError, submit } = useAuthForm();

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    const problem = signUpProblem(fullName, email, password);
    if (problem) return setError(problem);
    const failed = await submit(() => signUp(fullName.trim(), email.trim(), password));
    if (failed) return toast({ title: 'Signup failed', description: failed, variant: 'destructive' });
    toast({ title: 'Account created!', description: 'Please check your email to verify your account.' });
    onCreated();
  };

  return (
    <form className="stack" onSubmit={onSubmit} aria-busy={busy} aria-describedby="signup-error" noValidate>
      <AuthField id="signup-name" label="Full Name" autoComplete="name" required value={fullName} onValue={setFullName} />
      <AuthField id="signup-email" label="Email" type="email" autoComplete="email" required value={email} onValue={setEmail} />
      <AuthField id="signup-password" label="Password" type="password" autoComplete="new-password" required minLength={PASSWORD_MIN_LENGTH} placeholder="Minimum 6 characters" value={password} onValue={setPassword} />
      <FormError id="signup-error" message={error} />
      <button type="submit" className="btn btn--accent btn--block" disabled={busy}>
        {busy ? 'Creating account...' : 'Create Account'}
      </button>
    </form>
  );
}
