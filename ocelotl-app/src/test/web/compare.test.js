// Browser tests of two runs as a pair (ocelotl view --compare BASE OTHER): the built jar serves a
// real SimGrid pair (src/test/resources/compare: a 16-rank stencil, and the same run with host
// nancy-c2-3 at 20% of its speed during [1, 2) s), Debian's chromium is driven by playwright-core,
// and every test checks what the analyst sees: the ranked list against the API's answer, both
// runs' views at the page's p, one selection, the Gantt charts of a difference.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, mkdirSync, existsSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createInterface } from 'node:readline';
import { chromium } from 'playwright-core';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '../../../..');
const jar = process.env.OCELOTL_JAR || join(root, 'ocelotl-app/target/ocelotl.jar');
const pairs = join(root, 'ocelotl-app/src/test/resources/compare');
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

/** What the caption says the page shows. */
async function caption() {
  return page.$eval('#caption', c => ({ text: c.textContent, p: Number(c.dataset.p), start: Number(c.dataset.start),
    end: Number(c.dataset.end), parts: Number(c.dataset.parts), compare: c.dataset.compare }));
}

/** What a run's view shows: its p, parts, window, selection, and a digest of its pixels. */
async function run(which) {
  return page.$eval(`#${which}-overview`, c => {
    const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
    let hash = 0, inked = 0;
    for (let i = 0; i < d.length; i += 4) {
      if (d[i + 3] !== 0 && (d[i] < 245 || d[i + 1] < 245 || d[i + 2] < 245)) inked++;
      hash = (hash * 31 + d[i] + 7 * d[i + 1] + 13 * d[i + 2]) | 0;
    }
    return { p: Number(c.dataset.p), parts: Number(c.dataset.parts), start: Number(c.dataset.start),
      end: Number(c.dataset.end), selection: c.dataset.selection || '', hash, inked, total: d.length / 4 };
  });
}

/**
 * The API's own answer to the page's question, asked with the page's token; asked again while the
 * server computes as much as it may (503: the page's own requests, both runs' overviews).
 */
async function apiCompare(query) {
  const u = new URL(url);
  for (let attempt = 0; ; attempt++) {
    const answer = await fetch(`${u.origin}/api/compare?${query}`, { headers: { 'X-Ocelotl-Token': u.searchParams.get('token') } });
    if (answer.status === 503 && attempt < 120) {
      await new Promise(ok => setTimeout(ok, 1000));
      continue;
    }
    assert.equal(answer.status, 200);
    return answer.json();
  }
}

/** A GET of the page's own origin with its token, asked again while the server is busy (503). */
async function answered(address) {
  for (let attempt = 0; ; attempt++) {
    const r = await fetch(address, { headers: { 'X-Ocelotl-Token': new URL(url).searchParams.get('token') } });
    if (r.status === 503 && attempt < 120) { await new Promise(ok => setTimeout(ok, 1000)); continue; }
    assert.equal(r.status, 200, address);
    return { type: r.headers.get('content-type'), text: await r.text() };
  }
}

/** Waits until both runs' views show the page's p (and, with parts, differ from those counts). */
async function runsAt(p) {
  await page.waitForFunction(p => ['base', 'other'].every(w => {
    const c = document.getElementById(`${w}-overview`);
    return Number(c.dataset.p) === p && !c.classList.contains('stale');
  }), p, { timeout: 90_000 });
}

before(async () => {
  assert.ok(existsSync(jar), `build the jar first (mvn -B package): ${jar} is missing`);
  mkdirSync(shots, { recursive: true });
  workspace = mkdtempSync(join(tmpdir(), 'ocelotl-compare-ui-'));
  // The slowed-uplink pair, imported beside the served one, for the links' list.
  for (const name of ['cmp_uplink_base.trace.gz', 'cmp_uplink.trace.gz']) {
    const imported = spawnSync('java', ['-jar', jar, 'import', join(pairs, name), '--workspace', workspace], { encoding: 'utf8' });
    assert.equal(imported.status, 0, imported.stderr);
  }
  [server, url] = await startView(['--compare', join(pairs, 'cmp_base.trace.gz'), join(pairs, 'cmp_slow.trace.gz')]);
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
      '--disable-component-update', '--disable-sync'],
  });
  page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
  page.on('pageerror', e => { throw e; });
});

after(async () => {
  await browser?.close();
  server?.kill();
  if (workspace) rmSync(workspace, { recursive: true, force: true });
});

