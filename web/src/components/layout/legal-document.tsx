// The shell of the legal pages (/privacy, /terms): dark hero, a contents list beside the text (sticky on wide
// screens) and the text itself. Each entry of `contents` links to a section id inside `children`.
import type { ReactNode } from 'react';
import './legal-document.css';

export type LegalContentsEntry = { id: string; label: string };

export function LegalDocument(p: { eyebrow: string; title: string; intro: ReactNode; contents: LegalContentsEntry[]; children: ReactNode }) {
  return (
    <>
      <section className="page-hero on-dark">
        <div className="container">
          <p className="eyebrow">{p.eyebrow}</p>
          <h1>{p.title}</h1>
          <p>{p.intro}</p>
        </div>
      </section>
      <div className="section">
        <div className="container legal-layout">
          <nav className="legal-toc card" aria-labelledby="legal-contents">
            <h2 id="legal-contents">Contents</h2>
            <ol>
              {p.contents.map((c) => (
                <li key={c.id}>
                  <a href={`#${c.id}`}>{c.label}</a>
                </li>
              ))}
            </ol>
          </nav>
          <div className="prose legal-body">{p.children}</div>
        </div>
      </div>
    </>
  );
}

/** A link that opens another site in a new tab and says so to screen readers. */
export function ExternalLink({ href, children }: { href: string; children: ReactNode }) {
  return (
    <a href={href} target="_blank" rel="noopener noreferrer">
      {children}
      <span className="visually-hidden"> (opens in a new tab)</span>
    </a>
  );
}
