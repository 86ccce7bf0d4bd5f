// "Forgot password?": sends the reset e-mail, whose link opens /career-hub/reset-password signed in for recovery.
// The answer is the same whether or not the address has an account.
import { useState, type FormEvent } from 'react';
import { useToast } from '@/components/ui/toast';
import { useCandidateAuth } from '@/lib/candidate-auth';
import { AuthField } from '@/components/auth/auth-field';
import { FormError } from '@/components/ui/form-error';
import { useAuthForm } from '@/lib/use-auth-form';

export function ForgotPasswordForm({ onDone }: { onDone: () => void }) {
  const { sendPasswordReset } = useCandidateAuth();
  const { toast } = useToast();
  const [email, setEmail] = useState('');
  const [sent, setSent] = useState(false);
  const { busy, error, submit } = useAuthForm();

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    if (await submit(() => sendPasswordReset(email.trim()))) return;
    setSent(true);
    toast({ title: 'Check your email', description: 'If an account exists for that address, we have sent a link to reset your password.' });
  };

  return (
    <form className="stack" onSubmit={onSubmit} aria-busy={busy} aria-describedby="forgot-error">
      <h2 className="auth-card__subtitle">Reset your password</h2>
      {sent ? (
        <p role="status">If an account exists for {email}, a link to reset your password is on its way.</p>
      ) : (
        <>
          <AuthField id="forgot-email" label="Email" type="email" autoComplete="email" required value={email} onValue={setEmail} />
          <FormError id="forgot-error" message={error} />
          <button type="submit" className="btn btn--primary btn--block" disabled={busy}>
            {busy ? 'Sending...' : 'Send reset link'}
          </button>
        </>
      )}
      <button type="button" className="auth-card__link" onClick={onDone}>
        Back to login
      </button>
    </form>
  );
}
