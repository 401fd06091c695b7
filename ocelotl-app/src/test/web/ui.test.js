// Browser tests of the web UI: the built jar serves the bundled perturbed SimGrid trace,
// Debian's chromium (never a downloaded browser) is driven by playwright-core, and every test
// checks what the analyst sees: the caption, the URL, and the pixels of the canvases.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, execFileSync } from 'node:child_process';
import { mkdtempSync, mkdirSync, existsSync, rmSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createInterface } from 'node:readline';
import { request } from 'node:http';
import { chromium } from 'playwright-core';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '../../../..');
const jar = process.env.OCELOTL_JAR || join(root, 'ocelotl-app/target/ocelotl.jar');
// The shared traces as the Java tests find them (org.ocelotl.testing.SharedTraces).
const traces = process.env.OCELOTL_TRACES || resolve(root, '../shared/traces');
const trace = process.env.OCELOTL_TEST_TRACE || join(root, 'examples/smpi_perturbed.trace.gz');
const shots = join(root, 'ocelotl-app/target/browser-screenshots');
const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';

let server, url, browser, page, workspace;

/** Starts `ocelotl view ARGS…` on a free port; resolves to [the process, the URL it printed]. */
function startView(args) {
  return new Promise((ok, fail) => {
    // -XX:-UsePerfData: no hsperfdata file, so no JVM warning about one (a fresh-clone CI run once
    // printed one) can come before the URL line read below.
    const view = spawn('java', ['-XX:-UsePerfData', '-jar', jar, 'view', ...args, '--port', '0', '--workspace', workspace],
      { stdio: ['ignore', 'pipe', 'pipe'] });
    let err = '';
    view.stderr.on('data', d => { err += d; });
    view.on('exit', code => fail(new Error(`server exited with ${code}: ${err}`)));
    createInterface({ input: view.stdout }).once('line', line => ok([view, line.trim()]));
  });
}

async function startServer() {
  let line;
  [server, line] = await startView([trace]);
  return line;
}

/** The caption's data: what the page says it shows. */
async function caption() {
  return page.$eval('#caption', c => ({ text: c.textContent, p: Number(c.dataset.p), start: Number(c.dataset.start),
    end: Number(c.dataset.end), parts: Number(c.dataset.parts), leaves: Number(c.dataset.leaves), view: c.dataset.view }));
}

/** Waits until the caption differs from `previous` in one of the given fields. */
async function captionChange(previous, fields) {
  await page.waitForFunction(([prev, keys]) => {
    const c = document.getElementById('caption').dataset;
    return keys.some(k => c[k] !== undefined && String(c[k]) !== String(prev[k]));
  }, [previous, fields], { timeout: 60_000 });
  return caption();
}

/** A digest of the overview canvas's pixels and how many are not background. */
async function pixels(id = 'overview') {
  return page.$eval(`#${id}`, c => {
    const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
    let hash = 0, inked = 0;
    for (let i = 0; i < d.length; i += 4) {
      if (d[i + 3] !== 0 && (d[i] < 245 || d[i + 1] < 245 || d[i + 2] < 245)) inked++;
      hash = (hash * 31 + d[i] + 7 * d[i + 1] + 13 * d[i + 2]) | 0;
    }
    return { hash, inked, total: d.length / 4 };
  });
}

async function shot(name) {
  await page.screenshot({ path: join(shots, `${name}.png`) });
}

async function plotBox() {
  const box = await page.$eval('#overview', c => { const r = c.getBoundingClientRect(); return { x: r.x, y: r.y, w: r.width, h: r.height }; });
  return box;
}

/** The plot area inside the overview canvas, as the page draws it. */
async function plotRect() {
  const [x, y, w, h] = await page.$eval('#overview', c => c.dataset.plot.split(' ').map(Number));
  return { x, y, w, h };
}

before(async () => {
  assert.ok(existsSync(jar), `build the jar first (mvn -B package): ${jar} is missing`);
  assert.ok(trace, 'no test trace: examples/smpi_perturbed.trace.gz is missing');
  mkdirSync(shots, { recursive: true });
  workspace = mkdtempSync(join(tmpdir(), 'ocelotl-ui-'));
  url = await startServer();
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
      '--disable-component-update', '--disable-sync'],
  });
  page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  page.on('pageerror', e => { throw e; });
});

after(async () => {
  await browser?.close();
  server?.kill();
  if (workspace) rmSync(workspace, { recursive: true, force: true });
});

test('the first line of output is a localhost URL with the token and the trace', () => {
  assert.match(url, /^http:\/\/127\.0\.0\.1:\d+\/\?token=[A-Za-z0-9_-]{43}&trace=smpi_perturbed/);
});

test('a request without the token is refused, with the token it is served', async () => {
  const base = url.slice(0, url.indexOf('?'));
  const bare = await fetch(`${base}api/traces`);
  assert.equal(bare.status, 401);
  assert.match((await bare.json()).error, /token/);
  const page = await fetch(base);
  assert.equal(page.status, 401);
  const wrong = await fetch(`${base}api/traces?token=${'x'.repeat(43)}`);
  assert.equal(wrong.status, 401);
  const token = new URL(url).searchParams.get('token');
  const ok = await fetch(`${base}api/traces`, { headers: { 'X-Ocelotl-Token': token } });
  assert.equal(ok.status, 200);
  // DNS rebinding: the right token but another site's name in Host (fetch cannot set Host).
  const rebound = await new Promise((ok, fail) => {
    const u = new URL(base);
    request({ host: u.hostname, port: u.port, path: `/api/traces?token=${token}`, headers: { Host: 'evil.example' } },
      r => { r.resume(); ok(r.statusCode); }).on('error', fail).end();
  });
  assert.equal(rebound, 403);
});

test('the page loads and the overview draws', async () => {
  await page.goto(url);
  await page.waitForFunction(() => document.getElementById('caption').dataset.parts, null, { timeout: 90_000 });
  const c = await caption();
  assert.match(c.text, /smpi_perturbed/);
  assert.equal(c.start, 0);
  assert.ok(c.end > 13 && c.end < 14, `window end ${c.end}`);
  assert.ok(c.parts > 1, `parts ${c.parts}`);
  const px = await pixels();
  assert.ok(px.inked > px.total * 0.3, `only ${px.inked} of ${px.total} pixels drawn`);
  assert.ok((await pixels('curves')).inked > 500, 'the curves are drawn');
  await shot('1-loaded');
});

test('hovering an aggregate shows its time range, producers, size and type shares', async () => {
  const box = await plotBox();
  const plot = await plotRect();
  await page.mouse.move(box.x + plot.x + plot.w * 0.3, box.y + plot.y + plot.h * 0.5);
  await page.waitForSelector('#tooltip:not([hidden])');
  const text = await page.textContent('#tooltip');
  assert.match(text, /part \d+ of \d+/);
  assert.match(text, /\d+(\.\d+)? – \d+(\.\d+)? s/);
  assert.match(text, /all producers64 producers × \d+ slices?/);
  assert.match(text, /\d s\d+(\.\d+)?%/, 'values carry their unit');
  assert.match(text, /computing|PMPI_/);
  assert.match(text, /%/);
  await shot('1b-tooltip');
  await page.mouse.move(box.x + 2, box.y + 2);
});

test('clicking the curves changes p and the overview; arrow keys step through breakpoints', async () => {
  const before = await caption();
  const picture = await pixels();
  const box = await page.$eval('#curves', c => { const r = c.getBoundingClientRect(); return { x: r.x, y: r.y, w: r.width, h: r.height }; });
  // Far right of the curves: a p close to 1, a much coarser partition.
  await page.mouse.click(box.x + box.w - 20, box.y + box.h / 2);
  const after = await captionChange(before, ['p']);
  assert.ok(after.p > before.p, `p ${before.p} → ${after.p}`);
  assert.ok(after.parts < before.parts, `parts ${before.parts} → ${after.parts}`);
  assert.match(page.url(), /[?&]p=/);
  assert.notEqual((await pixels()).hash, picture.hash, 'the overview was redrawn');
  await shot('2-p-clicked');
  await page.keyboard.press('ArrowLeft');
  const stepped = await captionChange(after, ['p']);
  assert.ok(stepped.p < after.p && stepped.parts > after.parts, `← from p ${after.p} (${after.parts} parts) gave p ${stepped.p} (${stepped.parts})`);
});

test('drag and zoom re-runs the aggregation on the window; back restores', async () => {
  const full = await caption();
  const box = await plotBox();
  const plot = await plotRect();
  const x0 = box.x + plot.x + plot.w * 0.2, x1 = box.x + plot.x + plot.w * 0.45;
  await page.mouse.move(x0, box.y + box.h / 2);
  await page.mouse.down();
  await page.mouse.move((x0 + x1) / 2, box.y + box.h / 2, { steps: 3 });
  await page.mouse.move(x1, box.y + box.h / 2, { steps: 3 });
  await page.mouse.up();
  assert.match(await page.textContent('#selection'), /Selected/);
  await page.click('#zoom');
  const zoomed = await captionChange(full, ['start', 'end']);
  const span = full.end - full.start;
  assert.ok(Math.abs(zoomed.start - (full.start + 0.2 * span)) < span * 0.01, `zoom start ${zoomed.start}`);
  assert.ok(Math.abs(zoomed.end - (full.start + 0.45 * span)) < span * 0.01, `zoom end ${zoomed.end}`);
  assert.match(page.url(), /start=/);
  const ticks = await page.$eval('#overview', c => c.dataset.ticks.split(' ').map(Number));
  assert.ok(ticks.length >= 2 && ticks[0] >= zoomed.start - 1e-9 && ticks[ticks.length - 1] <= zoomed.end + 1e-9,
    `time axis ticks ${ticks} inside the zoomed window`);
  await shot('3-zoomed');
  await page.click('#back');
  const back = await captionChange(zoomed, ['start', 'end']);
  assert.equal(back.start, full.start);
  assert.equal(back.end, full.end);
  assert.equal(back.p, full.p, 'back restores the p chosen before the zoom');
  await page.click('#forward');
  const forward = await captionChange(back, ['start', 'end']);
  assert.equal(forward.start, zoomed.start);
  await page.click('#back');
  await captionChange(forward, ['start', 'end']);
});

test('a producer filter changes the picture', async () => {
  const before = await caption();
  const picture = await pixels();
  const first = page.locator('#producers input[type=checkbox]').first();
  const name = await first.evaluate(i => i.dataset.path);
  await first.uncheck();
  const after = await captionChange(before, ['leaves']);
  assert.ok(after.leaves < before.leaves, `leaves ${before.leaves} → ${after.leaves}`);
  assert.ok(decodeURIComponent(page.url()).includes(`exclude=${name}`), page.url());
  assert.notEqual((await pixels()).hash, picture.hash);
  await shot('4-filtered');
});

