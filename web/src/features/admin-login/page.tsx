// /admin-login: Sign In / Create Admin Account (spec §2, §5, §8). Creating an account never makes anyone an admin:
// the role is granted by an existing admin (or `make admin EMAIL=...`), which the page says. Already signed in → /.
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { Button } from '@/components/ui/button';
import { useToast } from '@/components/ui/toast';
import { useAuth } from '@/lib/auth';
import { signInWithPassword, signUpWithPassword } from '@/lib/password-auth';
import { Seo } from '@/lib/seo';
import adminCss from '@/components/admin/admin.css?inline';
import { injectStyle } from '@/lib/inject-style';
import loginCss from './admin-login.css?inline';

injectStyle('admin', adminCss);
injectStyle('admin-login', loginCss);

type Mode = 'sign-in' | 'sign-up';

export default function AdminLoginPage() {
  const { loading, user, connect } = useAuth();
  const navigate = useNavigate();
  const { toast } = useToast();
  const [mode, setMode] = useState<Mode>('sign-in');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const signedUpHere = useRef(false);

  useEffect(() => {
    if (!loading && user && !signedUpHere.current) navigate('/', { replace: true });
  }, [loading, user, navigate]);

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    setBusy(true);
    if (mode === 'sign-up') signedUpHere.current = true;
    const { error } =
      mode === 'sign-in'
        ? await signInWithPassword(connect, email.trim(), password)
        : await signUpWithPassword(connect, email.trim(), password, `${window.location.origin}/`);
    if (error) {
      signedUpHere.current = false;
      toast({ title: mode === 'sign-in' ? 'Login Failed' : 'Signup Failed', description: error, variant: 'destructive' });
    } else if (mode === 'sign-in') {
      toast({ title: 'Login Successful', description: 'Welcome back!' });
      navigate('/', { replace: true });
    } else {
      toast({ title: 'Account Created!', description: 'Please check your email to verify your account.' });
      setPassword('');
    }
    setBusy(false);
  }

  const title = mode === 'sign-in' ? 'Admin Login' : 'Create Admin Account';
  return (
    <>
      <Seo title={title} description="Sign in to the admin area." path="/admin-login" noindex nofollow />
      <section className="page-hero admin-hero">
        <div className="container">
          <h1>{title}</h1>
          <p>Manage featured jobs, candidate profiles and engagement analytics.</p>
        </div>
      </section>
      <div className="container admin-body">
        <form className="card admin-login" onSubmit={(e) => void onSubmit(e)} aria-labelledby="admin-login-title">
          <h2 id="admin-login-title">{title}</h2>
          <div className="field">
            <label htmlFor="admin-email">Email</label>
            <input id="admin-email" name="email" type="email" autoComplete="email" required value={email} onChange={(e) => setEmail(e.target.value)} />
          </div>
          <div className="field">
            <label htmlFor="admin-password">Password</label>
            <input
              id="admin-password"
              name="password"
              type="password"
              autoComplete={mode === 'sign-in' ? 'current-password' : 'new-password'}
              minLength={mode === 'sign-up' ? 6 : undefined}
              required
              value={password}
              onChange={(e) => setPassword(e.target.value)}
            />
          </div>
          {mode === 'sign-up' && (
            <p className="admin-login__note" data-testid="admin-grant-note">
              Creating an account does not give admin access. An existing admin must grant access to your account before you
              can use the admin area.
            </p>
          )}
          <Button type="submit" block disabled={busy} aria-busy={busy}>
            {busy && <span className="spinner" aria-hidden="true" />}
            {mode === 'sign-in' ? 'Sign In' : 'Create Admin Account'}
          </Button>
          <button type="button" className="admin-login__toggle" onClick={() => setMode(mode === 'sign-in' ? 'sign-up' : 'sign-in')}>
            {mode === 'sign-in' ? 'Need an account? Create Admin Account' : 'Already have an account? Sign In'}
          </button>
        </form>
      </div>
    </>
  );
}
