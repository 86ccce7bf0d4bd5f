// A PDF drawn in the page with pdf.js (pdfjs-dist, loaded only when a CV is opened): each page onto a canvas at the
// width given, and the document's text for readers who cannot see the pages. Bytes are passed in (fetched from a
// signed URL), so the worker fetches nothing; no eval (the site's CSP forbids it).
import type { PDFDocumentProxy } from 'pdfjs-dist';

export type RenderedPdf = { pages: number; text: string[] };

async function loadPdfJs() {
  const [pdfjs, worker] = await Promise.all([import('pdfjs-dist'), import('pdfjs-dist/build/pdf.worker.min.mjs?url')]);
  pdfjs.GlobalWorkerOptions.workerSrc = worker.default;
  return pdfjs;
}

async function pageText(doc: PDFDocumentProxy, n: number): Promise<string> {
  const content = await (await doc.getPage(n)).getTextContent();
  return content.items
    .map((item) => ('str' in item ? item.str + (item.hasEOL ? '\n' : '') : ''))
    .join('')
    .replace(/[ \t]+\n/g, '\n')
    .trim();
}

/** Draws every page (at most `maxPages`) into a new canvas appended to `into`, `width` CSS pixels wide. */
export async function renderPdf(bytes: ArrayBuffer, into: HTMLElement, width: number, maxPages = 20): Promise<RenderedPdf> {
  const pdfjs = await loadPdfJs();
  const doc = await pdfjs.getDocument({ data: new Uint8Array(bytes), isEvalSupported: false, useSystemFonts: true }).promise;
  try {
    const count = Math.min(doc.numPages, maxPages);
    const text: string[] = [];
    for (let n = 1; n <= count; n++) {
      const page = await doc.getPage(n);
      const base = page.getViewport({ scale: 1 });
      const ratio = window.devicePixelRatio || 1;
      const viewport = page.getViewport({ scale: (width / base.width) * ratio });
      const canvas = document.createElement('canvas');
      canvas.width = Math.floor(viewport.width);
      canvas.height = Math.floor(viewport.height);
      canvas.style.width = `${Math.floor(viewport.width / ratio)}px`;
      canvas.setAttribute('role', 'img');
      canvas.setAttribute('aria-label', `Page ${n} of ${doc.numPages} of the CV`);
      canvas.className = 'cv-viewer__page';
      into.append(canvas);
      await page.render({ canvas, viewport }).promise;
      text.push(await pageText(doc, n));
    }
    return { pages: doc.numPages, text };
  } finally {
    await doc.destroy();
  }
}
