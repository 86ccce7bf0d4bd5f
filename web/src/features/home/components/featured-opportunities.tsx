// Featured Opportunities from the database: up to 5. Phones get a carousel; wider screens 3 under 'Featured
// Opportunities' and 2 under 'More Vacancies'. Hidden when there are none (or the API fails); 'Loading
// opportunities...' while loading. Data (and supabase-js) load when the block nears the viewport.
import { useEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import { ArrowLeftIcon, ArrowRightIcon, MapPinIcon } from '@/components/ui/icons';
import { getFeaturedJobs, type FeaturedJob } from '../api/get-featured-jobs';
import { useMediaQuery } from '@/lib/use-media-query';
import { useNearViewport } from '@/lib/use-near-viewport';

type State = { kind: 'loading' } | { kind: 'ready'; jobs: FeaturedJob[] };

function FeaturedCard({ job, cta }: { job: FeaturedJob; cta: 'View Role' | 'More Details' }) {
  return (
    <article className="card card--interactive featured-card" data-testid="featured-card">
      {job.type && <span className="badge">{job.type}</span>}
      <h3 className="card__title">{job.title}</h3>
      <p className="card__meta">
        {job.location && (
          <span className="vacancy-card__loc">
            <MapPinIcon size={14} /> {job.location}
          </span>
        )}
        {job.company && <span>{job.company}</span>}
      </p>
      {job.salary && <p className="vacancy-card__salary">{job.salary}</p>}
      {job.excerpt && <p className="featured-card__excerpt">{job.excerpt}</p>}
      <div className="card__footer">
        <Link to={`/jobs/${job.jobId}`} className="btn btn--primary btn--sm card__stretched">
          {cta}
          <span className="visually-hidden">: {job.title}</span>
        </Link>
      </div>
    </article>
  );
}

function Carousel({ jobs }: { jobs: FeaturedJob[] }) {
  const [index, setIndex] = useState(0);
  const trackRef = useRef<HTMLDivElement>(null);
  // While a button-driven smooth scroll runs, the scroll events it fires describe the slides it passes, not where it
  // is going: they must not move the index (until it arrives, or a second later if a swipe interrupted it).
  const heading = useRef<{ to: number; until: number } | null>(null);
  const go = (i: number) => {
    const next = (i + jobs.length) % jobs.length;
    heading.current = { to: next, until: Date.now() + 1000 };
    setIndex(next);
    const track = trackRef.current;
    const slide = track?.children[next] as HTMLElement | undefined;
    if (track && slide) track.scrollTo({ left: slide.offsetLeft - track.offsetLeft, behavior: 'smooth' });
  };
  return (
    <div className="featured-carousel" role="region" aria-roledescription="carousel" aria-label="Featured opportunities" data-testid="featured-carousel">
      <div
        ref={trackRef}
        className="featured-carousel__track"
        onScroll={(e) => {
          const el = e.currentTarget;
          const i = Math.round(el.scrollLeft / Math.max(1, el.clientWidth));
          const h = heading.current;
          if (h && (i === h.to || Date.now() > h.until)) heading.current = null;
          else if (h) return;
          if (i !== index && i >= 0 && i < jobs.length) setIndex(i);
        }}
      >
        {jobs.map((job, i) => (
          <div key={job.id} className="featured-carousel__slide" role="group" aria-roledescription="slide" aria-label={`${i + 1} of ${jobs.length}`}>
            <FeaturedCard job={job} cta="View Role" />
          </div>
        ))}
      </div>
      <div className="featured-carousel__controls">
        <button type="button" className="btn btn--outline btn--sm" onClick={() => go(index - 1)} aria-label="Previous opportunity">
          <ArrowLeftIcon size={18} />
        </button>
        <span className="featured-carousel__count" aria-live="polite" data-testid="carousel-position">
          {index + 1} / {jobs.length}
        </span>
        <button type="button" className="btn btn--outline btn--sm" onClick={() => go(index + 1)} aria-label="Next opportunity">
          <ArrowRightIcon size={18} />
        </button>
      </div>
    </div>
  );
}

export function FeaturedOpportunities() {
  const ref = useRef<HTMLElement>(null);
  const near = useNearViewport(ref);
  const desktop = useMediaQuery('(min-width: 768px)');
  const [state, setState] = useState<State>({ kind: 'loading' });

  useEffect(() => {
    if (!near) return;
    let live = true;
    getFeaturedJobs()
      .then((jobs) => live && setState({ kind: 'ready', jobs }))
      .catch((err: unknown) => {
        console.warn('Featured jobs failed to load:', err instanceof Error ? err.message : err);
        if (live) setState({ kind: 'ready', jobs: [] });
      });
    return () => {
      live = false;
    };
  }, [near]);

  if (state.kind === 'ready' && state.jobs.length === 0) return <span ref={ref} hidden />;
  return (
    <section ref={ref} className="section featured" aria-labelledby="featured-title" data-testid="featured-opportunities">
      <div className="container">
        <div className="section-head">
          <span className="eyebrow">Handpicked roles</span>
          <h2 id="featured-title">Featured Opportunities</h2>
        </div>
        {state.kind === 'loading' ? (
          <p className="muted featured__loading">Loading opportunities...</p>
        ) : desktop ? (
          <>
            <div className="grid grid--3">
              {state.jobs.slice(0, 3).map((job) => (
                <FeaturedCard key={job.id} job={job} cta="View Role" />
              ))}
            </div>
            {state.jobs.length > 3 && (
              <>
                <h2 className="featured__more">More Vacancies</h2>
                <div className="grid grid--2">
                  {state.jobs.slice(3, 5).map((job) => (
                    <FeaturedCard key={job.id} job={job} cta="More Details" />
                  ))}
                </div>
              </>
            )}
          </>
        ) : (
          <Carousel jobs={state.jobs} />
        )}
      </div>
    </section>
  );
}
