// /vacancies: admin-only. 'Loading...' while the admin check runs; non-admins are sent to / (replace).
import { useEffect } from 'react';
import { useNavigate } from 'react-router';
import { useAuth } from '@/lib/auth';
import { Seo } from '@/lib/seo';
import { VacanciesSection } from '@/components/vacancies/vacancies-section';

export default function VacanciesPage() {
  const { loading, isAdmin } = useAuth();
  const navigate = useNavigate();
  useEffect(() => {
    if (!loading && !isAdmin) navigate('/', { replace: true });
  }, [loading, isAdmin, navigate]);
  const seo = <Seo title="Vacancies" description="Current vacancies and trending roles." path="/vacancies" noindex />;
  if (loading || !isAdmin) {
    return (
      <>
        {seo}
        <div className="page-hero">
          <div className="container">
            <p>Loading...</p>
          </div>
        </div>
      </>
    );
  }
  return (
    <>
      {seo}
      <section className="page-hero">
        <div className="container">
          <span className="eyebrow">Market</span>
          <h1>What&apos;s Trending</h1>
          <p>The roles our clients are hiring for now, and the skills in demand across property and the built environment.</p>
        </div>
      </section>
      <VacanciesSection eager />
    </>
  );
}
