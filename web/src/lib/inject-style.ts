// Styles of the client-only areas (admin pages, shared profiles, the Career Hub's pages) are injected when their
// module loads, before the page renders, instead of joining the one stylesheet that every prerendered public page
// inlines (vite `cssCodeSplit: false`), so public pages do not carry them. Import the CSS with `?inline` and pass it
// here once per module.
export function injectStyle(id: string, css: string): void {
  if (typeof document === 'undefined' || document.getElementById(`style-${id}`)) return;
  const style = document.createElement('style');
  style.id = `style-${id}`;
  style.textContent = css;
  document.head.appendChild(style);
}
