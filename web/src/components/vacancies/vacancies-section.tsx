// 'Latest Vacancies' (home, /candidates, /vacancies): five cards, the first two large and the next three small, jobs
// interleaved with the two trending placeholders. Loads when the section nears the viewport (or at once with `eager`).
import { useRef } from 'react';
import { Link, useNavigate } from 'react-router';
import { ArrowRightIcon, MapPinIcon, TrendingIcon } from '@/components/ui/icons';
import { postedText } from '@/lib/jobs/format';
import type { JobRow } from '@/lib/jobs/types';
import type { TrendingCard } from '@/lib/jobs/sample-jobs';
import { useAuth } from '@/lib/auth';
import { useNearViewport } from '@/lib/use-near-viewport';
import { useLatestJobs } from './use-latest-jobs';
import { VACANCY_CARDS, vacancyOrder } from './vacancy-order';
import './vacancies.css';

function JobCard({ job, large }: { job: JobRow; large: boolean }) {
  const navigate = useNavigate();
  const href = `/jobs/${job.id}`;
  const posted = postedText(job);
  return (
    <article
      className={`card card--interactive vacancy-card${large ? ' vacancy-card--large' : ''}`}
      data-testid="vacancy-card"
      data-kind="job"
      onClick={(e) => {
        if (!(e.target as HTMLElement).closest('a,button')) navigate(href);
      }}
    >
      <div className="vacancy-card__top">
        {job.type && <span className="badge">{job.type}</span>}
        {posted && <span className="vacancy-card__posted">{posted}</span>}
      </div>
      <h3 className="card__title">
        <Link to={href} className="vacancy-card__link">
          {job.title}
        </Link>
      </h3>
      <p className="card__meta">
        {job.company && <span>{job.company}</span>}
        {job.location && (
          <span className="vacancy-card__loc">
            <MapPinIcon size={14} /> {job.location}
          </span>
        )}
      </p>
      {job.salary && <p className="vacancy-card__salary">{job.salary}</p>}
      <div className="card__footer">
        <Link to={href} className="btn btn--primary btn--sm" tabIndex={-1} aria-hidden="true">
          Apply Now <ArrowRightIcon size={16} />
        </Link>
      </div>
    </article>
  );
}

function TrendingVacancy({ card, large }: { card: TrendingCard; large: boolean }) {
  return (
    <article className={`card card--navy vacancy-card vacancy-card--trending${large ? ' vacancy-card--large' : ''}`} data-testid="vacancy-card" data-kind="trending">
      <div className="vacancy-card__top">
        <span className="badge badge--accent">
          <TrendingIcon size={14} /> Trending
        </span>
      </div>
      <h3 className="card__title">{card.title}</h3>
      <p className="vacancy-card__salary">{card.salary}</p>
      <p className="card__meta">{card.summary}</p>
      <div className="card__footer">
        <Link to="/contact" className="btn btn--accent btn--sm">
          Discuss Opportunities
        </Link>
      </div>
    </article>
  );
}

export function VacanciesSection({ eager = false, headingLevel = 2 }: { eager?: boolean; headingLevel?: 1 | 2 }) {
  const ref = useRef<HTMLElement>(null);
  const near = useNearViewport(ref, '600px', !eager);
  const { loading, jobs, error } = useLatestJobs(near);
  const items = vacancyOrder(jobs);
  const Heading = headingLevel === 1 ? 'h1' : 'h2';
  // Visitors search every live role at /jobs; admins keep /vacancies (spec §2: admin-only, 'What's Trending').
  const { isAdmin } = useAuth();
  return (
    <section ref={ref} id="vacancies" className="section vacancies" aria-labelledby="vacancies-title" data-testid="vacancies-section">
      <div className="container">
        <div className="vacancies__head">
          <div>
            <span className="eyebrow">Opportunities</span>
            <Heading id="vacancies-title">Latest Vacancies</Heading>
          </div>
          <Link to={isAdmin ? '/vacancies' : '/jobs'} className="btn btn--outline">
            View All Opportunities
          </Link>
        </div>
        {error && (
          <p className="vacancies__error" role="status">
            Error loading jobs. Showing sample data.
          </p>
        )}
        <div className="vacancies__grid" aria-busy={loading}>
          {loading
            ? Array.from({ length: VACANCY_CARDS }, (_, i) => (
                <div key={i} className={`card vacancy-card vacancy-card--placeholder${i < 2 ? ' vacancy-card--large' : ''}`} data-testid="vacancy-placeholder">
                  <span className="visually-hidden">{i === 0 ? 'Loading vacancies' : ''}</span>
                </div>
              ))
            : items.map((item, i) =>
                item.kind === 'job' ? (
                  <JobCard key={item.job.id} job={item.job} large={i < 2} />
                ) : (
                  <TrendingVacancy key={item.title} card={item} large={i < 2} />
                ),
              )}
        </div>
      </div>
    </section>
  );
}
