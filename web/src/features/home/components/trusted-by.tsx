// 'Trusted By Leading Employers': 8 logos on desktop, 4 on mobile. While hovered the strip scrolls 1 px every 30 ms
// and resets at half its width (the logos are listed twice so the loop is seamless). Reduced motion: no scrolling.
import { useEffect, useRef, useState } from 'react';
import { clientLogos } from '@/content/site';
import { REDUCED_MOTION, useMediaQuery } from '@/lib/use-media-query';

export const LOGO_SCROLL_STEP_PX = 1;
export const LOGO_SCROLL_INTERVAL_MS = 30;

export function TrustedBy() {
  const ref = useRef<HTMLDivElement>(null);
  const [hovered, setHovered] = useState(false);
  const reducedMotion = useMediaQuery(REDUCED_MOTION);

  useEffect(() => {
    const el = ref.current;
    if (!el || !hovered || reducedMotion) return;
    const timer = window.setInterval(() => {
      const half = el.scrollWidth / 2;
      el.scrollLeft = el.scrollLeft + LOGO_SCROLL_STEP_PX >= half ? 0 : el.scrollLeft + LOGO_SCROLL_STEP_PX;
    }, LOGO_SCROLL_INTERVAL_MS);
    return () => window.clearInterval(timer);
  }, [hovered, reducedMotion]);

  const logos = [...clientLogos, ...clientLogos];
  return (
    <section className="trusted" aria-labelledby="trusted-title">
      <div className="container">
        <h2 id="trusted-title" className="trusted__title">
          Trusted By Leading Employers
        </h2>
        <div
          ref={ref}
          className="trusted__strip"
          data-testid="logo-strip"
          onMouseEnter={() => setHovered(true)}
          onMouseLeave={() => setHovered(false)}
        >
          <ul className="trusted__list">
            {logos.map((l, i) => (
              <li
                key={`${l.name}-${i}`}
                className={`trusted__item${i % clientLogos.length >= 4 ? ' trusted__item--desktop' : ''}`}
                aria-hidden={i >= clientLogos.length ? 'true' : undefined}
              >
                <img src={l.logo} alt={i >= clientLogos.length ? '' : l.name} width={l.width} height={l.height} loading="lazy" decoding="async" />
              </li>
            ))}
          </ul>
        </div>
      </div>
    </section>
  );
}
