// One placement or search assignment on /our-work: service, client (or its description when confidential), the
// brief, how it was run, the outcome, two or three figures and the client's quote when there is one.
import { Link } from 'react-router';
import { serviceNames, type Assignment, type ClientQuote } from '@/content/our-work';
import { clientLogos } from '@/content/site';

function attribution(quote: ClientQuote, assignment: Assignment): string {
  const who = quote.name ? `${quote.name}, ${quote.role}` : quote.role;
  if (assignment.client.confidential) return `${who} (client name withheld at their request)`;
  return `${who}, ${quote.company ?? assignment.client.name}`;
}

export function AssignmentCard({ assignment: a }: { assignment: Assignment }) {
  const logo = a.client.confidential ? undefined : clientLogos.find((l) => l.name === a.client.name);
  const service = serviceNames[a.service];
  return (
    <article id={a.id} className="card work-card" aria-labelledby={`${a.id}-title`} data-testid="assignment">
      <div className="work-card__top">
        <ul className="work-card__tags" aria-label="Assignment type">
          <li className="badge">{service}</li>
          {a.client.confidential && <li className="badge badge--outline">Confidential mandate</li>}
        </ul>
        {logo && <img className="work-card__logo" src={logo.logo} alt="" width={logo.width} height={logo.height} loading="lazy" decoding="async" />}
      </div>
      <h3 id={`${a.id}-title`} className="card__title">
        {a.title}
      </h3>
      <p className="work-card__client">
        <strong>{a.client.name}</strong>
        <span className="muted">
          {a.location} · {a.year}
        </span>
      </p>
      <dl className="work-card__story">
        <dt>The brief</dt>
        <dd>{a.brief}</dd>
        <dt>How we ran it</dt>
        <dd>{a.approach}</dd>
        <dt>The outcome</dt>
        <dd>{a.outcome}</dd>
      </dl>
      <ul className="work-card__facts" aria-label="In figures">
        {a.facts.map((f) => (
          <li key={f.label}>
            <strong>{f.value}</strong> <span>{f.label}</span>
          </li>
        ))}
      </ul>
      {a.quote && (
        <figure className="work-card__quote">
          <blockquote>
            <p>“{a.quote.quote}”</p>
          </blockquote>
          <figcaption>{attribution(a.quote, a)}</figcaption>
        </figure>
      )}
      <div className="card__footer">
        <Link to={`/services#${a.service}`} className="work-card__service">
          How {service} works<span className="visually-hidden"> (for {a.title})</span>
        </Link>
      </div>
    </article>
  );
}
