// /career-hub/reset-password: the password-reset e-mail's link lands here signed in for recovery; the candidate sets a
// new password (≥ 6 characters) and continues to the dashboard. Without a recovery session it explains what to do.
import { useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import { useToast } from '@/components/ui/toast';
import { CandidatePage } from '@/lib/candidate-page';
import { useCandidateAuth } from '@/lib/candidate-auth';
import { DASHBOARD_PATH } from '@/lib/next-path';
import { newPasswordProblem } from '@/lib/account-checks';
import { Seo } from '@/lib/seo';
import { AuthField } from '@/components/auth/auth-field';
import { FormError } from '@/components/ui/form-error';
import { useAuthForm } from '@/lib/use-auth-form';
import { injectStyle } from '@/lib/inject-style';
import loginCss from '@/components/auth/login.css?inline';

injectStyle('career-hub-login', loginCss);

function ResetForm() {
  const { updatePassword } = useCandidateAuth();
  const { toast } = useToast();
  const navigate = useNavigate();
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const { busy, error, setError, submit } = useAuthForm();

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    const problem = newPasswordProblem(password, confirm);
    if (problem) return setError(problem);
    if (await submit(() => updatePassword(password))) return;
    toast({ title: 'Password updated', description: 'Your new password is ready to use.' });
    navigate(DASHBOARD_PATH, { replace: true });
  };

  return (
    <form className="stack" onSubmit={onSubmit} aria-busy={busy} aria-describedby="reset-error" noValidate>
      <AuthField id="reset-password" label="New password" type="password" autoComplete="new-password" required placeholder="Minimum 6 characters" value={password} onValue={setPassword} />
      <AuthField id="reset-confirm" label="Confirm new password" type="password" autoComplete="new-password" required value={confirm} onValue={setConfirm} />
      <FormError id="reset-error" message={error} />
      <button type="submit" className="btn btn--primary btn--block" disabled={busy}>
        {busy ? 'Saving...' : 'Set new password'}
      </button>
    </form>
  );
}

function ResetScreen() {
  const { ready, user } = useCandidateAuth();
  return (
    <section className="auth-page">
      <div className="auth-card card">
        <Link to="/career-hub/login" className="auth-card__back">
          ← Back to login
        </Link>
        <h1 className="auth-card__title">Set a new password</h1>
        {!ready ? (
          <p className="muted">Loading...</p>
        ) : user ? (
          <ResetForm />
        ) : (
          <p>This link has expired or was already used. Go back to the login page and choose “Forgot password?” to get a new one.</p>
        )}
      </div>
    </section>
  );
}

export default function ResetPasswordPage() {
  return (
    <>
      <Seo title="Set a new password" description="Choose a new password for your Career Hub account." path="/career-hub/reset-password" noindex />
      <CandidatePage>
        <ResetScreen />
      </CandidatePage>
    </>
  );
}