test('reloading the URL restores the same state', async () => {
  // The whole caption: with the count of hidden deviations, which follows the picture.
  const complete = () => document.getElementById('caption').dataset.parts && document.getElementById('caption').dataset.hidden;
  await page.waitForFunction(complete, null, { timeout: 60_000 });
  const before = await caption();
  const address = page.url();
  await page.reload();
  await page.waitForFunction(complete, null, { timeout: 60_000 });
  const after = await caption();
  assert.equal(page.url(), address);
  for (const k of ['p', 'start', 'end', 'parts', 'leaves']) assert.equal(after[k], before[k], k);
  assert.equal(after.text.replace(/ · \d+ ms( · |$)/, '$1'), before.text.replace(/ · \d+ ms( · |$)/, '$1'));
  assert.equal(await page.locator('#producers input[type=checkbox]').first().isChecked(), false);
});

test('another view of the same model keeps p: stacked bars over a value axis', async () => {
  const before = await caption();
  await page.selectOption('#view', 'stacked');
  const stacked = await captionChange(before, ['view']);
  assert.equal(stacked.view, 'temporal stacked');
  assert.equal(stacked.p, before.p);
  assert.equal(stacked.parts, before.parts);
  assert.match(page.url(), /view=stacked/);
  await shot('4b-stacked');
});

test('spatiotemporal: drag selects a time range × producer subtree and zoom keeps that subtree', async () => {
  const filtered = await caption();
  await page.click('#reset');
  const before = await captionChange(filtered, ['leaves']);
  await page.selectOption('#aggregation', 'spatiotemporal');
  await page.fill('#slices', '20');
  await page.click('#apply');
  const st = await captionChange(before, ['view']);
  assert.match(st.text, /spatiotemporal mode/);
  assert.equal(st.leaves, before.leaves);
  await shot('5-spatiotemporal');
  const box = await plotBox();
  const plot = await plotRect();
  // The top quarter of the rows: inside the first site's band.
  await page.mouse.move(box.x + plot.x + plot.w * 0.1, box.y + plot.y + plot.h * 0.02);
  await page.mouse.down();
  await page.mouse.move(box.x + plot.x + plot.w * 0.6, box.y + plot.y + plot.h * 0.2, { steps: 4 });
  await page.mouse.up();
  assert.match(await page.textContent('#selection'), /Selected .* on /);
  await page.keyboard.press('Enter');
  const zoomed = await captionChange(st, ['start', 'leaves']);
  assert.ok(zoomed.leaves < st.leaves, `leaves ${st.leaves} → ${zoomed.leaves}`);
  assert.match(page.url(), /include=/);
  await shot('6-spatiotemporal-zoomed');
});

test('the treemap view: switch to it, play the time control, click through to the overview', async () => {
  const before = await caption();
  await page.click('#panels button[data-panel="treemap"]');
  const shown = await captionChange(before, ['view']);
  assert.equal(shown.view, 'spatial treemap');
  assert.match(page.url(), /panel=treemap/);
  assert.match(shown.text, /whole window/);
  const px = await pixels('treemap');
  assert.ok(px.inked > px.total * 0.5, `only ${px.inked} of ${px.total} treemap pixels drawn`);
  await shot('8-treemap');
  // Hover: a cell's path, kind and values.
  const box = await page.$eval('#treemap', c => { const r = c.getBoundingClientRect(); return { x: r.x, y: r.y, w: r.width, h: r.height }; });
  await page.mouse.move(box.x + box.w * 0.1, box.y + box.h * 0.1);
  await page.waitForSelector('#tooltip:not([hidden])');
  assert.match(await page.textContent('#tooltip'), /value \d/);
  // Play: the steps follow one another, the layout is redrawn for each.
  const stepOf = () => page.$eval('#caption', c => Number(c.dataset.step));
  const window = await pixels('treemap');
  await page.click('#play');
  await page.waitForFunction(() => Number(document.getElementById('caption').dataset.step) >= 2, null, { timeout: 60_000 });
  await page.click('#play'); // pause
  const step = await stepOf();
  assert.ok(step >= 2, `step ${step}`);
  assert.match(page.url(), /step=\d+/);
  assert.match(await page.textContent('#step-label'), new RegExp(`step ${step + 1} of \\d+`));
  assert.notEqual((await pixels('treemap')).hash, window.hash, 'a time step draws another treemap');
  await shot('9-treemap-step');
  // Back to the whole window, then a click on a cell filters the overview to it.
  await page.$eval('#step', s => { s.value = '-1'; s.dispatchEvent(new Event('input')); });
  await page.waitForFunction(() => document.getElementById('caption').dataset.step === '-1', null, { timeout: 60_000 });
  const treemapCaption = await caption();
  const target = await page.$eval('#treemap', c => {
    const r = c.getBoundingClientRect();
    return { x: r.x + r.width * 0.5, y: r.y + r.height * 0.5 };
  });
  await page.mouse.click(target.x, target.y);
  const back = await captionChange(treemapCaption, ['view']);
  assert.notEqual(back.view, 'spatial treemap');
  assert.match(page.url(), /include=/);
  assert.doesNotMatch(page.url(), /panel=treemap/);
  assert.ok(back.leaves < 64, `the overview shows the clicked node only: ${back.leaves} leaves`);
  await shot('10-treemap-click-through');
});

test('the topology graph: switch to it, collapse and expand a group, play, double click through', async () => {
  // A fresh page on the whole trace (earlier tests filtered it), then the Graph tab, sized by
  // capacity and filled by use (the metric variable mean). N = 20: at N = 100 the importer's
  // running sums of SimGrid's Add/SubVariable leave bandwidth_used at −1e−7 in some slices, which
  // the model refuses (reported; not this view's to fix).
  await page.goto(`${url}&slices=20&metric=variable-mean`);
  await page.waitForFunction(() => document.getElementById('caption').dataset.parts, null, { timeout: 90_000 });
  const before = await caption();
  await page.click('#panels button[data-panel="topology"]');
  const shown = await captionChange(before, ['view']);
  assert.equal(shown.view, 'spatial topology');
  assert.match(shown.text, /\d+ nodes, \d+ edges/);
  assert.ok((await pixels('topology')).inked > 1000, 'the graph is drawn');
  await shot('11-topology');
  const points = async () => (await page.$eval('#topology', c => c.dataset.points)).split(' ')
    .map(p => p.split(',').map(Number));
  const nodes = () => page.$eval('#caption', c => Number(c.dataset.shown));
  const nodesChange = n => page.waitForFunction(k => document.getElementById('caption').dataset.shown !== String(k), n,
    { timeout: 60_000 });
  const box = await page.$eval('#topology', c => { const r = c.getBoundingClientRect(); return { x: r.x, y: r.y }; });
  const n0 = await nodes();
  // A click on a node that is not a collapsed group collapses its parent: fewer nodes.
  const single = (await points()).find(p => p[2] === 0);
  assert.ok(single, 'some node is not a collapsed group');
  await page.mouse.click(box.x + single[0], box.y + single[1]);
  await nodesChange(n0);
  const n1 = await nodes();
  assert.ok(n1 < n0, `collapse: ${n0} → ${n1} nodes`);
  assert.match(page.url(), /toggles=-/);
  // A click on the collapsed group expands it again.
  const group = (await points()).find(p => p[2] === 1);
  await page.mouse.click(box.x + group[0], box.y + group[1]);
  await nodesChange(n1);
  assert.ok(await nodes() > n1, 'expand: more nodes again');
  await shot('12-topology-expanded');
  // The time control plays here too.
  await page.click('#play');
  await page.waitForFunction(() => Number(document.getElementById('caption').dataset.step) >= 1, null, { timeout: 60_000 });
  await page.click('#play');
  assert.equal((await caption()).view, 'spatial topology');
  // A double click filters the overview to the node.
  const target = (await points())[0];
  const c = await caption();
  await page.mouse.dblclick(box.x + target[0], box.y + target[1]);
  const back = await captionChange(c, ['view']);
  assert.notEqual(back.view, 'spatial topology');
  assert.match(page.url(), /include=/);
});

test('dragging on the curves slides p: the picture follows before the button is released', async () => {
  const before = await caption();
  const box = await page.$eval('#curves', c => { const r = c.getBoundingClientRect(); return { x: r.x, y: r.y, w: r.width, h: r.height }; });
  await page.mouse.move(box.x + 50, box.y + box.h / 2);
  await page.mouse.down();
  await page.mouse.move(box.x + box.w - 30, box.y + box.h / 2, { steps: 8 });
  const during = await captionChange(before, ['p']);
  assert.ok(during.p !== before.p, `p moved while dragging: ${before.p} → ${during.p}`);
  await page.mouse.up();
});

test('a p far away on a model drawn asks the view answer; the curves stay, p and the part count are the full answer\'s', async () => {
  await page.goto(`${url}&aggregation=spatiotemporal&slices=30`);
  await page.waitForFunction(() => document.getElementById('caption').dataset.provisional === undefined
    && /spatiotemporal/.test(document.getElementById('caption').dataset.view || '')
    && /breakpoint \d+ of \d+/.test(document.getElementById('part-count').textContent), null, { timeout: 120_000 });
  const asked = [];
  const listen = r => { if (r.url().includes('/api/overview?')) asked.push(new URL(r.url()).searchParams); };
  page.on('request', listen);
  try {
    const box = await page.$eval('#curves', c => { const r = c.getBoundingClientRect(); return { x: r.x, y: r.y, w: r.width, h: r.height }; });
    let shown = await caption();
    for (const at of [0.6, 0.15, 0.35]) { // far from each other: no step of p
      await page.mouse.click(box.x + box.w * at, box.y + box.h / 2);
      shown = await captionChange(shown, ['p']);
      const request = asked[asked.length - 1];
      assert.equal(request.get('answer'), 'view', `the request carries answer=view: ${request}`);
      // The full answer at the same p, as another client asks it.
      const q = new URLSearchParams(request);
      for (const key of ['answer', 'progressive', 'client', 'seq']) q.delete(key);
      const full = await page.evaluate(async query => (await fetch(`/api/overview?${query}`)).json(), q.toString());
      assert.equal(shown.p, full.p);
      assert.equal(shown.parts, full.partCount, `p ${shown.p}: the partition's parts`);
      assert.equal(await page.textContent('#part-count'),
        `${full.partCount} part${full.partCount === 1 ? '' : 's'} · breakpoint ${full.curves.chosen + 1} of ${full.curves.breakpoints.length}`);
      assert.equal(await page.$eval('#curves', c => c.dataset.empty), undefined, 'the curves are shown');
      assert.ok((await pixels('curves')).inked > 500, 'the curves are drawn');
    }
    await shot('2c-far-p-view-answer');
    // ← steps from the curves the page kept: the breakpoint below.
    await page.focus('#curves');
    const before = await caption();
    await page.keyboard.press('ArrowLeft');
    const stepped = await captionChange(before, ['p']);
    assert.ok(stepped.p < before.p && stepped.parts > before.parts, `← from p ${before.p} gave ${stepped.p}`);
    assert.equal(asked[asked.length - 1].get('answer'), 'view');
  } finally {
    page.off('request', listen);
  }
});

