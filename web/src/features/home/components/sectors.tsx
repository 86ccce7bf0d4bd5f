// Four sector cards; the featured card alternates between index 0 and 1 every 8000 ms (paused for reduced motion).
import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { sectors } from '@/content/sectors';
import { REDUCED_MOTION, useMediaQuery } from '@/lib/use-media-query';

export const SECTOR_ROTATION_MS = 8000;

export function Sectors() {
  const [featured, setFeatured] = useState(0);
  const reducedMotion = useMediaQuery(REDUCED_MOTION);
  useEffect(() => {
    if (reducedMotion) return;
    const timer = window.setInterval(() => setFeatured((f) => (f === 0 ? 1 : 0)), SECTOR_ROTATION_MS);
    return () => window.clearInterval(timer);
  }, [reducedMotion]);
  return (
    <section className="section section--white" aria-labelledby="sectors-title">
      <div className="container">
        <div className="section-head">
          <span className="eyebrow">Sectors</span>
          <h2 id="sectors-title">Specialists across the property lifecycle</h2>
          <p className="lead">From the first land deal to the last maintenance contract, we know the roles and the people.</p>
        </div>
        <div className="sectors" data-testid="sectors">
          {sectors.map((s, i) => (
            <article key={s.title} className={`card sector-card${i === featured ? ' sector-card--featured' : ''}`} data-featured={i === featured}>
              <img src={s.image} alt="" width={640} height={400} loading="lazy" decoding="async" className="sector-card__img" />
              <h3 className="card__title">{s.title}</h3>
              <p className="muted">{s.text}</p>
              <div className="card__footer">
                <Link to={s.to} className="sector-card__link">
                  Explore {s.title}
                </Link>
              </div>
            </article>
          ))}
        </div>
      </div>
    </section>
  );
}
