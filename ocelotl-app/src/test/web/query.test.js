// Browser tests of the Query tab (SQL over the trace, docs/sql.md) and of the event table's
// sequence field (docs/analysis.md#sequences): the built jar serves the bundled perturbed SimGrid
// trace, Debian's chromium is driven by playwright-core, as in ui.test.js.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, mkdirSync, existsSync, rmSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createInterface } from 'node:readline';
import { chromium } from 'playwright-core';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '../../../..');
const jar = process.env.OCELOTL_JAR || join(root, 'ocelotl-app/target/ocelotl.jar');
const trace = join(root, 'examples/smpi_perturbed.trace.gz');
const shots = join(root, 'ocelotl-app/target/browser-screenshots');
const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';

let server, url, browser, page, workspace;

/** docs/sql.md's query "The longest states" and the rows the page shows after it. */
function longestStates() {
  const doc = readFileSync(join(root, 'docs/sql.md'), 'utf8');
  const at = doc.indexOf('### The longest states');
  const [, sql, shown] = /```sql\n([\s\S]*?)```\n\n```\n([\s\S]*?)```/.exec(doc.slice(at));
  const rows = shown.trim().split('\n').slice(1, -1).map(line => line.trim().split(/\s+/));
  return { sql: sql.trim(), rows };
}

before(async () => {
  assert.ok(existsSync(jar), `build the jar first (mvn -B package): ${jar} is missing`);
  mkdirSync(shots, { recursive: true });
  workspace = mkdtempSync(join(tmpdir(), 'ocelotl-query-'));
  [server, url] = await new Promise((ok, fail) => {
    // -XX:-UsePerfData: no hsperfdata file, so no JVM warning about one (a fresh-clone CI run once
    // printed one) can come before the URL line read below.
    const view = spawn('java', ['-XX:-UsePerfData', '-jar', jar, 'view', trace, '--port', '0', '--workspace', workspace],
      { stdio: ['ignore', 'pipe', 'pipe'] });
    let err = '';
    view.stderr.on('data', d => { err += d; });
    view.on('exit', code => fail(new Error(`server exited with ${code}: ${err}`)));
    createInterface({ input: view.stdout }).once('line', line => ok([view, line.trim()]));
  });
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

test('the Query tab runs a query of docs/sql.md: its rows in a table, its CSV a download', async () => {
  await page.goto(url);
  await page.waitForFunction(() => document.getElementById('caption').dataset.parts, null, { timeout: 120_000 });
  await page.click('#panels button[data-panel="query"]');
  assert.match(page.url(), /panel=query/);
  assert.equal(await page.isVisible('#overview-row'), false);
  const { sql, rows } = longestStates();
  await page.fill('#query-sql', sql);
  await page.click('#query-run');
  await page.waitForSelector('#query-table tbody tr', { timeout: 120_000 });
  const head = await page.$$eval('#query-table th', ths => ths.map(th => th.textContent));
  assert.deepEqual(head, ['path', 'state', 'start_time', 'duration']);
  const cells = await page.$$eval('#query-table tbody tr', trs => trs.map(tr => [...tr.cells].map(td => td.textContent)));
  assert.deepEqual(cells, rows);
  assert.match(await page.textContent('#query-status'), /^5 rows · \d+ ms$/);
  await page.screenshot({ path: join(shots, 'query.png') });

  // The CSV link downloads the same rows, with the page's cookie.
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('#query-csv')]);
  assert.equal(download.suggestedFilename(), 'query.csv');
  const csv = readFileSync(await download.path(), 'utf8').trim().split('\r\n');
  assert.equal(csv[0], 'path,state,start_time,duration');
  assert.deepEqual(csv.slice(1).map(line => line.split(',')), rows);

  // Anything but one SELECT or WITH statement is refused, with a message, and nothing runs.
  await page.fill('#query-sql', 'DROP VIEW states');
  await page.click('#query-run');
  await page.waitForFunction(() => document.getElementById('query-status').textContent.startsWith('SQL:'));
  assert.equal(await page.textContent('#query-status'),
    'SQL: only a query (SELECT or WITH) is run here, not DROP; the command line\'s ocelotl sql runs any statement');
  assert.equal(await page.$('#query-table'), null);
});

test('the event table lists a sequence\'s occurrences and saves them as a selection', async () => {
  await page.goto(`${url}&gantt=1&gfrom=0&gto=13.560387`);
  await page.waitForSelector('#events-table tbody tr', { timeout: 120_000 });
  await page.fill('#events-sequence', 'computing, PMPI_Allreduce');
  const unit = await page.textContent('.events-unit');
  await page.fill('#events-within', unit === 's' ? '0.5' : '500');
  // The sequence's answer without its bound is held back until the bound's has been shown, as
  // a loaded server may answer them: the table must keep the answer to the last request.
  let boundShown;
  const shown = new Promise(ok => { boundShown = ok; });
  const unbound = u => { const q = new URL(u).searchParams; return q.has('sequence') && !q.has('within'); };
  const events = u => u.pathname === '/api/events';
  await page.route(events, async route => {
    if (unbound(route.request().url())) await shown;
    await route.continue();
  });
  // fill() sets the values; 'change' is what the table listens to, fired as a user's Tab would.
  await page.dispatchEvent('#events-sequence', 'change');
  await page.dispatchEvent('#events-within', 'change');
  await page.waitForFunction(() => /of 1820 occurrences on 64 producers/.test(document.getElementById('events-page').textContent),
    null, { timeout: 60_000 });
  const late = page.waitForResponse(r => unbound(r.url()));
  boundShown();
  await (await late).finished();
  await page.evaluate(() => new Promise(requestAnimationFrame));
  await page.unroute(events);
  assert.match(await page.textContent('#events-page'), /of 1820 occurrences on 64 producers/);
  const first = await page.$$eval('#events-table tbody tr', trs => [...trs[0].cells].map(td => td.textContent));
  assert.equal(first.length, 5);
  assert.match(first[4], /^computing @ .* → PMPI_Allreduce @ /);
  page.once('dialog', d => d.accept('reductions'));
  await page.click('#events-save-sequence');
  await page.waitForFunction(() => /^saved selection reductions: 64 producers/.test(document.getElementById('details-what').textContent));
  await page.waitForFunction(() => [...document.querySelectorAll('#selections option')].some(o => o.value === 'reductions'));
});
