// /career-hub/login (spec §2): Login and Sign Up tabs, "Forgot password?", and a back link to /career-hub. Toasts and
// redirects as spec §4/§8; a signed-in visitor goes straight to the dashboard (or a same-site ?next= path).
import { useEffect, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { CandidatePage } from '@/lib/candidate-page';
import { useCandidateAuth } from '@/lib/candidate-auth';
import { safeNextPath } from '@/lib/next-path';
import { Seo } from '@/lib/seo';
import { AuthTabs, type AuthTab } from './auth-tabs';
import { ForgotPasswordForm } from './forgot-password-form';
import { LoginForm } from './login-form';
import { SignUpForm } from './sign-up-form';
import { injectStyle } from '@/lib/inject-style';
import loginCss from '@/components/auth/login.css?inline';

injectStyle('career-hub-login', loginCss);

function LoginScreen() {
  const { ready, user } = useCandidateAuth();
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const [tab, setTab] = useState<AuthTab>(params.get('tab') === 'signup' ? 'signup' : 'login');
  const [forgot, setForgot] = useState(false);
  const next = safeNextPath(params.get('next'));

  useEffect(() => {
    if (ready && user) navigate(next, { replace: true });
  }, [ready, user, next, navigate]);

  return (
    <section className="auth-page">
      <div className="auth-card card">
        <Link to="/career-hub" className="auth-card__back">
          ← Back to Career Hub
        </Link>
        <h1 className="auth-card__title">Career Hub</h1>
        <p className="muted">Sign in to build, save and download your CVs, or create a free account.</p>
        {forgot ? (
          <ForgotPasswordForm onDone={() => setForgot(false)} />
        ) : (
          <AuthTabs tab={tab} onChange={setTab}>
            {tab === 'login' ? <LoginForm next={next} onForgot={() => setForgot(true)} /> : <SignUpForm onCreated={() => setTab('login')} />}
          </AuthTabs>
        )}
      </div>
    </section>
  );
}

export default function CareerHubLoginPage() {
  return (
    <>
      <Seo title="Career Hub Login" description="Log in or create a free Career Hub account to build and save your CV." path="/career-hub/login" noindex />
      <CandidatePage>
        <LoginScreen />
      </CandidatePage>
    </>
  );
}
