// The frame of every admin page: noindex head, the access rule (spec §6), a compact hero with the title, an optional
// back link and actions, then the page's content (rendered only for admins).
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { ArrowLeftIcon } from '@/components/ui/icons';
import { ButtonLink } from '@/components/ui/button';
import { Seo } from '@/lib/seo';
import { useAdminAccess, type AdminPolicy } from '@/lib/admin/use-admin-access';
import adminCss from '@/components/admin/admin.css?inline';
import { injectStyle } from '@/lib/inject-style';

injectStyle('admin', adminCss);

type AdminPageProps = {
  title: string;
  subtitle?: ReactNode;
  path: string;
  policy?: AdminPolicy;
  back?: { to: string; label: string };
  actions?: ReactNode;
  children: ReactNode;
};

function AccessRequired() {
  return (
    <div className="container section">
      <div className="card admin-access" data-testid="admin-access-required">
        <h2>Admin Access Required</h2>
        <p className="muted">Please sign in with an admin account to access the dashboard.</p>
        <ButtonLink to="/admin-login">Sign In</ButtonLink>
      </div>
    </div>
  );
}

export function AdminPage({ title, subtitle, path, policy = 'staff', back, actions, children }: AdminPageProps) {
  const access = useAdminAccess(policy);
  return (
    <>
      <Seo title={title} description={`${title}: admin area.`} path={path} noindex nofollow />
      <section className="page-hero admin-hero">
        <div className="container admin-hero__inner">
          <div>
            {back && access === 'allowed' && (
              <Link to={back.to} className="admin-hero__back">
                <ArrowLeftIcon size={16} /> {back.label}
              </Link>
            )}
            <h1>{access === 'signed-out' ? 'Admin Dashboard' : title}</h1>
            {subtitle && access === 'allowed' && <p>{subtitle}</p>}
          </div>
          {actions && access === 'allowed' && <div className="admin-hero__actions">{actions}</div>}
        </div>
      </section>
      {access === 'allowed' ? (
        <div className="container admin-body">{children}</div>
      ) : access === 'signed-out' ? (
        <AccessRequired />
      ) : (
        <div className="container section" aria-busy="true">
          <p className="muted">Loading...</p>
        </div>
      )}
    </>
  );
}
