// The shell of the legal pages (/privacy, /terms): dark hero, a contents list beside the text (sticky on wide
// screens) and the text itself; each entry of `contents` links to a section id inside `children`. Also their tables
// and external links.
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

/** A two-column table of the legal text (first column: what, second: the rule), captioned for screen readers. */
export function LegalTable({ caption, columns, rows }: { caption: string; columns: [string, string]; rows: string[][] }) {
  return (
    <div className="legal-table-wrap">
      <table className="legal-table">
        <caption className="visually-hidden">{caption}</caption>
        <thead>
          <tr>
            <th scope="col">{columns[0]}</th>
            <th scope="col">{columns[1]}</th>
          </tr>
        </thead>
        <tbody>
          {rows.map(([what, rule]) => (
            <tr key={what}>
              <td>{what}</td>
              <td>{rule}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
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
