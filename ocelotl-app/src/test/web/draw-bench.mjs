// Draws a synthetic overview of 10 000 blocks (100 rows × 100 intervals) with the page's own
// drawing code and times draw() and the tooltip hit test. Usage: node draw-bench.mjs URL
import { chromium } from 'playwright-core';
const url = process.argv[2];
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM || '/usr/bin/chromium', headless: true, args: ['--no-sandbox', '--disable-gpu'] });
const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
await page.goto(url);
await page.waitForFunction(() => document.getElementById('caption').dataset.parts, null, { timeout: 120000 });
const r = await page.evaluate(async () => {
  const { OverviewView } = await import('/assets/overview.js');
  const c = document.getElementById('overview');
  const tip = document.getElementById('tooltip');
  const v = new OverviewView(c, tip, () => {});
  const blocks = [];
  const rows = 100, cols = 100;
  const producers = [{ node: 0, name: 'root', depth: 0, y0: 0, y1: 1, leaves: rows, row: false, collapsed: false, mark: 'NONE' }];
  for (let i = 0; i < rows; i++) producers.push({ node: i + 1, name: `r${i}`, depth: 1, y0: i / rows, y1: (i + 1) / rows, leaves: 1, row: true, collapsed: false, mark: 'NONE' });
  for (let i = 0; i < rows; i++) for (let j = 0; j < cols; j++) blocks.push({ x0: j / cols, x1: (j + 1) / cols, y0: i / rows, y1: (i + 1) / rows,
    colour: ['#2f6db5', '#e3872d', '#3c9a4a'][(i + j) % 3], opacity: 0.5 + ((i * j) % 5) / 10, mark: (i + j) % 17 === 0 ? 'CROSS' : 'NONE',
    node: i + 1, first: j, last: j, part: i * cols + j, type: 0, tooltip: { start: j, end: j + 1, unit: 's', producer: `r${i}`, leaves: 1, slices: 1, types: [], merged: [], hiddenParts: 1 } });
  const data = { parts: blocks.length, overview: { start: 0, end: 100, unit: 's', valueMax: 0, legend: [], producers, blocks } };
  const t0 = performance.now();
  for (let k = 0; k < 10; k++) v.show(data);
  const draw = (performance.now() - t0) / 10;
  const t1 = performance.now();
  for (let k = 0; k < 1000; k++) v.blockAt(Math.random(), Math.random());
  const hit = (performance.now() - t1) / 1000;
  return { draw, hit };
});
console.log(`10 000 blocks: draw ${r.draw.toFixed(1)} ms, hit test ${r.hit.toFixed(3)} ms`);
await browser.close();