test('the metric menu offers only the metrics the trace has records for; producer types are named', async () => {
  const offered = await page.$$eval('#metric option', os => os.filter(o => !o.disabled).map(o => o.value));
  assert.deepEqual(offered, ['state-duration', 'state-average', 'variable-mean', 'utilization', 'link-count'],
    'no punctual events in this trace; capacities and their use (utilization)');
  const levels = await page.textContent('#levels');
  assert.match(levels, /HOST \(\d+\)/);
  assert.match(levels, /ROUTER \(\d+\)/);
});

test('leaving out a whole producer type keeps the URL short', async () => {
  await page.selectOption('#metric', 'variable-mean');
  await page.click('#apply');
  await page.waitForFunction(() => /variable mean/.test(document.getElementById('caption').textContent), null, { timeout: 60_000 });
  await page.click('#levels button[data-kind="MPI"][data-action="none"]');
  await page.waitForFunction(() => location.search.includes('xkinds=MPI'), null, { timeout: 10_000 });
  await page.waitForFunction(() => document.getElementById('busy').hidden, null, { timeout: 60_000 });
  assert.ok(!(await page.$eval('#message', m => m.classList.contains('error'))), await page.textContent('#message'));
  assert.match(await page.textContent('#caption'), /without producers of type MPI/);
  assert.ok(!page.url().includes('rank-'), 'no rank path in the URL');
  assert.ok(page.url().length < 600, `URL of ${page.url().length} characters`);
  await page.click('#reset');
  await page.selectOption('#metric', 'state-duration');
  await page.click('#apply');
  await page.waitForFunction(() => /state total duration/.test(document.getElementById('caption').textContent), null, { timeout: 60_000 });
});

test('an invalid window is refused before it reaches the URL or the history', async () => {
  const urlBefore = page.url();
  const lengthBefore = await page.evaluate(() => history.length);
  for (const [start, end, why] of [['5', '3', /start < end/], ['abc', '3', /start: expected a number/]]) {
    await page.fill('#start', start);
    await page.fill('#end', end);
    await page.click('#apply');
    await page.waitForFunction(() => document.getElementById('message').classList.contains('error'));
    assert.match(await page.textContent('#message'), why);
    assert.equal(page.url(), urlBefore);
    assert.equal(await page.evaluate(() => history.length), lengthBefore);
  }
  await page.goto(page.url());
  await page.waitForFunction(() => document.getElementById('caption').dataset.parts, null, { timeout: 60_000 });
});

test('a burst of changes makes one history entry, not one each', async () => {
  const lengthBefore = await page.evaluate(() => history.length);
  for (const n of ['21', '22', '23', '24', '25']) {
    await page.fill('#slices', n);
    await page.click('#apply');
  }
  await page.waitForFunction(() => document.getElementById('caption').dataset.slices === '25', null, { timeout: 60_000 });
  assert.equal(await page.evaluate(() => history.length), lengthBefore + 1);
  assert.match(page.url(), /slices=25/);
});

test('a bookmarked page whose token is stale says what to do', async () => {
  const stale = await browser.newPage();
  const base = url.slice(0, url.indexOf('?'));
  const response = await stale.goto(`${base}?token=${'A'.repeat(43)}`);
  assert.equal(response.status(), 401);
  assert.match(await stale.textContent('body'), /This link has expired[\s\S]*--token-file/);
  await stale.close();
});

test('variable mean on the bundled trace: one variable at a time, in its own colour', async () => {
  const before = await caption();
  await page.selectOption('#metric', 'variable-mean');
  await page.selectOption('#aggregation', 'spatiotemporal');
  // N = 100 (an earlier test may leave another): the stretch the caption names is one slice of it.
  await page.fill('#slices', '100');
  await page.click('#apply');
  const shown = await captionChange(before, ['view', 'parts', 'leaves']);
  assert.match(shown.text, /variable mean/);
  assert.match(shown.text, /N = 100/);
  const radios = await page.$$eval('#types input', is => is.map(i => ({ type: i.type, name: i.dataset.type, checked: i.checked })));
  assert.ok(radios.length > 1 && radios.every(r => r.type === 'radio'), JSON.stringify(radios));
  // Decision 050: the variable that varies most (the slowed uplink's bandwidth), not the busiest.
  assert.deepEqual(radios.filter(r => r.checked).map(r => r.name), ['bandwidth'], 'the variable that varies most by default');
  assert.match(shown.text, /types: bandwidth \(varies most: 0\.97, nancy-uplink at 8\.00–8\.14 s\)/);
  await page.check('#types input[data-type="speed_used"]');
  await page.waitForFunction(() => /speed_used/.test(document.getElementById('legend').textContent), null, { timeout: 60_000 });
  const legend = await page.$$eval('#legend .swatch', ss => ss.map(s => getComputedStyle(s).backgroundColor));
  assert.equal(legend.length, 1);
  assert.notEqual(legend[0], 'rgb(128, 128, 128)', 'not the grey of visual aggregates');
  await shot('8-variable-mean');
  await page.goto(url);
  await page.waitForFunction(() => document.getElementById('caption').dataset.parts, null, { timeout: 60_000 });
});

