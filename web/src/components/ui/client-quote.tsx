// A client's testimonial as a centred pull quote (the about and services pages): quote, then name, role, company.
import type { Testimonial } from '@/content/site';

export function ClientQuote({ quote }: { quote: Testimonial }) {
  return (
    <figure className="client-quote">
      <blockquote>
        <p>“{quote.quote}”</p>
      </blockquote>
      <figcaption>
        <strong>{quote.name}</strong>, {quote.role}, {quote.company}
      </figcaption>
    </figure>
  );
}