test('view --compare prints the URL of the pair', () => {
  assert.match(url, /^http:\/\/127\.0\.0\.1:\d+\/\?token=[A-Za-z0-9_-]{43}&base=cmp_base[^&]*&other=cmp_slow/);
});

test('the page shows the difference overview and the differences ranked as the API ranks them', async () => {
  await page.goto(url);
  await page.waitForFunction(() => document.getElementById('caption').dataset.compare, null, { timeout: 120_000 });
  const c = await caption();
  assert.equal(c.compare, 'start');
  assert.match(c.text, /cmp_base\.trace\.gz → cmp_slow\.trace\.gz · align start/);
  assert.equal(c.start, 0);
  assert.ok(Math.abs(c.end - 3.839177) < 1e-9, `the shorter run's span, found ${c.end}`);
  const rows = await page.$$eval('#differences-list li[data-rank]', lis => lis.map(li => ({
    rank: Number(li.dataset.rank), score: Number(li.dataset.score), text: li.textContent })));
  assert.equal(rows.length, 20);
  rows.forEach((r, i) => assert.equal(r.rank, i + 1));
  for (let i = 1; i < rows.length; i++) assert.ok(rows[i].score <= rows[i - 1].score, `rank ${i + 1} scores above rank ${i}`);
  // The slowed host first, computing nearly all the time in OTHER over its window [1, 2) s.
  assert.match(rows[0].text, /nancy\/nancy-c2\/nancy-c2-3/);
  assert.match(rows[0].text, /computing: \d+(\.\d+)?% → 99(\.\d+)?%/);
  // The list is the API's (the command line's) answer to the page's question, in its order.
  const q = new URL(url).searchParams;
  const api = await apiCompare(`base=${q.get('base')}&other=${q.get('other')}&p=${c.p}&limit=20`);
  assert.deepEqual(rows.map(r => r.score), api.differences.map(d => d.score));
  assert.equal(c.parts, api.partCount);
  const marks = await page.$eval('#overview', o => o.dataset.outlierMarks.split('|').length);
  assert.equal(marks, 20, 'each difference numbered on the overview');
  // The SVG link draws the difference at the p shown (the command's --out); the CSV exports are one trace's.
  const svg = await answered(new URL(await page.getAttribute('#export-svg', 'href'), url).toString());
  assert.match(svg.type, /^image\/svg\+xml/);
  assert.match(svg.text, /difference of OTHER from BASE, align start/);
  assert.match(await page.getAttribute('#export-svg', 'href'), new RegExp(`p=${c.p}`));
  assert.equal(await page.isHidden('#export-csv'), true);
  await page.screenshot({ path: join(shots, 'compare-1-loaded.png') });
});

test('both runs are drawn side by side over the windows compared, at the page\'s p', async () => {
  const c = await caption();
  await runsAt(c.p);
  const [base, other] = [await run('base'), await run('other')];
  for (const [name, r] of [['BASE', base], ['OTHER', other]]) {
    assert.equal(r.start, 0, name);
    assert.ok(Math.abs(r.end - 3.839177) < 1e-9, `${name} ends at ${r.end}`);
    assert.ok(r.inked > r.total * 0.2, `${name}: only ${r.inked} of ${r.total} pixels drawn`);
    assert.ok(r.parts >= 1, name);
  }
  assert.match(await page.textContent('#base-title'), /BASE cmp_base\.trace\.gz/);
  assert.match(await page.textContent('#other-title'), /OTHER cmp_slow\.trace\.gz/);
});

test('a p chosen on the curves moves the difference and both runs\' views', async () => {
  const before = await caption();
  const runs = [await run('base'), await run('other')];
  const box = await page.$eval('#curves', c => { const r = c.getBoundingClientRect(); return { x: r.x, y: r.y, w: r.width, h: r.height }; });
  await page.mouse.click(box.x + box.w - 20, box.y + box.h / 2);
  await page.waitForFunction(p => Number(document.getElementById('caption').dataset.p) !== p, before.p, { timeout: 90_000 });
  const after = await caption();
  assert.ok(after.p > before.p && after.parts < before.parts, `p ${before.p} → ${after.p}, parts ${before.parts} → ${after.parts}`);
  assert.match(page.url(), /[?&]p=/);
  await runsAt(after.p);
  const moved = [await run('base'), await run('other')];
  for (let i = 0; i < 2; i++) {
    const name = ['BASE', 'OTHER'][i];
    assert.ok(moved[i].parts < runs[i].parts, `${name}: ${runs[i].parts} → ${moved[i].parts} parts`);
    assert.notEqual(moved[i].hash, runs[i].hash, `${name} redrawn`);
  }
  await page.screenshot({ path: join(shots, 'compare-2-p.png') });
});