/** CPU seconds the server process has used (user + system), from /proc. */
function serverCpuSeconds() {
  const fields = readFileSync(`/proc/${server.pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100; // utime, stime in clock ticks (100 Hz)
}

test('Cancel stops a long computation on the server, with progress shown until then', async () => {
  await page.goto(url);
  await page.waitForFunction(() => document.getElementById('caption').dataset.parts, null, { timeout: 60_000 });
  await page.selectOption('#aggregation', 'spatiotemporal');
  await page.fill('#slices', '100');
  await page.click('#apply');
  await page.waitForFunction(() => /computing qualities/.test(document.getElementById('busy-text').textContent),
    null, { timeout: 60_000 });
  await page.waitForTimeout(800);
  const during = await page.textContent('#busy-text');
  assert.match(during, /(\d+%|optima evaluated)/, `progress is shown: ${during}`);
  await shot('9-progress');
  await page.click('#cancel');
  await page.waitForFunction(() => document.getElementById('message').textContent.startsWith('cancelled'));
  assert.ok(await page.$eval('#busy', b => b.hidden));
  await page.waitForTimeout(1000);
  const before = serverCpuSeconds();
  await page.waitForTimeout(2000);
  const used = serverCpuSeconds() - before;
  assert.ok(used < 1, `the server used ${used} CPU s in the 2 s after Cancel (a search still running uses ~4)`);
  await page.goto(url);
  await page.waitForFunction(() => document.getElementById('caption').dataset.parts, null, { timeout: 60_000 });
});

test('a long spatiotemporal search shows the partition at p first, then the curves', async () => {
  await page.goto(url);
  await page.waitForFunction(() => document.getElementById('caption').dataset.parts, null, { timeout: 60_000 });
  await page.selectOption('#aggregation', 'spatiotemporal');
  await page.fill('#slices', '70'); // a search of seconds: time to see the first picture
  await page.click('#apply');
  await page.waitForFunction(() => document.getElementById('caption').dataset.provisional === '1', null, { timeout: 60_000 });
  assert.match(await page.textContent('#caption'), /p = [0-9.e-]+ \(default\).*exact partition; breakpoints and curves being searched/);
  assert.match(await page.textContent('#part-count'), /breakpoints being searched/);
  assert.ok(await page.$eval('#curves', c => c.dataset.empty), 'the curves say they are coming');
  await page.waitForFunction(() => document.getElementById('caption').dataset.provisional === undefined
    && /spatiotemporal/.test(document.getElementById('caption').dataset.view || ''), null, { timeout: 120_000 });
  assert.match(await page.textContent('#part-count'), /breakpoint \d+ of \d+/);
  assert.equal(await page.$eval('#curves', c => c.dataset.empty), undefined);
  await page.waitForFunction(() => document.getElementById('caption').dataset.hidden !== undefined, null, { timeout: 60_000 });
  assert.ok(await page.$$eval('#outliers-list li[data-rank]', rows => rows.length) > 0, 'what the partition hides is listed');
});

test('a spatiotemporal zoom shows the window at the analyst\'s p first, marked, then moves to its own default p', async () => {
  await page.goto(url);
  await page.waitForFunction(() => document.getElementById('caption').dataset.parts, null, { timeout: 60_000 });
  await page.selectOption('#aggregation', 'spatiotemporal');
  await page.fill('#slices', '70'); // searches of seconds: each of the zoom's answers is seen
  await page.click('#apply');
  await page.waitForFunction(() => document.getElementById('caption').dataset.provisional === undefined
    && /spatiotemporal/.test(document.getElementById('caption').dataset.view || ''), null, { timeout: 120_000 });
  const before = await caption();
  const yours = await page.textContent('#p-value');
  // Every caption the zoom shows, in order: the answers may follow each other within a frame.
  await page.evaluate(() => {
    window.zoomCaptions = [];
    const c = document.getElementById('caption');
    new MutationObserver(() => window.zoomCaptions.push({ provisional: c.dataset.provisional, text: c.textContent,
      p: document.getElementById('p-value').textContent, parts: document.getElementById('part-count').textContent,
      hidden: document.getElementById('outliers-list').textContent }))
      .observe(c, { childList: true, characterData: true, subtree: true, attributes: true });
  });
  const box = await plotBox();
  const plot = await plotRect();
  // A time range over every row: the zoom keeps every producer.
  await page.mouse.move(box.x + plot.x + plot.w * 0.3, box.y + plot.y + 1);
  await page.mouse.down();
  await page.mouse.move(box.x + plot.x + plot.w * 0.7, box.y + plot.y + plot.h - 1, { steps: 4 });
  await page.mouse.up();
  await page.click('#zoom');
  const zoomed = await captionChange(before, ['start', 'end']);
  await page.waitForFunction(() => document.getElementById('caption').dataset.provisional === undefined, null, { timeout: 120_000 });
  const shown = await page.evaluate(() => window.zoomCaptions);
  const atYours = shown.find(s => s.provisional === 'yours');
  assert.ok(atYours, `the window at your p first: ${JSON.stringify(shown.map(s => s.provisional))}`);
  assert.equal(atYours.p, yours, 'the p of the picture zoomed from');
  assert.match(atYours.text, /p = [0-9.e-]+ \(your p before the zoom\).*exact partition at your p; the window's own default p being computed, the view moves to it/);
  assert.match(atYours.parts, /at your p; the window's default p being computed/);
  assert.equal(atYours.hidden, 'ranked once the window\'s default p is known', 'no list of the window zoomed from');
  const order = shown.map(s => s.provisional ?? 'full').filter((s, i, all) => i === 0 || s !== all[i - 1]);
  assert.deepEqual(order.slice(order.indexOf('yours')), ['yours', '1', 'full'],
    'then the window\'s exact default p, then its breakpoints and curves');
  const final = await caption();
  assert.deepEqual([final.start, final.end], [zoomed.start, zoomed.end]);
  assert.match(await page.textContent('#part-count'), /breakpoint \d+ of \d+/);
  assert.doesNotMatch(page.url(), /[?&]p=/, 'the zoom\'s URL asks the window\'s default p');
  await shot('zoom-at-your-p-then-default');
});

test('Open in Gantt: the slow host in [3, 5) s shows its long computing states, first in the table', async () => {
  await page.goto(url);
  await page.waitForFunction(() => document.getElementById('caption').dataset.parts, null, { timeout: 60_000 });
  await page.selectOption('#aggregation', 'spatiotemporal');
  await page.fill('#slices', '20');
  await page.click('#apply');
  await page.waitForFunction(() => /spatiotemporal/.test(document.getElementById('caption').dataset.view || ''), null, { timeout: 60_000 });
  const box = await plotBox();
  const plot = await plotRect();
  const end = (await caption()).end;
  const X = t => box.x + plot.x + plot.w * t / end;
  const Y = leaf => box.y + plot.y + plot.h * leaf / 64; // lyon-c1-2 holds ranks 34 and 35 of 64
  await page.mouse.move(X(3.05), Y(34.2));
  await page.mouse.down();
  await page.mouse.move(X(4), Y(35), { steps: 3 });
  await page.mouse.move(X(4.95), Y(35.8), { steps: 3 });
  await page.mouse.up();
  assert.match(await page.textContent('#selection'), /lyon-c1-2/);
  await page.click('#open-gantt');
  await page.waitForFunction(() => document.querySelector('#gantt-box svg') && document.querySelector('#events-table tbody tr'),
    null, { timeout: 60_000 });
  assert.match(page.url(), /gantt=1/);
  const titles = await page.$$eval('#gantt-box svg title', ts => ts.map(t => t.textContent));
  assert.ok(titles.some(t => /rank-3[45] · computing/.test(t)), `the chart shows their computing states: ${titles.slice(0, 3)}`);
  const first = await page.$$eval('#events-table tbody tr', rows => rows.slice(0, 4).map(r => [...r.cells].map(c => c.textContent)));
  for (const row of first) {
    assert.match(row[1], /lyon-c1-2\/rank-3[45]/);
    assert.equal(row[2], 'computing');
  }
  await page.click('#gantt-box svg rect:has(title)');
  assert.match(await page.textContent('#gantt-pinned'), /^pinned: .*·/);
  await shot('10-gantt');
  // The duration filter keeps the records at least that long; the longest stay first.
  const longest = Number(first[0][5]);
  await page.fill('#events-min', String(longest / 2));
  await page.dispatchEvent('#events-min', 'change');
  await page.waitForFunction(min => [...document.querySelectorAll('#events-table tbody tr')]
    .every(r => Number(r.cells[5].textContent) >= min), longest / 2, { timeout: 60_000 });
  const kept = await page.$$eval('#events-table tbody tr', rows => rows.map(r => Number(r.cells[5].textContent)));
  assert.ok(kept.length >= 1 && kept.length < 100 && kept[0] === longest, `the long states only: ${kept}`);
  // Variables on demand: their step lines join the chart.
  await page.check('#gantt-variables');
  await page.waitForFunction(() => [...document.querySelectorAll('#gantt-box svg title')].some(t => /speed_used/.test(t.textContent)),
    null, { timeout: 30_000 });
  // A row centres the chart on its record (a new history entry); back returns to the window opened.
  const opened = new URLSearchParams(new URL(page.url()).search).get('gfrom');
  await page.waitForTimeout(1_200); // past the history's burst window: the centring is an entry of its own
  await page.click('#events-table tbody tr');
  await page.waitForFunction(before => new URLSearchParams(location.search).get('gfrom') !== before, opened, { timeout: 10_000 });
  await page.goBack();
  await page.waitForFunction(before => new URLSearchParams(location.search).get('gfrom') === before, opened, { timeout: 10_000 });
  await page.goto(url);
  await page.waitForFunction(() => document.getElementById('caption').dataset.parts, null, { timeout: 60_000 });
});

test('Statistics: the nancy ranks in [8, 9) s wait in PMPI_Waitall most of the time', async () => {
  await page.goto(url);
  await page.waitForFunction(() => document.getElementById('caption').dataset.parts, null, { timeout: 60_000 });
  await page.selectOption('#aggregation', 'spatiotemporal');
  await page.fill('#slices', '20');
  await page.fill('#start', '8');
  await page.fill('#end', '9');
  await page.click('#apply');
  await page.waitForFunction(() => /spatiotemporal/.test(document.getElementById('caption').dataset.view || '')
    && document.getElementById('caption').dataset.start === '8', null, { timeout: 60_000 });
  const box = await plotBox();
  const plot = await plotRect();
  const Y = leaf => box.y + plot.y + plot.h * leaf / 64; // nancy holds ranks 16 to 31 of 64
  // From the plot's left edge to past its right one: the whole window, [8, 9) exactly.
  await page.mouse.move(box.x + plot.x, Y(16.3));
  await page.mouse.down();
  await page.mouse.move(box.x + plot.x + plot.w / 2, Y(24), { steps: 3 });
  await page.mouse.move(box.x + plot.x + plot.w + 20, Y(31.7), { steps: 3 });
  await page.mouse.up();
  assert.match(await page.textContent('#selection'), / on nancy\./);
  await page.click('#open-stats');
  await page.waitForFunction(() => document.querySelector('#stats-dominant'), null, { timeout: 60_000 });
  const q = new URL(page.url()).searchParams;
  assert.deepEqual([q.get('stats'), q.get('sfrom'), q.get('sto'), q.get('sproducers')], ['1', '8', '9', 'nancy']);
  assert.match(await page.textContent('#stats-dominant'), /^Dominant state type: PMPI_Waitall, 47\.9% of the exclusive state time/);
  // The same figure as `ocelotl stats … --from 8 --to 9 --producers nancy`: 0.47895… of the state time.
  const first = await page.$$eval('#stats-types tbody tr', rows => [...rows[0].cells].map(c => c.textContent.trim()));
  assert.equal(first[0], 'PMPI_Waitall');
  assert.equal(first[3], '47.9%');
  const producers = await page.$$eval('#stats-groups tbody tr', rows => rows.map(r => r.cells[0].textContent));
  assert.equal(producers.length, 11, 'the ten largest and the others');
  assert.ok(producers.slice(0, 10).every(p => /^nancy\/nancy-c[12]\/nancy-c[12]-\d\/rank-\d+$/.test(p)), producers.join());
  assert.match(producers[10], /^\(others\) \(6 producers\)$/);
  // Hovering a producer's row outlines its row in the overview: its own, or the one that holds it
  // where the overview, sharing the height with the statistics, is cut at a coarser depth.
  await page.hover('#stats-groups tbody tr:first-child');
  const highlighted = (await page.$eval('#overview', c => c.dataset.highlight || '')).split(' ')[0];
  assert.ok(highlighted !== '' && `${producers[0]}/`.startsWith(`${highlighted}/`), `${highlighted} holds ${producers[0]}`);
  await shot('11-stats');
  // Another type's producers: a click on its row.
  await page.click('#stats-types tbody tr:nth-child(2)');
  assert.match(await page.textContent('#stats-producers h3'), /^PMPI_Allreduce per producer/);
  await page.click('#stats-close');
  await page.waitForFunction(() => !new URLSearchParams(location.search).has('stats'), null, { timeout: 10_000 });
  assert.equal(await page.$eval('#stats', s => s.hidden), true);
});

test('a wide Chrome trace shows its structure, on a time axis from 0 in a readable unit', async () => {
  const chrome = join(traces, 'chrome/node_trace.json');
  assert.ok(existsSync(chrome), `missing shared trace ${chrome}; set OCELOTL_TRACES`);
  const before = await caption();
  await page.fill('#import-path', chrome);
  await page.click('#import-form button');
  const shown = await captionChange(before, ['leaves']);
  assert.match(shown.text, /^node_trace\.json/);
  await page.selectOption('#aggregation', 'spatiotemporal');
  await page.click('#apply');
  const wide = await captionChange(shown, ['view']);
  assert.ok(wide.leaves > 10 && wide.leaves < 200, `${wide.leaves} rows: structure, not one block of 1,908`);
  assert.match(wide.text, /producers cut at depth \d+ \(auto/);
  const axis = await page.$eval('#overview', c => ({ labels: c.dataset.tickLabels.split(' '), unit: c.dataset.timeUnit }));
  assert.equal(axis.labels[0], '0', `the axis starts at 0: ${axis.labels}`);
  assert.ok(['s', 'ms'].includes(axis.unit), `a readable unit, not µs since boot: ${axis.unit}`);
  assert.match(wide.text, /since the start/);
  await page.goto(url);
  await page.waitForFunction(() => document.getElementById('caption').dataset.parts, null, { timeout: 60_000 });
});

test('a file given by its path on the server is imported, listed and shown', async () => {
  const tiny = resolve(root, 'ocelotl-app/src/test/resources/org/ocelotl/server/tiny.trace');
  const before = await caption();
  await page.fill('#import-path', tiny);
  await page.click('#import-form button');
  const shown = await captionChange(before, ['leaves']);
  assert.match(shown.text, /^tiny\.trace/);
  assert.equal(shown.leaves, 4);
  const options = await page.$$eval('#trace option', os => os.map(o => o.textContent));
  assert.ok(options.includes('tiny.trace') && options.some(o => o.startsWith('smpi_perturbed')), options.join(', '));
  await page.fill('#import-path', '/etc');
  await page.click('#import-form button');
  await page.waitForFunction(() => document.getElementById('message').classList.contains('error'));
  assert.match(await page.textContent('#message'), /not a regular file/);
  await shot('7-imported');
});

/** Label extents "x y0 y1" written by the overview: no two in one column may overlap. */
async function producerLabels() {
  return page.$eval('#overview', c => c.dataset.producerLabels.split('|').filter(Boolean).map(l => l.split(' ').map(Number)));
}

function assertApart(labels, what) {
  for (let i = 0; i < labels.length; i++) {
    for (let j = i + 1; j < labels.length; j++) {
      const [x, a0, a1] = labels[i], [x2, b0, b1] = labels[j];
      if (x === x2) assert.ok(a1 <= b0 || b1 <= a0, `${what}: labels [${a0}, ${a1}] and [${b0}, ${b1}] overlap at x = ${x}`);
    }
  }
}

test('768 ranks: the rows cut to fit, names that never overlap, tooltips, a Gantt chart of every rank', async () => {
  // The seed-scale trace's shape (4 sites › 8 cabinets › 12 hosts › 2 ranks), 30 iterations.
  const dir = mkdtempSync(join(tmpdir(), 'ocelotl-seed-'));
  const seed = join(dir, 'seed-768.trace');
  execFileSync('java', ['-cp', join(root, 'ocelotl-trace/target/test-classes'), 'org.ocelotl.testing.SeedTrace', seed,
    String(30 * 3 * 768)]);
  try {
    await page.goto(url);
    await page.waitForFunction(() => document.getElementById('caption').dataset.parts, null, { timeout: 90_000 });
    const before = await caption();
    await page.fill('#import-path', seed);
    await page.click('#import-form button');
    const shown = await captionChange(before, ['leaves']);
    assert.match(shown.text, /^seed-768\.trace/);
    await page.selectOption('#aggregation', 'spatiotemporal');
    await page.fill('#slices', '20');
    await page.click('#apply');
    const cut = await captionChange(shown, ['view']);
    const plot = await plotRect();
    assert.ok(cut.leaves >= 32 && cut.leaves <= plot.h / 4, `${cut.leaves} rows in ${plot.h} px: the deepest level that fits at 4 px a row`);
    assert.match(cut.text, /producers cut at depth \d+ \(auto/);
    const named = await producerLabels();
    assert.ok(named.length >= 4 + 32, `sites and cabinets named: ${named.length} labels`);
    assertApart(named, 'depth auto');
    await shot('8-768-ranks');

    // Every level: 768 rows of under a pixel each, drawn as visual aggregates; still no overlap.
    await page.selectOption('#depth', '0');
    await page.click('#apply');
    const every = await captionChange(cut, ['leaves']);
    assert.equal(every.leaves, 768);
    assertApart(await producerLabels(), 'every level');

    // A tooltip names the aggregate's producers and its size.
    const box = await plotBox();
    await page.mouse.move(box.x + plot.x + plot.w * 0.45, box.y + plot.y + plot.h * 0.5);
    await page.waitForSelector('#tooltip:not([hidden])');
    const tip = await page.textContent('#tooltip');
    assert.match(tip, /(site|cab|host|rank)-\d|all producers/);
    assert.match(tip, /\d+ producers? × \d+ slices?/);

    // The Gantt chart of 1 s × every rank: rows aggregated to fit, names apart, marked SUMMARISED.
    const state = new URL(page.url()).searchParams;
    state.set('gantt', '1'); state.set('gfrom', '4'); state.set('gto', '5');
    await page.goto(`${new URL(page.url()).origin}/?${state}`);
    await page.waitForSelector('#gantt-box svg', { timeout: 60_000 });
    const gantt = await page.$eval('#gantt-box svg', svg => ({
      names: [...svg.querySelectorAll('text[text-anchor="end"]')].map(t => Number(t.getAttribute('y'))),
      caption: svg.textContent }));
    assert.ok(gantt.names.length >= 4, `${gantt.names.length} row names`);
    gantt.names.sort((a, b) => a - b);
    for (let i = 1; i < gantt.names.length; i++) {
      assert.ok(gantt.names[i] - gantt.names[i - 1] >= 9, `Gantt row names ${gantt.names[i - 1]} and ${gantt.names[i]} overlap`);
    }
    assert.match(gantt.caption, /SUMMARISED/);
    await shot('8-768-ranks-gantt');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a selection is saved by name, survives a reload, applies its window and producers, is renamed and deleted', async () => {
  await page.goto(`${url}&aggregation=spatiotemporal&slices=20&start=8&end=9&include=nancy`);
  await page.waitForFunction(() => document.getElementById('caption').dataset.parts, null, { timeout: 90_000 });
  const shown = await caption();
  assert.equal(shown.start, 8);
  const answers = ['nancy-8-9', 'the slow uplink'];
  const onDialog = dialog => dialog.accept(answers.shift());
  page.on('dialog', onDialog);
  await page.click('#save-selection');
  await page.waitForFunction(() => document.getElementById('message').textContent === 'saved selection nancy-8-9');
  page.off('dialog', onDialog);

  await page.goto(`${url}&aggregation=spatiotemporal&slices=20`);
  await page.waitForFunction(() => document.getElementById('caption').dataset.parts, null, { timeout: 90_000 });
  const whole = await caption();
  assert.equal(whole.start, 0);
  await page.reload();
  await page.waitForFunction(() => document.querySelector('#selections option[value="nancy-8-9"]'), null, { timeout: 60_000 });
  await page.waitForFunction(() => document.getElementById('caption').dataset.parts, null, { timeout: 90_000 });
  const before = await caption();
  await page.selectOption('#selections', 'nancy-8-9');
  const applied = await captionChange(before, ['start', 'end', 'leaves']);
  assert.equal(applied.start, 8);
  assert.equal(applied.end, 9);
  assert.equal(applied.leaves, shown.leaves);
  assert.equal(applied.parts, shown.parts);
  assert.ok(decodeURIComponent(page.url()).includes('include=nancy'), page.url());
  assert.match(await page.textContent('#message'), /selection nancy-8-9: the slow uplink/);
  await shot('selection-applied');

  // The selection applied last can be renamed, then deleted.
  assert.equal(await page.isDisabled('#rename-selection'), false);
  const renameTo = ['nancy-uplink'];
  const onRename = dialog => dialog.accept(renameTo.shift());
  page.on('dialog', onRename);
  await page.click('#rename-selection');
  await page.waitForFunction(() => document.getElementById('message').textContent
    === 'renamed selection nancy-8-9 to nancy-uplink');
  page.off('dialog', onRename);
  await page.waitForFunction(() => document.querySelector('#selections option[value="nancy-uplink"]')
    && !document.querySelector('#selections option[value="nancy-8-9"]'));
  const onDelete = dialog => dialog.accept();
  page.on('dialog', onDelete);
  await page.click('#delete-selection');
  await page.waitForFunction(() => document.getElementById('message').textContent === 'deleted selection nancy-uplink');
  page.off('dialog', onDelete);
  await page.waitForFunction(() => !document.querySelector('#selections option[value="nancy-uplink"]'));
  assert.equal(await page.isDisabled('#delete-selection'), true);
});

test('a model file (ocelotl view --model): overviews, p and zoom on the slice axis, no view that needs the trace', async () => {
  const model = join(workspace, 'smpi.ocm');
  execFileSync('java', ['-jar', jar, 'model', trace, '--workspace', workspace, '--slices', '40', '--out', model]);
  const [modelServer, modelUrl] = await startView(['--model', model]);
  const tracePage = page;
  page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  page.on('pageerror', e => { throw e; });
  try {
    assert.match(modelUrl, /^http:\/\/127\.0\.0\.1:\d+\/\?token=[A-Za-z0-9_-]{43}$/);
    await page.goto(modelUrl);
    await page.waitForFunction(() => document.getElementById('caption').dataset.parts, null, { timeout: 60_000 });
    const first = await caption();
    assert.match(first.text, /^smpi\.ocm · slices 0 – 40 · N = 40 · value · temporal mode · /);
    assert.deepEqual([first.start, first.end, first.leaves], [0, 40, 64]);
    const px = await pixels();
    assert.ok(px.inked > px.total * 0.3, `only ${px.inked} of ${px.total} pixels drawn`);
    assert.equal(await page.$eval('#overview', c => c.dataset.timeUnit), 'slice');
    const token = new URL(modelUrl).searchParams.get('token');
    const api = async query => (await fetch(new URL(`/api/overview?${query}&token=${token}`, modelUrl))).json();

    // A click on a block selects its slices; Zoom in shows the overview of those slices alone, on
    // the model's slice numbers, as the server answers it for that window; Back shows the whole model.
    const shown = await api(`aggregation=temporal&p=${first.p}`);
    const block = shown.overview.blocks.filter(b => b.last - b.first < shown.slices - 1)
      .reduce((a, b) => (b.last - b.first > a.last - a.first ? b : a));
    const [from, to] = [block.tooltip.start, block.tooltip.end];
    assert.ok(to - from >= 2, `a block of ${to - from} slices`);
    const box0 = await plotBox();
    const plot0 = await plotRect();
    await page.mouse.click(box0.x + plot0.x + plot0.w * (block.x0 + block.x1) / 2, box0.y + plot0.y + plot0.h / 2);
    assert.equal(await page.textContent('#selection'),
      `Selected slices ${from} – ${to} (every producer). Press Enter or “Zoom in”.`);
    assert.equal(await page.isDisabled('#open-gantt'), true, 'no Gantt chart on a model file');
    await page.click('#zoom');
    const zoomed = await captionChange(first, ['start', 'end']);
    assert.deepEqual([zoomed.start, zoomed.end, zoomed.leaves], [from, to, 64]);
    assert.match(zoomed.text, new RegExp(`^smpi\\.ocm · slices ${from} – ${to} · N = ${to - from} · value · temporal mode · `));
    assert.match(page.url(), new RegExp(`[?&]start=${from}&end=${to}(&|$)`));
    const ticks = await page.$eval('#overview', c => c.dataset.ticks.split(' ').map(Number));
    assert.ok(ticks.length >= 2 && ticks[0] >= from && ticks[ticks.length - 1] <= to, `slice axis ticks ${ticks} in [${from}, ${to}]`);
    const served = await api(`aggregation=temporal&start=${from}&end=${to}`);
    assert.deepEqual([served.partCount, served.p, served.slices], [zoomed.parts, zoomed.p, to - from]);
    await shot('model-session-zoomed');
    await page.click('#back');
    const whole = await captionChange(zoomed, ['start', 'end']);
    assert.deepEqual([whole.start, whole.end, whole.parts, whole.p], [0, 40, first.parts, first.p]);
    assert.doesNotMatch(page.url(), /[?&](start|end)=/);

    // Far right of the curves: a p close to 1, fewer parts; the server's answer for that p agrees.
    const box = await page.$eval('#curves', c => { const r = c.getBoundingClientRect(); return { x: r.x, y: r.y, w: r.width, h: r.height }; });
    await page.mouse.click(box.x + box.w - 20, box.y + box.h / 2);
    const moved = await captionChange(first, ['p']);
    assert.ok(moved.p > first.p && moved.parts < first.parts, `p ${first.p} → ${moved.p}, parts ${first.parts} → ${moved.parts}`);
    assert.match(page.url(), /[?&]p=/);
    assert.doesNotMatch(page.url(), /[?&](trace|metric|slices|start|end)=/, 'only what a model session can change');
    assert.equal((await api(`aggregation=temporal&p=${moved.p}`)).partCount, moved.parts);

    // What needs the trace's records is not offered, and the page says why in one line.
    for (const id of ['open-gantt', 'open-stats']) assert.equal(await page.isDisabled(`#${id}`), true, id);
    assert.equal(await page.isDisabled('#panels [data-panel="topology"]'), true, 'the graph');
    for (const hidden of ['#import-form', '#trace', '#metric', '#slices', '#producers', '#types', '#selections']) {
      assert.equal(await page.isVisible(hidden), false, hidden);
    }
    assert.equal(await page.textContent('#selection'), 'Drag on the overview or click a block to zoom on its slices. '
      + 'smpi.ocm is a model file: Gantt chart, event table, statistics, graph, filters and selections need the '
      + 'trace\'s records, which it does not hold.');
    const gantt = await fetch(new URL(`/api/gantt?token=${token}`, modelUrl));
    assert.equal(gantt.status, 404);

    // The spatiotemporal overview and the treemap come from the model alone.
    await page.selectOption('#aggregation', 'spatiotemporal');
    await page.click('#apply');
    const spatiotemporal = await captionChange(moved, ['view']);
    assert.equal(spatiotemporal.view, 'spatiotemporal mode');
    assert.ok(spatiotemporal.parts > 1, `${spatiotemporal.parts} parts`);
    await shot('model-session');
    await page.click('#panels [data-panel="treemap"]');
    const treemap = await captionChange(spatiotemporal, ['view']);
    assert.equal(treemap.view, 'spatial treemap');
    assert.ok((await pixels('treemap')).inked > 1000, 'the treemap is drawn');
  } finally {
    await page.close();
    page = tracePage;
    modelServer.kill();
  }
});

