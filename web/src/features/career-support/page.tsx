// /career-support (spec §2): 'Getting Hired' with sections #senior-executive, #mid-career, #early-career (scrolled to
// 100 ms after load), three success quotes and a 'Departure Lounge Call' button to /contact.
import { ButtonLink } from '@/components/ui/button';
import { Seo } from '@/lib/seo';
import { useHashScroll } from '../../lib/use-hash-scroll';
import './career-support.css';

const SECTIONS = [
  {
    id: 'senior-executive',
    eyebrow: 'Senior & Executive',
    title: 'Confidential moves for senior leaders',
    text: 'At senior level the best opportunities are rarely advertised. We work with leaders who want to explore the market without anyone knowing, and with boards who need discretion as much as you do.',
    points: [
      'Confidential, one-to-one conversations about your options and timing',
      'Introductions to retained mandates, C-suite and board roles',
      'Help with your leadership narrative, references and interview panels',
      'Advice on packages, notice periods and restrictive covenants',
    ],
  },
  {
    id: 'mid-career',
    eyebrow: 'Mid-Career',
    title: 'Stepping up, or stepping sideways',
    text: 'Whether you have just qualified or you are ready to lead a team, mid-career moves shape everything that follows. We help you choose the move that builds the career you want.',
    points: [
      'Honest market feedback on your experience and salary',
      'Moving between consultancy, in-house, development and investment',
      'Preparing for technical and competency-based interviews',
      'Negotiating an offer, and resigning well',
    ],
  },
  {
    id: 'early-career',
    eyebrow: 'Early Career',
    title: 'Your first steps in property',
    text: 'Graduates, apprentices and career changers: property offers careers as varied as the buildings it creates. We help you understand the options and make a strong start.',
    points: [
      'Understanding the routes: surveying, development, asset and facilities management',
      'A CV that shows potential, built free in the Career Hub',
      'Preparing for assessment centres and first interviews',
      'Guidance on APC and professional qualifications',
    ],
  },
];

const QUOTES = [
  { quote: 'They listened to what I wanted from my next role, not just what was on my CV. I moved into asset management with a clear plan for the next five years.', name: 'Asset Manager', detail: 'moved from building surveying' },
  { quote: 'Completely confidential from the first call. They managed the process with the board so well that I could focus on my current role until the day I resigned.', name: 'Development Director', detail: 'appointed to a listed developer' },
  { quote: 'As a graduate I had no idea where to start. The interview preparation made all the difference, and I accepted my first offer within a month.', name: 'Graduate Surveyor', detail: 'first role in property' },
];

export default function CareerSupportPage() {
  useHashScroll();
  return (
    <>
      <Seo
        title="Getting Hired: Career Support"
        description="Career support for property professionals: senior and executive moves, mid-career progression and early-career advice."
        path="/career-support"
      />
      <section className="page-hero on-dark">
        <div className="container">
          <p className="eyebrow">Career Support</p>
          <h1>Getting Hired</h1>
          <p>Practical, honest support at every stage of a property career.</p>
          <nav aria-label="Career stages" className="career-support__nav">
            {SECTIONS.map((s) => (
              <a key={s.id} href={`#${s.id}`} className="btn btn--outline-light btn--sm">
                {s.eyebrow}
              </a>
            ))}
          </nav>
        </div>
      </section>
      {SECTIONS.map((s, i) => (
        <section key={s.id} id={s.id} className={`section career-support__section${i % 2 ? ' section--white' : ''}`} aria-labelledby={`${s.id}-title`}>
          <div className="container career-support__grid">
            <div>
              <p className="eyebrow">{s.eyebrow}</p>
              <h2 id={`${s.id}-title`}>{s.title}</h2>
              <p className="lead">{s.text}</p>
            </div>
            <ul className="career-support__points">
              {s.points.map((p) => (
                <li key={p}>{p}</li>
              ))}
            </ul>
          </div>
        </section>
      ))}
      <section className="section section--white" aria-labelledby="success-stories">
        <div className="container">
          <div className="section-head">
            <p className="eyebrow">Success stories</p>
            <h2 id="success-stories">In their words</h2>
          </div>
          <div className="grid grid--3">
            {QUOTES.map((q) => (
              <figure key={q.name} className="card career-support__quote">
                <blockquote>
                  <p>“{q.quote}”</p>
                </blockquote>
                <figcaption>
                  <strong>{q.name}</strong>, {q.detail}
                </figcaption>
              </figure>
            ))}
          </div>
        </div>
      </section>
      <section className="section section--navy" aria-labelledby="departure-lounge">
        <div className="container section-head section-head--center">
          <h2 id="departure-lounge">Thinking about leaving your current role?</h2>
          <p className="lead">Book a confidential call to talk through your options before you make a move.</p>
          <ButtonLink to="/contact" variant="accent" size="lg">
            Departure Lounge Call
          </ButtonLink>
        </div>
      </section>
    </>
  );
}
