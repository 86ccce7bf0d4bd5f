// Renders the Markdown subset our article files use: ## and ### headings, paragraphs, "- " lists, "> " quotes,
// **bold**, *italic* and [links](url). Text is rendered as React text nodes, never as HTML.
import type { ReactNode } from 'react';
import { Link } from 'react-router';

type Block =
  | { kind: 'h2' | 'h3' | 'p' | 'quote'; text: string }
  | { kind: 'ul'; items: string[] };

export function parseBlocks(markdown: string): Block[] {
  const blocks: Block[] = [];
  for (const chunk of markdown.trim().split(/\n\s*\n/)) {
    const lines = chunk.split('\n').map((l) => l.trim());
    if (lines[0].startsWith('### ')) blocks.push({ kind: 'h3', text: lines.join(' ').slice(4) });
    else if (lines[0].startsWith('## ')) blocks.push({ kind: 'h2', text: lines.join(' ').slice(3) });
    else if (lines.every((l) => l.startsWith('- '))) blocks.push({ kind: 'ul', items: lines.map((l) => l.slice(2)) });
    else if (lines.every((l) => l.startsWith('>'))) blocks.push({ kind: 'quote', text: lines.map((l) => l.replace(/^>\s?/, '')).join(' ') });
    else blocks.push({ kind: 'p', text: lines.join(' ') });
  }
  return blocks;
}

const INLINE = /\*\*([^*]+)\*\*|\*([^*]+)\*|\[([^\]]+)\]\(([^)\s]+)\)/g;

export function renderInline(text: string): ReactNode[] {
  const out: ReactNode[] = [];
  let last = 0;
  let key = 0;
  for (const m of text.matchAll(INLINE)) {
    if (m.index > last) out.push(text.slice(last, m.index));
    if (m[1]) out.push(<strong key={key++}>{m[1]}</strong>);
    else if (m[2]) out.push(<em key={key++}>{m[2]}</em>);
    else if (m[4].startsWith('/')) out.push(<Link key={key++} to={m[4]}>{m[3]}</Link>);
    else if (/^https:\/\//.test(m[4]))
      out.push(
        <a key={key++} href={m[4]} target="_blank" rel="noopener noreferrer">
          {m[3]}
        </a>,
      );
    else out.push(m[3]);
    last = m.index + m[0].length;
  }
  if (last < text.length) out.push(text.slice(last));
  return out;
}

export function Markdown({ source }: { source: string }) {
  return (
    <>
      {parseBlocks(source).map((b, i) => {
        switch (b.kind) {
          case 'h2':
            return <h2 key={i}>{renderInline(b.text)}</h2>;
          case 'h3':
            return <h3 key={i}>{renderInline(b.text)}</h3>;
          case 'quote':
            return <blockquote key={i}>{renderInline(b.text)}</blockquote>;
          case 'ul':
            return (
              <ul key={i}>
                {b.items.map((item, j) => (
                  <li key={j}>{renderInline(item)}</li>
                ))}
              </ul>
            );
          default:
            return <p key={i}>{renderInline(b.text)}</p>;
        }
      })}
    </>
  );
}