/** The page's next answer from /api/outliers whose query passes `wanted`, as JSON. */
function nextOutliers(wanted) {
  return page.waitForResponse(r => new URL(r.url()).pathname === '/api/outliers' && r.status() === 200
    && wanted(new URL(r.url()).searchParams), { timeout: 120_000 }).then(r => r.json());
}

/** The list beside the overview: per row its text. */
async function outlierRows() {
  return page.$$eval('#outliers-list li[data-rank]', rows => rows.map(r => r.textContent));
}

/** The marks on the overview: rank → the centre of its badge in page pixels, and whether it is drawn in the marks' ink. */
async function outlierMarks() {
  const box = await plotBox();
  return page.$eval('#overview', (c, [bx, by]) => {
    const g = c.getContext('2d');
    const ratio = c.width / c.clientWidth;
    return (c.dataset.outlierMarks || '').split('|').filter(Boolean).map(m => {
      const [rank, x0, y0, x1, y1] = m.split(' ').map(Number);
      // The badge's top left corner, inside it: the marks' ink, #111111.
      const [r, gr, b] = g.getImageData(Math.round((x0 + 1) * ratio), Math.round((y0 + 1) * ratio), 1, 1).data;
      return { rank, x: bx + (x0 + x1) / 2, y: by + (y0 + y1) / 2, inked: r === 0x11 && gr === 0x11 && b === 0x11 };
    });
  }, [box.x, box.y]);
}