test('a selection on one run is the selection of the other and of the difference', async () => {
  const box = await page.$eval('#base-overview', c => { const r = c.getBoundingClientRect(); return { x: r.x, y: r.y, w: r.width, h: r.height }; });
  const [px, py, pw, ph] = await page.$eval('#base-overview', c => c.dataset.plot.split(' ').map(Number));
  const y = box.y + py + ph / 2;
  await page.mouse.move(box.x + px + pw * 0.25, y);
  await page.mouse.down();
  await page.mouse.move(box.x + px + pw * 0.4, y, { steps: 3 });
  await page.mouse.move(box.x + px + pw * 0.5, y, { steps: 3 });
  await page.mouse.up();
  const x = s => s.split(' ').slice(0, 2).map(Number);
  const base = x((await run('base')).selection);
  const other = x((await run('other')).selection);
  const difference = x(await page.$eval('#overview', c => c.dataset.selection));
  assert.ok(Math.abs(base[0] - 0.25) < 0.01 && Math.abs(base[1] - 0.5) < 0.01, `BASE's selection ${base}`);
  for (const [name, s] of [['OTHER', other], ['difference', difference]]) {
    assert.ok(Math.abs(s[0] - base[0]) < 1e-9 && Math.abs(s[1] - base[1]) < 1e-9, `${name}'s selection ${s}, BASE's ${base}`);
  }
  assert.match(await page.textContent('#selection'), /Selected/);
  await page.keyboard.press('Escape');
});

test('clicking a difference opens both runs\' Gantt charts of its window and producers, one above the other', async () => {
  const c = await caption();
  const q = new URL(url).searchParams;
  const api = await apiCompare(`base=${q.get('base')}&other=${q.get('other')}&p=${c.p}&limit=20`);
  const first = api.differences[0];
  await page.click('#differences-list li[data-rank="1"]');
  await page.waitForFunction(() => document.querySelectorAll('#compare-gantt .gantt-chart svg').length === 2, null, { timeout: 60_000 });
  const charts = await page.$$eval('#compare-gantt .gantt-run', runs => runs.map(r => ({ id: r.id, trace: r.dataset.trace,
    from: Number(r.dataset.from), to: Number(r.dataset.to), top: r.getBoundingClientRect().top,
    marks: r.querySelectorAll('svg rect, svg path, svg line').length, svg: r.querySelector('svg').outerHTML })));
  assert.deepEqual(charts.map(r => r.id), ['gantt-base', 'gantt-other']);
  assert.ok(charts[0].top < charts[1].top, 'BASE above OTHER');
  assert.equal(charts[0].trace, q.get('base'));
  assert.equal(charts[1].trace, q.get('other'));
  // Align start: the same times since each run's start (both start at 0).
  for (const r of charts) {
    assert.equal(r.from, first.start, r.id);
    assert.equal(r.to, first.end, r.id);
    assert.ok(r.marks > 10, `${r.id}: ${r.marks} marks`);
  }
  // One producer's row: the slowed host's.
  assert.match(page.url(), /gproducers=nancy%2Fnancy-c2%2Fnancy-c2-3/);
  assert.match(charts[1].svg, /nancy-c2-3/);
  await page.screenshot({ path: join(shots, 'compare-3-gantt.png') });
});

test('a zoom re-runs the comparison on the window, and both runs follow', async () => {
  const before = await caption();
  await page.click('#compare-gantt-close');
  const box = await page.$eval('#overview', c => { const r = c.getBoundingClientRect(); return { x: r.x, y: r.y }; });
  const [px, py, pw, ph] = await page.$eval('#overview', c => c.dataset.plot.split(' ').map(Number));
  const y = box.y + py + ph / 2;
  await page.mouse.move(box.x + px + pw * 0.2, y);
  await page.mouse.down();
  await page.mouse.move(box.x + px + pw * 0.35, y, { steps: 3 });
  await page.mouse.move(box.x + px + pw * 0.6, y, { steps: 3 });
  await page.mouse.up();
  await page.click('#zoom');
  await page.waitForFunction(s => Number(document.getElementById('caption').dataset.start) !== s, before.start, { timeout: 90_000 });
  const zoomed = await caption();
  const span = before.end - before.start;
  assert.ok(Math.abs(zoomed.start - 0.2 * span) < span * 0.01 && Math.abs(zoomed.end - 0.6 * span) < span * 0.01,
    `window ${zoomed.start} – ${zoomed.end}`);
  await runsAt(zoomed.p);
  for (const which of ['base', 'other']) {
    const r = await run(which);
    assert.equal(r.start, zoomed.start, which);
    assert.equal(r.end, zoomed.end, which);
  }
});

