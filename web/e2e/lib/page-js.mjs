// The JavaScript a page really loads in Debian Chromium: compressed bytes over the wire with nothing cached (a fresh
// browser profile), on load and after scrolling to the bottom so lazy sections load too.
import { launch } from './browser.mjs';

export const PUBLIC_JS_BUDGET = 120 * 1024;

/** { initial, total, files } in bytes for `url` at 390 px wide (the phone, where most sections start near the fold). */
export async function pageJs(url) {
  const browser = await launch();
  try {
    const page = await browser.page({ width: 390, height: 844 });
    const scripts = new Map();
    page.on('response', async (res) => {
      if (res.request().resourceType() !== 'script') return;
      const sizes = await res.request().sizes().catch(() => null);
      scripts.set(new URL(res.url()).pathname, sizes ? sizes.responseBodySize + sizes.responseHeadersSize : 0);
    });
    const sum = () => [...scripts.values()].reduce((a, b) => a + b, 0);
    await page.goto(url, { waitUntil: 'networkidle' });
    await page.waitForTimeout(300);
    const initial = sum();
    await page.evaluate(async () => {
      for (let y = 0; y < document.documentElement.scrollHeight; y += 400) {
        window.scrollTo(0, y);
        await new Promise((r) => setTimeout(r, 40));
      }
    });
    await page.waitForLoadState('networkidle');
    await page.waitForTimeout(300);
    return { initial, total: sum(), files: [...scripts.keys()] };
  } finally {
    await browser.close();
  }
}
