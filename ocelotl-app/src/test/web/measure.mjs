// Measures, in Debian's chromium, the time from a change of p (a click on the curves) and from
// a zoom (drag + Enter) to the redrawn overview, on a server already running.
// Usage: node measure.mjs 'URL printed by ocelotl view/serve' [extra query, e.g. '&slices=1000']
// Not a test: figures depend on the machine (docs/web-ui.md lists measured ones).
import { chromium } from 'playwright-core';

const [url, extra = ''] = process.argv.slice(2);
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM || '/usr/bin/chromium', headless: true,
  args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
    '--disable-component-update', '--disable-sync'] });
const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
const caption = () => page.$eval('#caption', c => ({ ...c.dataset }));
async function timed(action, keys) {
  const before = await caption();
  const t0 = Date.now();
  await action();
  await page.waitForFunction(([b, ks]) => ks.some(k => document.getElementById('caption').dataset[k] !== b[k]),
    [before, keys], { timeout: 600_000, polling: 'raf' });
  return { ms: Date.now() - t0, ...(await caption()) };
}
const t0 = Date.now();
await page.goto(url + extra);
await page.waitForFunction(() => document.getElementById('caption').dataset.parts, null, { timeout: 600_000 });
console.log(`first overview: ${Date.now() - t0} ms, ${(await caption()).parts} parts`);
const box = await page.$eval('#curves', c => { const r = c.getBoundingClientRect(); return { x: r.x, y: r.y, w: r.width, h: r.height }; });
for (const f of [0.1, 0.3, 0.05, 0.6, 0.2]) {
  const r = await timed(() => page.mouse.click(box.x + 40 + (box.w - 54) * f, box.y + box.h / 2), ['p']);
  console.log(`p change → ${r.p}: ${r.ms} ms, ${r.parts} parts`);
}
for (let i = 0; i < 3; i++) {
  const r = await timed(() => page.keyboard.press('ArrowLeft'), ['p']);
  console.log(`← → p ${r.p}: ${r.ms} ms, ${r.parts} parts`);
}
const ov = await page.$eval('#overview', c => { const r = c.getBoundingClientRect(); const [x, y, w, h] = c.dataset.plot.split(' ').map(Number); return { x: r.x + x, y: r.y + y, w, h }; });
for (const [a, b] of [[0.2, 0.5], [0.3, 0.6]]) {
  await page.mouse.move(ov.x + ov.w * a, ov.y + ov.h / 2);
  await page.mouse.down();
  await page.mouse.move(ov.x + ov.w * b, ov.y + ov.h / 2, { steps: 3 });
  await page.mouse.up();
  const r = await timed(() => page.keyboard.press('Enter'), ['start', 'end']);
  console.log(`zoom → [${r.start}, ${r.end}]: ${r.ms} ms, ${r.parts} parts`);
}
const r = await timed(() => page.click('#back'), ['start', 'end']);
console.log(`back → [${r.start}, ${r.end}]: ${r.ms} ms`);
await browser.close();