test('a trace shown alone opens as a pair with a second one chosen in the page', async () => {
  const q = new URL(url).searchParams;
  const single = new URL(url);
  single.search = `?token=${q.get('token')}&trace=${q.get('base')}`;
  await page.goto(single.toString());
  await page.waitForFunction(() => document.getElementById('caption').dataset.parts, null, { timeout: 90_000 });
  assert.equal(await page.isHidden('#compare-row'), true);
  await page.selectOption('#compare-with', q.get('other'));
  await page.waitForFunction(() => document.getElementById('caption').dataset.compare, null, { timeout: 120_000 });
  assert.match(page.url(), new RegExp(`base=${q.get('base')}&other=${q.get('other')}`));
  assert.equal(await page.isVisible('#compare-row'), true);
  assert.ok(await page.$$eval('#differences-list li[data-rank]', lis => lis.length) > 0);
  await page.click('#close-compare');
  await page.waitForFunction(() => !document.getElementById('caption').dataset.compare && document.getElementById('caption').dataset.parts,
    null, { timeout: 90_000 });
  assert.equal(await page.isHidden('#compare-row'), true);
  assert.match(page.url(), new RegExp(`trace=${q.get('other')}`));
});

test('where every producer departs first, the site behind the slowed uplink comes first, and the links\' use names the uplink', async () => {
  const u = new URL(url);
  const listed = await answered(`${u.origin}/api/traces`);
  const ids = JSON.parse(listed.text).traces.map(t => t.id);
  const base = ids.find(id => id.startsWith('cmp_uplink_base'));
  const other = ids.find(id => id.startsWith('cmp_uplink.'));
  assert.ok(base && other, `both runs imported: ${ids}`);
  const pair = new URL(url);
  pair.search = `?token=${u.searchParams.get('token')}&base=${base}&other=${other}`;
  await page.goto(pair.toString());
  await page.waitForFunction(() => document.getElementById('caption').dataset.compare, null, { timeout: 180_000 });
  // By the states, the first difference is a stretch of every producer (the run waits on the link):
  // the site behind the link whose use departs first comes before it (decision 060).
  const first = await page.$eval('#differences-list li[data-rank="1"]', li => li.textContent);
  assert.match(first, /^1 nancy\[.*behind nancy-uplink, whose use departs first/);
  const second = await page.$eval('#differences-list li[data-rank="2"] .who', w => w.textContent);
  assert.match(second, /^2 all producers$/);
  const links = await page.$$eval('#links-list li', lis => lis.map(li => ({ text: li.textContent,
    start: Number(li.dataset.start), end: Number(li.dataset.end) })));
  assert.ok(links.length > 0, 'the links\' list is shown');
  assert.match(links[0].text, /nancy-uplink/);
  // Within [1, 2) s, the uplink's slowed window (OTHER's time).
  assert.ok(links[0].start >= 1 && links[0].end <= 2.05, `${links[0].start}–${links[0].end}`);
  assert.match(await page.textContent('#links-hint'), /links' use \(utilization of bandwidth\)/);
  await page.screenshot({ path: join(shots, 'compare-links.png') });
  await page.click('#links-list li[data-link-rank="1"]');
  await page.waitForFunction(() => !document.getElementById('compare-gantt').hidden, null, { timeout: 90_000 });
  assert.match(page.url(), /gantt=1/);
  // The site's entry: both Gantt charts of nancy over the link difference's window.
  await page.click('#differences-list li[data-rank="1"]');
  await page.waitForFunction(() => /gproducers=nancy(&|$)/.test(location.search), null, { timeout: 90_000 });
  await page.waitForFunction(() => document.querySelectorAll('#compare-gantt .gantt-chart svg').length === 2, null, { timeout: 90_000 });
  const chart = await page.$eval('#gantt-other', r => ({ from: Number(r.dataset.from), to: Number(r.dataset.to) }));
  assert.ok(chart.from >= 1 && chart.from < 2 && chart.to > 1 && chart.to <= 2.05, `${chart.from}–${chart.to}`);
});