test('what the aggregates hide: listed beside a spatiotemporal overview, marked, counted, a click opens the Gantt chart or zooms', async () => {
  // N = 50 and p = 0.1: two parts, each over every producer, so lyon-c1-2's slowdown over [3, 5) s
  // is merged (OutliersCommandTest: the same request on the command line).
  const answer = nextOutliers(q => q.get('aggregation') === 'spatiotemporal' && q.get('slices') === '50' && !q.has('start'));
  await page.goto(`${url}&aggregation=spatiotemporal&slices=50&p=0.1`);
  const json = await answer;
  // The list comes with the first answer already (its partition is the full answer's); the
  // caption's figures with the full one.
  await page.waitForFunction(() => { const d = document.getElementById('caption').dataset;
    return d.hidden !== undefined && d.provisional === undefined && d.parts !== undefined; }, null, { timeout: 120_000 });
  const c = await caption();
  assert.equal(c.parts, 2);
  assert.deepEqual([json.p, json.partCount, json.count, json.hidden], [0.1, 2, 724, 25]);
  // The caption counts what the API calls hidden: the cells worth telling apart at p.
  assert.equal(await page.$eval('#caption', e => e.dataset.hidden), String(json.hidden));
  assert.match(c.text, / · 25 hidden deviations \(worth telling apart at this p; listed beside the picture\); first nancy, found by nancy-uplink's use$/);
  const rows = await outlierRows();
  assert.equal(rows.length, 21);
  assert.match(await page.textContent('#outliers-list > p'),
    /^25 of 724 deviating cells worth telling apart at this p; nancy by nancy-uplink's use, then the first 10 who, then 10 when, each highest score first/);
  // Decision 061: first the nancy ranks over [8.14, 8.68) s, found by the uplink's use (the states'
  // largest departure is every producer waiting); second the first producer cell (who) of the
  // states: the slowed host over [2.98, 5.15) s (slices 11 to 18 of 50), computing 93.5 % of its
  // time against 24.9 % for the others then, in the place of its cabinet, which it explains
  // (decision 052); the run's own stretches (when) after the first 10 who, every producer over
  // [3.53, 5.15) s first.
  assert.equal(rows[0], "1 nancy (who) zoom[8.1362 – 8.6786 s)found by nancy-uplink's use: 8.75% of its bandwidth, 0.19% for the other links"
    + "score 0.6223 in the links' use");
  assert.equal(rows[1], '2 lyon/lyon-c1/lyon-c1-2 (who) zoom[2.9833 – 5.1529 s)computing: 93.5% here, 24.9% in the aggregate'
    + 'score 7.092 · hidden up to p = 0.2546');
  assert.match(rows[11], /^12 all producers \(when\) zoom\[3\.5257 – 5\.1529 s\)PMPI_Allreduce: 62\.9% here, 27\.8% in the aggregate/);
  const host = json.outliers[1];
  assert.deepEqual([host.producer, host.kind, host.firstSlice, host.lastSlice], ['lyon/lyon-c1/lyon-c1-2', 'who', 11, 18]);

  // A mark per row, in the marks' own colour (not the visual aggregates' black lines).
  const marks = await outlierMarks();
  assert.deepEqual(marks.map(m => m.rank), Array.from({ length: 21 }, (_, i) => i + 1));
  assert.ok(marks.every(m => m.inked), `every badge drawn: ${JSON.stringify(marks.filter(m => !m.inked))}`);
  await shot('outliers-spatiotemporal');

  // The host's mark: the Gantt chart of lyon-c1-2 over its stretch.
  const mark = marks[1];
  await page.mouse.move(mark.x, mark.y);
  assert.match(await page.textContent('#tooltip'), /hidden deviation 2.*lyon\/lyon-c1\/lyon-c1-2/);
  await page.mouse.click(mark.x, mark.y);
  await page.waitForFunction(() => document.querySelector('#gantt-box svg'), null, { timeout: 60_000 });
  const q = new URL(page.url()).searchParams;
  assert.deepEqual([q.get('gantt'), q.get('gproducers'), Number(q.get('gfrom')), Number(q.get('gto'))],
    ['1', 'lyon/lyon-c1/lyon-c1-2', 2.98329, 5.15295]);
  const titles = await page.$$eval('#gantt-box svg title', ts => ts.map(t => t.textContent));
  assert.ok(titles.some(t => /rank-3[45] · computing/.test(t)), `its computing states: ${titles.slice(0, 3)}`);
  assert.ok(titles.every(t => !/rank-(?!3[45]\b)\d+ ·/.test(t)), 'its ranks only');

  // Its row's zoom button: the window of its stretch, every producer kept, the default p there.
  const before = await caption();
  await page.click('#outliers-list li[data-rank="2"] button[data-zoom]');
  const zoomed = await captionChange(before, ['start', 'end']);
  assert.deepEqual([zoomed.start, zoomed.end], [2.98329, 5.15295]);
  assert.equal(new URL(page.url()).searchParams.get('include'), null);
  assert.equal(new URL(page.url()).searchParams.get('p'), null);
});

test('what the aggregates hide in a temporal overview: bars over the phases, refreshed with p', async () => {
  const answer = nextOutliers(q => q.get('aggregation') === 'temporal' && !q.has('start') && !q.has('include'));
  await page.goto(url);
  const json = await answer;
  await page.waitForFunction(h => document.getElementById('caption').dataset.hidden === String(h), json.hidden, { timeout: 120_000 });
  // The default p: 21 phases; the first listed is lyon-c1's cabinet computing while the rest wait.
  assert.deepEqual([json.aggregation, json.partCount, json.count, json.hidden], ['temporal', 21, 923, 134]);
  const rows = await outlierRows();
  assert.equal(rows[0], '1 lyon/lyon-c1 (who) zoom[3.6613 – 4.2037 s)computing: 38.0% here, 5.76% in the aggregate'
    + 'score 10.23 · hidden up to p = 0.5421');
  const marks = await outlierMarks();
  assert.equal(marks.length, 10); // who only: a phase spans every producer, its cells are below it
  assert.match(await page.textContent('#outliers-list > p'),
    /^134 of 923 deviating cells worth telling apart at this p; the first 10 who, highest score first\./);
  assert.ok(marks.every(m => m.inked));
  await shot('outliers-temporal');
  // A new p: a new partition, a new list and count.
  const next = nextOutliers(q => q.get('aggregation') === 'temporal' && Number(q.get('p')) > json.p);
  await page.focus('#overview');
  await page.keyboard.press('ArrowRight');
  const moved = await next;
  assert.ok(moved.p > json.p, `p ${json.p} → ${moved.p}`);
  await page.waitForFunction(h => document.getElementById('caption').dataset.hidden === String(h), moved.hidden, { timeout: 60_000 });
  const shown = await caption();
  assert.deepEqual([shown.p, shown.parts], [moved.p, moved.partCount]);
  // A producer filter: the list answers the filtered model.
  const filtered = nextOutliers(q => q.get('include') === 'nancy');
  await page.goto(`${url}&include=nancy`);
  const only = await filtered;
  assert.equal(only.leaves, 16);
  assert.ok(only.outliers.every(o => o.producer.startsWith('nancy')), JSON.stringify(only.outliers.map(o => o.producer)));
  await page.waitForFunction(h => document.getElementById('caption').dataset.hidden === String(h), only.hidden, { timeout: 60_000 });
});

test('what the shown nodes hide: the treemap and the graph list them, number them on their node, count them', async () => {
  // The treemap cut at the cabinets, at step 5 of 20 ([3.39, 4.07) s): TreemapCommandTest's request.
  await page.goto(`${url}&panel=treemap&slices=20&cut=2&step=5`);
  await page.waitForFunction(() => document.getElementById('caption').dataset.view === 'spatial treemap'
    && document.getElementById('caption').dataset.hidden !== undefined, null, { timeout: 120_000 });
  assert.equal(await page.$eval('#caption', e => e.dataset.hidden), '27');
  assert.match(await page.textContent('#caption'), / · 27 hidden nodes \(departing from the shown node that merges them, /);
  const rows = await page.$$eval('#spatial-outliers-list li[data-rank]', rs => rs.map(r => r.textContent));
  assert.equal(rows.length, 10);
  assert.equal(rows[0], '1 lyon/lyon-c1/lyon-c1-2merged into lyon/lyon-c1PMPI_Waitall: 1.71% here, 58.6% in the aggregate'
    + 'score 2.236 · hidden up to p = 0.5081');
  assert.match(await page.textContent('#spatial-outliers-list > p'), /^27 of 60 deviating cells worth telling apart at this p/);
  const marks = await page.$eval('#treemap', c => {
    const g = c.getContext('2d');
    const ratio = c.width / c.clientWidth;
    const box = c.getBoundingClientRect();
    return c.dataset.outlierMarks.split('|').map(m => {
      const [rank, x0, y0, x1, y1] = m.split(' ').map(Number);
      const [r, gr, b] = g.getImageData(Math.round((x0 + 1) * ratio), Math.round((y0 + 1) * ratio), 1, 1).data;
      return { rank, x: box.x + (x0 + x1) / 2, y: box.y + (y0 + y1) / 2, inked: r === 0x11 && gr === 0x11 && b === 0x11 };
    });
  });
  assert.deepEqual(marks.map(m => m.rank).sort((a, b) => a - b), Array.from({ length: 10 }, (_, i) => i + 1));
  assert.ok(marks.every(m => m.inked), JSON.stringify(marks));
  await shot('outliers-treemap');
  // Its number, on lyon-c1: the overview of lyon-c1, where lyon-c1-2 departs.
  const one = marks.find(m => m.rank === 1);
  await page.mouse.click(one.x, one.y);
  await page.waitForFunction(() => new URLSearchParams(location.search).get('include') === 'lyon/lyon-c1'
    && !new URLSearchParams(location.search).has('panel'), null, { timeout: 30_000 });
  await page.waitForFunction(() => document.getElementById('caption').dataset.leaves === '8', null, { timeout: 60_000 });

  // The graph (sized by the trace's capacities: the metric variable mean): its list and count are its answer's.
  const graph = page.waitForResponse(r => new URL(r.url()).pathname === '/api/topology' && r.status() === 200, { timeout: 120_000 });
  await page.goto(`${url}&panel=topology&metric=variable-mean&slices=20&cut=2&step=5`);
  const answer = (await (await graph).json()).topology.hiddenNodes;
  await page.waitForFunction(h => document.getElementById('caption').dataset.view === 'spatial topology'
    && document.getElementById('caption').dataset.hidden === String(h), answer.hidden, { timeout: 120_000 });
  const first = await page.textContent('#spatial-outliers-list li[data-rank="1"]');
  assert.ok(first.startsWith(`1 ${answer.outliers[0].producer}merged into ${answer.outliers[0].aggregate}`), first);
  assert.ok(await page.$eval('#topology', c => c.dataset.outlierMarks.split('|').length >= 1));
  await shot('outliers-topology');
});

/** The API requests of the page to `path` from now on, as URLSearchParams (and the POST bodies), until stop(). */
function requestLog(path) {
  const log = [];
  const listener = r => {
    const u = new URL(r.url());
    if (u.pathname === `/api/${path}`) log.push({ query: u.searchParams, body: r.postData(), url: r.url() });
  };
  page.on('request', listener);
  log.stop = () => page.off('request', listener);
  return log;
}

test('inclusive state time: one setting, in the URL, the overview\'s and the statistics\' requests and the caption', async () => {
  const asked = requestLog('overview');
  const stats = requestLog('stats');
  await page.goto(`${url}&slices=20`);
  await page.waitForFunction(() => /state total duration \(exclusive time\)/.test(document.getElementById('caption').textContent),
    null, { timeout: 120_000 });
  assert.equal(asked.at(-1).query.get('time'), null, 'exclusive time is the default: not sent');
  assert.equal(await page.$eval('#inclusive', c => c.checked), false);
  await page.check('#inclusive');
  await page.click('#apply');
  await page.waitForFunction(() => /state total duration \(inclusive time\)/.test(document.getElementById('caption').textContent),
    null, { timeout: 120_000 });
  assert.equal(asked.at(-1).query.get('time'), 'inclusive');
  assert.match(page.url(), /[?&]time=inclusive(&|$)/);
  await page.goto(`${url}&slices=20&time=inclusive&stats=1&sfrom=3&sto=3.5`);
  await page.waitForFunction(() => /of the inclusive state time/.test(document.getElementById('stats').textContent), null,
    { timeout: 120_000 });
  assert.equal(stats.at(-1).query.get('time'), 'inclusive', 'the statistics follow the setting');
  assert.equal(await page.$eval('#inclusive', c => c.checked), true, 'the setting comes back from the URL');
  asked.stop();
  stats.stop();
});

test('the Graph tab draws the metric and p of the settings, on the panel\'s size', async () => {
  const asked = requestLog('topology');
  await page.goto(`${url}&slices=20&panel=topology&p=0.05`);
  await page.waitForFunction(() => document.getElementById('caption').dataset.view === 'spatial topology', null, { timeout: 120_000 });
  const q = asked.at(-1).query;
  assert.equal(q.get('metric'), 'state-duration', 'the metric the settings show');
  assert.equal(q.get('p'), '0.05');
  assert.equal(await page.$eval('#metric', m => m.value), 'state-duration');
  const c = await caption();
  assert.equal(c.p, 0.05);
  assert.equal(await page.textContent('#p-value'), '0.05');
  assert.match(c.text, / · state total duration \(exclusive time\) · spatial partition at p = 0\.05 · /);
  assert.match(await page.textContent('#treemap-legend'), /size and fill: state total duration \(exclusive time\) \(Metric “variable mean”: capacity and use/);
  // The graph is asked for the panel's size (its height decides the producer depth), not a hidden canvas's.
  const box = await page.$eval('#treemap-box', b => ({ w: b.clientWidth, h: b.clientHeight }));
  assert.deepEqual([Number(q.get('width')), Number(q.get('height'))], [box.w, box.h]);
  assert.ok(box.h > 300, `panel height ${box.h}`);
  // Capacity and use: the metric variable mean, chosen in the settings, and said so.
  await page.selectOption('#metric', 'variable-mean');
  await page.click('#apply');
  await page.waitForFunction(() => / · variable mean · /.test(document.getElementById('caption').textContent), null, { timeout: 120_000 });
  assert.equal(asked.at(-1).query.get('metric'), 'variable-mean');
  assert.match(await page.textContent('#treemap-legend'), /size = capacity, fill = use \/ capacity/);
  asked.stop();
});

test('the Graph tab: size and fill per node kind, with the variable mean, in the URL and the request', async () => {
  const asked = requestLog('topology');
  await page.goto(`${url}&slices=20&panel=topology&metric=variable-mean&start=3&end=5`);
  await page.waitForFunction(() => document.getElementById('caption').dataset.view === 'spatial topology', null, { timeout: 120_000 });
  const kinds = await page.$$eval('#graph-mapping select[data-what="size"]', ss => ss.map(s => s.dataset.kind));
  assert.ok(kinds.includes('HOST') && kinds.includes('LINK'), JSON.stringify(kinds));
  await page.selectOption('#graph-mapping select[data-what="size"][data-kind="HOST"]', 'speed_used');
  await page.waitForFunction(() => new URLSearchParams(location.search).get('size') === 'HOST=speed_used', null, { timeout: 60_000 });
  await page.selectOption('#graph-mapping select[data-what="fill"][data-kind="HOST"]', 'speed_used');
  await page.waitForFunction(() => new URLSearchParams(location.search).get('fill') === 'HOST=speed_used', null, { timeout: 60_000 });
  await page.waitForFunction(() => /size and fill per node kind: below/.test(document.getElementById('treemap-legend').textContent),
    null, { timeout: 120_000 });
  const q = asked.at(-1).query;
  assert.deepEqual([q.get('metric'), q.get('size'), q.get('fill')], ['variable-mean', 'HOST=speed_used', 'HOST=speed_used']);
  // What the graph drew: every host full (use ÷ size = 1), as the command line's TopologyCommandTest.
  const hosts = await page.evaluate(async u => {
    const r = await fetch(u);
    return (await r.json()).topology.nodes.filter(n => n.kind === 'HOST').map(n => n.fill);
  }, asked.at(-1).url);
  assert.ok(hosts.length === 32 && hosts.every(f => f === 1), JSON.stringify(hosts));
  assert.equal(await page.$eval('#graph-mapping select[data-what="size"][data-kind="HOST"]', s => s.value), 'speed_used');
  asked.stop();
});

test('Play shows every time step in turn, each asked for once and ahead, even when paused and resumed mid-answer', async () => {
  await page.goto(`${url}&slices=8&panel=treemap`);
  await page.waitForFunction(() => document.getElementById('caption').dataset.view === 'spatial treemap', null, { timeout: 120_000 });
  await page.evaluate(() => {
    window.drawnSteps = [];
    new MutationObserver(() => {
      const s = document.getElementById('caption').dataset.step;
      if (window.drawnSteps.at(-1) !== s) window.drawnSteps.push(s);
    }).observe(document.getElementById('caption'), { attributes: true });
  });
  // Step 3's answer is held until the test lets it go: Play is paused and resumed while it is awaited.
  let release;
  const held = new Promise(ok => { release = ok; });
  const stepThree = u => new URL(u).pathname === '/api/treemap' && new URL(u).searchParams.get('step') === '3';
  await page.route(stepThree, async route => { await held; await route.continue(); });
  const asked = requestLog('treemap');
  await page.click('#play');
  await page.waitForFunction(() => new URLSearchParams(location.search).get('step') === '3', null, { timeout: 120_000 });
  assert.equal((await caption()).text.includes('step 3 of 8'), true, 'step 3 is not drawn yet: step 2 (shown as 3 of 8) is');
  await page.click('#play'); // pause while step 3 is awaited
  await page.click('#play'); // and resume
  release();
  await page.waitForFunction(() => document.getElementById('play').textContent === '▶ Play', null, { timeout: 120_000 });
  await page.unroute(stepThree);
  asked.stop();
  assert.deepEqual(await page.evaluate(() => window.drawnSteps), ['0', '1', '2', '3', '4', '5', '6', '7']);
  const steps = asked.map(r => r.query.get('step'));
  assert.deepEqual(steps, ['0', '1', '2', '3', '4', '5', '6', '7'], 'each step asked for once');
});

test('the Gantt chart follows the type filter, names its rows by the hierarchy, draws link arrows on demand, in a split', async () => {
  // The overview without PMPI_Waitall, the details and the statistics of lyon-c1 over [3, 3.5) s.
  const charts = requestLog('gantt');
  await page.goto(`${url}&slices=20&xtypes=PMPI_Waitall&gantt=1&gfrom=3&gto=3.5&gproducers=lyon/lyon-c1`
    + '&stats=1&sfrom=3&sto=3.5&sproducers=lyon/lyon-c1');
  await page.waitForFunction(() => document.getElementById('caption').dataset.parts && document.querySelector('#gantt-box svg')
    && document.querySelector('#events-table tbody tr') && document.querySelector('#stats-dominant'), null, { timeout: 120_000 });
  const titles = () => page.$$eval('#gantt-box svg title', ts => ts.map(t => t.textContent));
  const shown = await titles();
  assert.ok(shown.some(t => / · computing · /.test(t)), 'the states kept are drawn');
  assert.ok(shown.every(t => !/PMPI_Waitall/.test(t)), 'no state of the type the view leaves out');
  assert.ok(!(await page.textContent('#gantt-box svg')).includes('PMPI_Waitall'), 'nor in the legend');
  assert.ok((await page.$$eval('#events-table tbody tr', rs => rs.map(r => r.cells[2].textContent))).every(t => t !== 'PMPI_Waitall'));
  charts.stop();
  // The view's own short list, not the names of every type kept.
  assert.deepEqual(charts.map(r => [r.query.get('xtypes'), r.query.has('types')]), [['PMPI_Waitall', false]]);
  // Rows by name, under brackets naming their host, cluster and site.
  const labels = await page.$$eval('#gantt-box svg text', ts => ts.map(t => {
    const r = t.getBoundingClientRect();
    return { text: t.textContent, rotated: /rotate/.test(t.getAttribute('transform') || ''), y0: r.top, y1: r.bottom };
  }));
  assert.deepEqual(labels.filter(l => l.rotated).map(l => l.text),
    ['lyon', 'lyon-c1', 'lyon-c1-1', 'lyon-c1-2', 'lyon-c1-3', 'lyon-c1-4']);
  const rows = labels.filter(l => /^rank-\d+$/.test(l.text));
  assert.deepEqual(rows.map(l => l.text), ['rank-32', 'rank-33', 'rank-34', 'rank-35', 'rank-36', 'rank-37', 'rank-38', 'rank-39']);
  const host = labels.find(l => l.text === 'lyon-c1-2');
  const mid = l => (l.y0 + l.y1) / 2;
  assert.ok(mid(rows[2]) < mid(host) && mid(host) < mid(rows[3]), 'lyon-c1-2 is named between its ranks 34 and 35');
  // Link arrows: shown by default, hidden by their checkbox, the states staying.
  assert.ok(shown.some(t => / → .* · MPI_LINK · /.test(t)), 'link arrows');
  await page.uncheck('#gantt-links');
  await page.waitForFunction(() => [...document.querySelectorAll('#gantt-box svg title')].every(t => !/ → /.test(t.textContent)),
    null, { timeout: 60_000 });
  assert.ok((await titles()).some(t => / · computing · /.test(t)), 'the states stay');
  // Every view readable: the page does not scroll, the overview and the details keep their minimum heights.
  const boxes = () => page.evaluate(() => Object.fromEntries(['overview-row', 'curves-row', 'split', 'below', 'caption']
    .map(id => [id, document.getElementById(id).getBoundingClientRect().toJSON()])
    .concat([['scroll', document.scrollingElement.scrollHeight], ['viewport', innerHeight]])));
  const b = await boxes();
  assert.equal(b.scroll, b.viewport, 'the page itself never scrolls');
  assert.ok(b['overview-row'].height >= 200 && b.below.height >= 160, JSON.stringify(b));
  assert.ok(b.caption.bottom <= b.viewport && b['curves-row'].bottom <= b.split.top, JSON.stringify(b));
  // The split shares the height, each side down to its minimum.
  const drag = async dy => {
    const s = (await boxes()).split;
    await page.mouse.move(s.x + s.width / 2, s.y + s.height / 2);
    await page.mouse.down();
    await page.mouse.move(s.x + s.width / 2, s.y + s.height / 2 + dy, { steps: 4 });
    await page.mouse.up();
    return boxes();
  };
  const up = await drag(-700);
  assert.equal(Math.round(up['overview-row'].height), 200);
  assert.ok(up.below.height > b.below.height, `the details grew: ${b.below.height} → ${up.below.height}`);
  const down = await drag(900);
  assert.equal(Math.round(down.below.height), 160);
  assert.equal(down.scroll, down.viewport);
  await shot('gantt-split');
});

test('one unit per view: the Gantt chart\'s axis and table, the statistics\' histogram; saved windows at the slices\' precision', async () => {
  // [3, 3.5) s reads in ms on the chart's axis: so do the table's times and durations.
  await page.goto(`${url}&slices=20&gantt=1&gfrom=3&gto=3.5&gproducers=lyon/lyon-c1/lyon-c1-2&stats=1&sfrom=3&sto=3.5`);
  await page.waitForFunction(() => document.querySelector('#gantt-box svg') && document.querySelector('#events-table tbody tr')
    && document.querySelector('#stats-axis'), null, { timeout: 120_000 });
  const axis = await page.$$eval('#gantt-box svg text', ts => ts.map(t => t.textContent).find(t => /^time since/.test(t)));
  assert.equal(axis, "time since the trace's start (ms)");
  const heads = await page.$$eval('#events-table th', hs => hs.map(h => h.textContent.replace(/ [▲▼]$/, '')));
  assert.deepEqual(heads, ['kind', 'producer', 'type', 'start (ms)', 'end (ms)', 'duration (ms)', 'value']);
  const records = await page.$$eval('#events-table tbody tr', rs => rs.map(r => [3, 4, 5].map(k => Number(r.cells[k].textContent))));
  for (const [start, end, duration] of records) {
    assert.ok(start < 3500 && end >= 3000, `[${start}, ${end}) meets [3000, 3500) ms`);
    assert.ok(Math.abs(end - start - duration) <= Math.max(0.002, duration * 5e-4), `${end} − ${start} = ${duration}`);
  }
  // The duration filter is typed in the table's unit: 50 ms keeps the states of 50 ms or more.
  await page.fill('#events-min', '50');
  await page.dispatchEvent('#events-min', 'change');
  await page.waitForFunction(() => [...document.querySelectorAll('#events-table tbody tr')].every(r => Number(r.cells[5].textContent) >= 50),
    null, { timeout: 30_000 });
  assert.ok(await page.$$eval('#events-table tbody tr', rs => rs.length) >= 1);
  assert.equal(await page.textContent('.events-unit'), 'ms');
  // The statistics: the histogram over a time axis in ms, durations in ms.
  const ticks = await page.$$eval('#stats-axis span', ss => ss.map(s => s.textContent));
  assert.deepEqual(ticks, ['3000', '3100', '3200', '3300', '3400', '3500']);
  assert.equal(await page.textContent('.stats-axis-title'), "time since the trace's start (ms)");
  assert.match(await page.textContent('#stats-box'), /durations of states in ms, /);
  const spread = await page.$$eval('#stats-axis span', ss => ss.map(s => s.getBoundingClientRect().x));
  assert.ok(spread.every((x, i) => i === 0 || x > spread[i - 1]), 'ticks left to right');

  // A dragged window saved as a selection: rounded to the slices' precision (N = 20: 0.678 s slices, to the ms).
  await page.goto(`${url}&slices=20`);
  await page.waitForFunction(() => document.getElementById('caption').dataset.parts, null, { timeout: 90_000 });
  const box = await plotBox();
  const plot = await plotRect();
  await page.mouse.move(box.x + plot.x + plot.w * 0.2137, box.y + plot.y + plot.h / 2);
  await page.mouse.down();
  await page.mouse.move(box.x + plot.x + plot.w * 0.4711, box.y + plot.y + plot.h / 2, { steps: 4 });
  await page.mouse.up();
  const saved = requestLog('selections');
  const answers = ['rounded', ''];
  const onDialog = dialog => dialog.accept(answers.shift());
  page.on('dialog', onDialog);
  await page.click('#save-selection');
  await page.waitForFunction(() => document.getElementById('message').textContent === 'saved selection rounded', null, { timeout: 30_000 });
  page.off('dialog', onDialog);
  saved.stop();
  const { from, to } = JSON.parse(saved.find(r => r.body).body);
  const end = (await caption()).end;
  for (const [t, at] of [[from, 0.2137], [to, 0.4711]]) {
    assert.equal(t, Number(t.toFixed(3)), `${t}: to the ms`);
    assert.ok(Math.abs(t - end * at) < end / plot.w + 0.001, `${t} is where the mouse was (${end * at})`);
  }
  await page.evaluate(() => fetch(`/api/selections?trace=${encodeURIComponent(new URLSearchParams(location.search).get('trace'))}&name=rounded`,
    { method: 'DELETE', headers: { 'X-Ocelotl-Token': new URLSearchParams(location.search).get('token') } }));
});

test('a window typed since the start with a unit reads both ways; Sub-trace downloads it with its absolute times', async () => {
  // The Chrome trace's clock is µs since boot: since the start and trace time differ.
  const chrome = join(traces, 'chrome/node_trace.json');
  assert.ok(existsSync(chrome), `missing shared trace ${chrome}; set OCELOTL_TRACES`);
  await page.goto(url);
  await page.waitForFunction(() => document.getElementById('caption').dataset.parts, null, { timeout: 90_000 });
  const before = await caption();
  // Item 10: the page starts from the request spec's N, as the command line does.
  const vocabulary = await (await fetch(`${url.slice(0, url.indexOf('?'))}api/vocabulary`,
    { headers: { 'X-Ocelotl-Token': new URL(url).searchParams.get('token') } })).json();
  assert.match(before.text, new RegExp(` N = ${vocabulary.parameters.find(p => p.name === 'slices').fallback} `));
  await page.fill('#import-path', chrome);
  await page.click('#import-form button');
  const whole = await captionChange(before, ['leaves']);
  const t0 = whole.start;
  assert.ok(t0 > 1e6, `a clock since boot: ${t0}`);
  assert.equal(await page.textContent('#unit'), 'us');
  await page.fill('#start', '1ms');
  await page.fill('#end', '2ms');
  await page.click('#apply');
  const shown = await captionChange(whole, ['start']);
  assert.equal(shown.start, t0 + 1000);
  assert.equal(shown.end, t0 + 2000);
  const query = new URL(page.url()).searchParams;
  assert.equal(query.get('start'), '1ms', 'the URL keeps the time as typed');
  assert.equal(query.get('end'), '2ms');
  assert.equal(await page.textContent('#window-both'),
    `1.000 – 2.000 ms since the start = ${t0 + 1000} – ${t0 + 2000} us (trace time)`);
  // A reload reads the URL's times with a unit as the fields did.
  await page.goto(page.url());
  await page.waitForFunction(() => document.getElementById('caption').dataset.parts, null, { timeout: 60_000 });
  assert.equal((await caption()).start, t0 + 1000);
  assert.equal(await page.inputValue('#start'), '1ms');
  // An unknown unit is refused before it reaches the URL.
  const urlBefore = page.url();
  await page.fill('#start', '1xs');
  await page.click('#apply');
  await page.waitForFunction(() => document.getElementById('message').classList.contains('error'));
  assert.match(await page.textContent('#message'), /^start: unknown time unit 'xs' in '1xs'/);
  assert.equal(page.url(), urlBefore);
  await page.fill('#start', '1ms');
  // Sub-trace: the window shown as a Pajé trace of its own, the times those of the original.
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('#export-subtrace')]);
  assert.equal(download.suggestedFilename(), `node_trace-${t0 + 1000}-${t0 + 2000}.trace`);
  const text = readFileSync(await download.path(), 'utf8');
  const header = /^# a part of node_trace\.json written by Ocelotl: \[(\S+), (\S+)\) us$/.exec(text.split('\n')[0]);
  assert.ok(header, text.slice(0, 200));
  assert.deepEqual([Number(header[1]), Number(header[2])], [t0 + 1000, t0 + 2000]);
  await page.goto(url);
  await page.waitForFunction(() => document.getElementById('caption').dataset.parts, null, { timeout: 60_000 });
});
