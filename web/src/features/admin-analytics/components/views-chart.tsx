// Views per day as an SVG bar chart (no chart library: 30 bars need ~80 lines, and a hand-written SVG keeps the
// admin bundle small and fully accessible). The SVG is one labelled image with a text summary; the numbers are also
// in a table under "Show the numbers" for screen readers and keyboard users. Unique viewers are the darker part.
import { useId } from 'react';
import { formatDay } from '../../admin-common/format';
import type { Trend } from '../api/profile-analytics';

const W = 720;
const H = 220;
const PAD = { top: 12, right: 8, bottom: 28, left: 36 };

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

export function ViewsChart({ trend, label }: { trend: Trend; label: string }) {
  const id = useId();
  const max = niceMax(Math.max(0, ...trend.daily.map((d) => d.views)));
  const innerW = W - PAD.left - PAD.right;
  const innerH = H - PAD.top - PAD.bottom;
  const slot = innerW / Math.max(1, trend.daily.length);
  const y = (v: number) => PAD.top + innerH - (v / max) * innerH;
  return (
    <figure className="views-chart" data-testid="views-chart">
      <svg viewBox={`0 0 ${W} ${H}`} role="img" aria-labelledby={`${id}-title ${id}-desc`} preserveAspectRatio="none">
        <title id={`${id}-title`}>{label}</title>
        <desc id={`${id}-desc`}>{summary(trend)}</desc>
        {[0, 0.5, 1].map((f) => (
          <g key={f}>
            <line x1={PAD.left} x2={W - PAD.right} y1={y(max * f)} y2={y(max * f)} className="views-chart__grid" />
            <text x={PAD.left - 6} y={y(max * f) + 4} textAnchor="end" className="views-chart__axis">
              {Math.round(max * f)}
            </text>
          </g>
        ))}
        {trend.daily.map((d, i) => {
          const x = PAD.left + i * slot + slot * 0.15;
          const w = slot * 0.7;
          return (
            <g key={d.day} data-day={d.day} data-views={d.views}>
              <title>{`${formatDay(d.day)}: ${d.views} views, ${d.unique_viewers} unique viewers`}</title>
              <rect x={x} y={y(d.views)} width={w} height={y(0) - y(d.views)} className="views-chart__bar" />
              <rect x={x} y={y(d.unique_viewers)} width={w} height={y(0) - y(d.unique_viewers)} className="views-chart__bar views-chart__bar--unique" />
              {i % 5 === 0 && (
                <text x={x + w / 2} y={H - 8} textAnchor="middle" className="views-chart__axis">
                  {formatDay(d.day)}
                </text>
              )}
            </g>
          );
        })}
      </svg>
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
