// Views per day as an SVG bar chart (no chart library: 30 bars need ~80 lines, and a hand-written SVG keeps the
// admin bundle small and fully accessible). The SVG is one labelled image with a text summary; the numbers are also
// in a table under "Show the numbers" for screen readers and keyboard users. Unique viewers are the darker part.
// The axis labels are HTML beside and under the SVG (hidden from assistive technology, which has the table).
import { useId } from 'react';
import { formatDay } from '@/lib/admin/format';
import type { Trend } from '../api/profile-analytics';

// One slot per day in the SVG's own units; the SVG stretches to its box (bars and grid lines stretch cleanly, with
// non-scaling strokes), while the axis labels are HTML placed by percentage, so text never stretches at any width.
const SLOT = 10;
const BAR = 7;
const TOP = 100;

function niceMax(n: number): number {
  if (n <= 4) return 4;
  const step = 10 ** Math.floor(Math.log10(n));
  return Math.ceil(n / step) * step;
}

export function summary(trend: Trend): string {
  const total = trend.daily.reduce((s, d) => s + d.views, 0);
  const peak = trend.daily.reduce((best, d) => (d.views > best.views ? d : best), trend.daily[0] ?? { day: '', views: 0, unique_viewers: 0 });
  if (total === 0) return `No views in the last ${trend.daily.length} days.`;
  return `${total} views in the last ${trend.daily.length} days; the busiest day was ${formatDay(peak.day)} with ${peak.views}.`;
}

/** Day labels under the bars: every fifth day (every tenth on phones, where the others are hidden). */
const TICK_EVERY = 5;

export function ViewsChart({ trend, label }: { trend: Trend; label: string }) {
  const id = useId();
  const days = trend.daily.length;
  const max = niceMax(Math.max(0, ...trend.daily.map((d) => d.views)));
  const width = Math.max(1, days) * SLOT;
  const y = (v: number) => TOP - (v / max) * TOP;
  const percent = (n: number) => `${n.toFixed(3)}%`;
  return (
    <figure className="views-chart" data-testid="views-chart">
      <div className="views-chart__plot">
        <div className="views-chart__y" aria-hidden="true">
          <span className="views-chart__y-sizer">{max}</span>
          {[1, 0.5, 0].map((f) => (
            <span key={f} style={{ top: percent((1 - f) * 100) }}>
              {Math.round(max * f)}
            </span>
          ))}
        </div>
        <div className="views-chart__area">
          <svg viewBox={`0 0 ${width} ${TOP}`} role="img" aria-labelledby={`${id}-title ${id}-desc`} preserveAspectRatio="none">
            <title id={`${id}-title`}>{label}</title>
            <desc id={`${id}-desc`}>{summary(trend)}</desc>
            {[0, 0.5, 1].map((f) => (
              <line key={f} x1={0} x2={width} y1={y(max * f)} y2={y(max * f)} className="views-chart__grid" vectorEffect="non-scaling-stroke" />
            ))}
            {trend.daily.map((d, i) => {
              const x = i * SLOT + (SLOT - BAR) / 2;
              return (
                <g key={d.day} data-day={d.day} data-views={d.views}>
                  <title>{`${formatDay(d.day)}: ${d.views} views, ${d.unique_viewers} unique viewers`}</title>
                  <rect x={x} y={y(d.views)} width={BAR} height={TOP - y(d.views)} className="views-chart__bar" />
                  <rect x={x} y={y(d.unique_viewers)} width={BAR} height={TOP - y(d.unique_viewers)} className="views-chart__bar views-chart__bar--unique" />
                </g>
              );
            })}
          </svg>
          <div className="views-chart__x" aria-hidden="true">
            {trend.daily.map((d, i) =>
              i % TICK_EVERY === 0 ? (
                <span key={d.day} className={i % (2 * TICK_EVERY) === 0 ? undefined : 'views-chart__tick--minor'} style={{ left: percent(((i + 0.5) / days) * 100) }}>
                  {formatDay(d.day)}
                </span>
              ) : null,
            )}
          </div>
        </div>
      </div>
      <figcaption className="views-chart__legend">
        <span className="views-chart__key" /> Views <span className="views-chart__key views-chart__key--unique" /> Unique viewers
      </figcaption>
      <details className="views-chart__data">
        <summary>Show the numbers</summary>
        <table className="admin-table">
          <caption className="visually-hidden">{label}</caption>
          <thead>
            <tr>
              <th scope="col">Day</th>
              <th scope="col" className="num">Views</th>
              <th scope="col" className="num">Unique viewers</th>
            </tr>
          </thead>
          <tbody>
            {trend.daily.map((d) => (
              <tr key={d.day}>
                <td>{formatDay(d.day)}</td>
                <td className="num">{d.views}</td>
                <td className="num">{d.unique_viewers}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </figure>
  );
}
