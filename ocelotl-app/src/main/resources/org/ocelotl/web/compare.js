// Two runs as a pair (ocelotl view --compare BASE OTHER, or "Compare with…" in the page): the
// difference overview of GET /api/compare (how OTHER departs from BASE, the answer of `ocelotl
// compare --json`) with its ranked differences, and under it both runs' own overviews side by
// side, at the same p, over the windows the comparison matched, with one selection. A difference
// chosen opens both runs' Gantt charts of its window and producers, BASE's above OTHER's.
// Times shown and kept in the URL (start, end, gfrom, gto) are OTHER's, as the answer's are.
import { OverviewView } from './overview.js';
import { OUTLIER_INK } from './outliers.js';
import { since, time, value, percent, pValue, escapeHtml } from './format.js';

const $ = id => document.getElementById(id);
/** How many differences the list shows: a scrolling column's worth. */
const LISTED = 20;
/** The smallest drawing height /api/compare takes (the picture's, decision 043): a shorter canvas asks for this. */
const MIN_HEIGHT = 360;
/** The height of each Gantt chart of the pair, in CSS pixels. */
const GANTT_HEIGHT = 320;

export class ComparePage {
  /**
   * @param deps {api, overview: the page's overview (drawn with the difference), curves, tooltip,
   *             state(): the page's state, go(patch, push): a new state, message(text, error),
   *             loadTrace(id): the settings' trace, sync(): the settings shown, showProgress(progress)}
   */
  constructor(deps) {
    Object.assign(this, deps);
    this.active = false;
    this.last = null; // the last /api/compare answer drawn
    this.seq = 0;
    this.views = {
      base: new OverviewView($('base-overview'), this.tooltip, s => this.#runSelected('base', s)),
      other: new OverviewView($('other-overview'), this.tooltip, s => this.#runSelected('other', s)),
    };
    this.runs = { base: null, other: null }; // the runs' overview answers drawn
    // Only while a pair is shown: a single trace's page keeps the hidden deviations' tooltips.
    this.overview.markTooltip = (d, rank) => this.active && this.last ? differenceTooltip(d, rank, this.last) : null;
    $('differences-list').addEventListener('click', e => {
      const row = e.target.closest('li[data-rank]');
      if (row) this.choose(Number(row.dataset.rank));
      const link = e.target.closest('li[data-link-rank]');
      if (link) this.openGantt({ start: Number(link.dataset.start), end: Number(link.dataset.end), path: null });
    });
  }

  /** Shows the pair the state names: the comparison, then both runs' overviews and, if asked, the Gantt charts. */
  async render(state) {
    this.#enter();
    const seq = ++this.seq;
    try {
      await this.loadTrace(state.other); // the settings' window and metrics are OTHER's
      state = this.state(); // a metric OTHER has no records for was replaced
      this.sync();
      $('busy').hidden = false;
      $('busy-text').textContent = 'comparing…';
      $('overview').classList.add('stale');
      const params = compareParams(state);
      params.set('height', String(Math.max(MIN_HEIGHT, this.overview.plotHeight())));
      params.set('limit', String(LISTED));
      const started = performance.now();
      const r = await this.api.overview(params, p => this.showProgress(p), 'compare');
      if (!r || seq !== this.seq) return;
      r.clientMs = performance.now() - started;
      this.last = r;
      this.#draw(r, state);
      $('overview').classList.remove('stale');
      $('busy').hidden = true;
      this.message('');
      await Promise.all([this.#run('base', r, state, seq), this.#run('other', r, state, seq), this.#gantt(state, seq)]);
    } catch (e) {
      if (seq !== this.seq) return;
      $('busy').hidden = true;
      this.message(e.message, true);
    }
  }

  /** Leaves the pair: the single-trace page's rows come back. */
  leave() {
    if (!this.active) return;
    this.active = false;
    this.last = null;
    this.overview.setOutliers([]);
    document.body.classList.remove('comparing');
    delete $('caption').dataset.compare;
    delete $('caption').dataset.differences;
    for (const id of ['compare-row', 'differences', 'compare-gantt', 'close-compare', 'align-label']) $(id).hidden = true;
    for (const e of singleOnly()) e.hidden = false;
  }

  #enter() {
    if (this.active) return;
    this.active = true;
    document.body.classList.add('comparing');
    for (const id of ['compare-row', 'differences', 'close-compare', 'align-label']) $(id).hidden = false;
    // What a single trace's page offers beyond the comparison stays out of the pair's way.
    for (const e of [...singleOnly(), $('stats'), $('details')]) e.hidden = true;
  }

  /** The difference overview, its curves, legend, ranked list and caption. */
  #draw(r, state) {
    this.overview.show(r);
    this.curves.show(r.curves);
    const c = r.compare;
    const scale = r.timeScale;
    const span = (r.end - r.start) * scale.factor;
    $('legend').innerHTML = r.overview.legend.map(l =>
      `<div><span class="swatch" style="background:${l.colour}"></span>${escapeHtml(l.name)}</div>`).join('')
      + ['colour: the type OTHER gained most', 'opacity = |OTHER − BASE| / largest', 'empty: OTHER lost only',
        ...(c.onlyInBase.length ? [`not compared, BASE only: ${c.onlyInBase.join(', ')}`] : []),
        ...(c.onlyInOther.length ? [`not compared, OTHER only: ${c.onlyInOther.join(', ')}`] : [])]
        .map(n => `<span class="note">${escapeHtml(n)}</span>`).join('');
    $('p-value').textContent = pValue(r.p);
    $('part-count').textContent = `${r.partCount} part${r.partCount === 1 ? '' : 's'} · breakpoint ${r.curves.chosen + 1} of ${r.curves.breakpoints.length}`;
    this.#list(r);
    this.overview.setOutliers(r.differences);
    $('base-title').textContent = `BASE ${c.base.name}: ${windowText(c.baseWindow, c.base)}`;
    $('other-title').textContent = `OTHER ${c.other.name}: ${windowText(c.otherWindow, c.other)}`;
    const caption = $('caption');
    caption.textContent = [`${c.base.name} → ${c.other.name}`, `align ${c.align}`,
      `window ${time(since(r.start, scale), span / r.slices, '')} – ${time(since(r.end, scale), span / r.slices, scale.unit)} of OTHER since its start`,
      `durations ${value(c.baseDuration)} and ${value(c.otherDuration)} ${c.base.unit}`, `N = ${r.slices}`, r.metricLabel,
      `OTHER departs by ${percent(c.departure)}`, `p = ${pValue(r.p)}`, `${r.partCount} part${r.partCount === 1 ? '' : 's'}`,
      `${c.count} difference${c.count === 1 ? '' : 's'}`, r.exact ? 'exact models' : 'APPROXIMATE models',
      `${Math.round(r.clientMs)} ms`].join(' · ');
    delete caption.dataset.hidden;
    delete caption.dataset.provisional;
    Object.assign(caption.dataset, { p: String(r.p), start: String(r.start), end: String(r.end), parts: String(r.partCount),
      leaves: String(r.leaves), slices: String(r.slices), view: 'difference', compare: c.align,
      differences: String(r.differences.length) });
    $('align').value = c.align;
    // The pictures `ocelotl compare --out` draws for the same question, at the p shown.
    const picture = compareParams({ ...state, p: String(r.p) });
    picture.set('token', this.api.token);
    $('export-svg').href = this.api.exportUrl('compare', `${picture}&format=svg`);
    $('export-png').href = this.api.exportUrl('compare', `${picture}&format=png`);
    $('start').value = state.start !== '' ? state.start : String(c.otherWindow[0]);
    $('end').value = state.end !== '' ? state.end : String(c.otherWindow[1]);
  }

  #list(r) {
    const scale = r.timeScale;
    const slice = (r.end - r.start) / r.slices * scale.factor;
    const items = r.differences.map((d, i) => `<li data-rank="${i + 1}" data-score="${d.score}" title="click: both Gantt charts of this window and these producers">`
      + `<div class="who"><span class="rank">${i + 1}</span> ${escapeHtml(who(d))}</div>`
      + `<div>[${time(since(d.start, scale), slice, '')} – ${time(since(d.end, scale), slice, scale.unit)}) of OTHER</div>`
      + (d.kind === 'link' ? `<div>behind ${escapeHtml(d.by)}, whose use departs first</div>`
        + `<div class="hint">score ${value(d.score)} of the links' use (${escapeHtml(d.metric)}) · found by the link</div></li>`
        : `<div>${escapeHtml(d.type)}: ${percent(d.baseShare)} → ${percent(d.otherShare)}</div>`
        + `<div class="hint">score ${value(d.score)} · ${d.kind === 'part' ? 'a part of the overview' : 'hidden in a part'}</div></li>`)).join('');
    $('differences-list').dataset.count = String(r.differences.length);
    // The links' list first where it is given: the states' first differences are then everyone's stall.
    $('differences-list').innerHTML = (r.links ? this.#links(r.links, scale, slice) : '')
      + `<p class="hint">${r.compare.count} difference${r.compare.count === 1 ? '' : 's'},`
      + ` the first ${r.differences.length}, ${r.differences[0]?.kind === 'link'
        ? 'the site behind the link whose use departs first, then by score' : 'highest score first'}`
      + ` (marked by number on the overview). Click one: both runs'`
      + ' Gantt charts of its window and producers.</p>'
      + (items ? `<ol>${items}</ol>` : '<p>No difference: OTHER is BASE over this window.</p>');
  }

  /**
   * Where the states' first difference is a stall of every producer, the same runs compared by the
   * links' use (the API's `links`, decisions 044 and 060): which link departs, when. A click opens
   * both Gantt charts of its window.
   */
  #links(links, scale, slice) {
    const items = links.differences.slice(0, 5).map((d, i) => `<li data-link-rank="${i + 1}" data-score="${d.score}"`
      + ` data-start="${d.start}" data-end="${d.end}" title="click: both Gantt charts of this window">`
      + `<div class="who"><span class="rank">${i + 1}</span> ${escapeHtml(d.producer)}</div>`
      + `<div>[${time(since(d.start, scale), slice, '')} – ${time(since(d.end, scale), slice, scale.unit)}) of OTHER</div>`
      + `<div class="hint">score ${value(d.score)}</div></li>`).join('');
    return `<p class="hint" id="links-hint">The states' first difference (below) is every producer's: a stall all ranks wait on, when but not who.`
      + ` By the links' use (${escapeHtml(links.metric)} of ${links.types.map(escapeHtml).join(', ')}), ${links.count}`
      + ` difference${links.count === 1 ? '' : 's'}, the first:</p>`
      + (items ? `<ol id="links-list">${items}</ol>` : '<p>No difference in the links\' use.</p>');
  }

  /** One run's own overview over the window the comparison matched, at the comparison's p and producer depth. */
  async #run(which, r, state, seq) {
    const view = this.views[which];
    const c = r.compare;
    const window = which === 'base' ? c.baseWindow : c.otherWindow;
    const q = new URLSearchParams({ trace: c[which].id, metric: r.metric, aggregation: 'spatiotemporal', view: 'mode',
      slices: String(r.slices), depth: String(r.producerDepth), start: String(window[0]), end: String(window[1]),
      p: String(r.p), height: String(view.plotHeight()) });
    for (const [key, list] of [['include', state.include], ['exclude', state.exclude], ['xkinds', state.xkinds], ['xtypes', state.xtypes]]) {
      if (list.length) q.set(key, list.join('|'));
    }
    if (state.exact) q.set('exact', state.exact);
    view.canvas.classList.add('stale');
    const answer = await retried(() => this.api.get('overview', q));
    if (seq !== this.seq) return;
    this.runs[which] = answer;
    view.show(answer);
    view.canvas.classList.remove('stale');
    Object.assign(view.canvas.dataset, { p: String(answer.p), parts: String(answer.partCount), start: String(answer.start),
      end: String(answer.end) });
    $(`${which}-parts`).textContent = `${answer.partCount} part${answer.partCount === 1 ? '' : 's'} at p = ${pValue(answer.p)}`;
  }

  /** A selection on one run's view: the same fraction of the window (and producer) on the other two. */
  #runSelected(which, s) {
    if (!s) return; // a run's view clears its own selection when redrawn; the page's stays
    const o = this.runs[which];
    const span = o.end - o.start;
    this.overview.select((s.start - o.start) / span, (s.end - o.start) / span, s.producer?.path || null, true);
  }

  /** The page's selection (on the difference overview, or relayed to it): drawn on both runs' views. */
  selected(s) {
    if (!this.active) return;
    for (const which of ['base', 'other']) {
      const o = this.runs[which];
      if (!s || !o || !this.last) { this.views[which].select(null); continue; }
      const span = this.last.end - this.last.start;
      this.views[which].select((s.start - this.last.start) / span, (s.end - this.last.start) / span, s.producer?.path || null, false);
    }
  }

  /** The difference of rank (1-based) chosen, in the list or on the overview: both Gantt charts. */
  choose(rank) {
    const d = this.last?.differences[rank - 1];
    if (!d) return;
    for (const li of $('differences-list').querySelectorAll('li[data-rank]')) li.classList.toggle('picked', Number(li.dataset.rank) === rank);
    this.openGantt({ start: d.start, end: d.end, path: d.node === 0 ? null : d.producer });
  }

  /** Both runs' Gantt charts of a window of OTHER's time and a producer subtree (null: the pair's producers). */
  openGantt(w) {
    const state = this.state();
    this.go({ gantt: '1', gfrom: String(w.start), gto: String(w.end), gproducers: w.path ? [w.path] : state.include }, true);
  }

  /**
   * The Gantt charts the state asks for: OTHER's over [gfrom, gto), BASE's over the window the align
   * matches with it, one above the other; none without gantt.
   */
  async #gantt(state, seq) {
    const box = $('compare-gantt');
    if (!state.gantt || !this.last) { box.hidden = true; this.#split(); return; }
    box.hidden = false;
    this.#split();
    const c = this.last.compare;
    const from = Number(state.gfrom), to = Number(state.gto);
    const scale = (c.baseWindow[1] - c.baseWindow[0]) / (c.otherWindow[1] - c.otherWindow[0]);
    const windows = { other: [from, to],
      base: [c.baseWindow[0] + (from - c.otherWindow[0]) * scale, c.baseWindow[0] + (to - c.otherWindow[0]) * scale] };
    const who = state.gproducers.length ? state.gproducers.join(', ') : 'all producers';
    box.innerHTML = `<div class="details-head"><strong>Gantt charts</strong> <span>${escapeHtml(who)}</span>`
      + '<button type="button" id="compare-gantt-close" title="close the Gantt charts">Close</button></div>'
      + ['base', 'other'].map(which => `<div class="gantt-run" id="gantt-${which}" data-trace="${escapeHtml(c[which].id)}"`
        + ` data-from="${windows[which][0]}" data-to="${windows[which][1]}"><div class="run-title">${which.toUpperCase()}`
        + ` ${escapeHtml(c[which].name)}: ${escapeHtml(windowText(windows[which], c[which]))}</div>`
        + '<div class="gantt-chart">loading the Gantt chart…</div></div>').join('');
    $('compare-gantt-close').addEventListener('click', () => this.go({ gantt: '', gfrom: '', gto: '', gproducers: [] }, true));
    await Promise.all(['base', 'other'].map(async which => {
      const q = new URLSearchParams({ trace: c[which].id, from: String(windows[which][0]), to: String(windows[which][1]),
        format: 'svg', height: String(GANTT_HEIGHT) });
      if (state.gproducers.length) q.set('producers', state.gproducers.join('|'));
      if (state.xtypes.length) q.set('xtypes', state.xtypes.join('|'));
      const chart = $(`gantt-${which}`).querySelector('.gantt-chart');
      q.set('width', String(Math.max(600, Math.round(chart.clientWidth || 1000))));
      try {
        const response = await fetch(`/api/gantt?${q}`, { headers: { 'X-Ocelotl-Token': this.api.token } });
        const text = await response.text();
        if (!response.ok) throw new Error(JSON.parse(text).error);
        if (seq === this.seq) chart.innerHTML = text; // the server's SVG: its marks carry <title>s with their records
      } catch (e) {
        if (seq === this.seq) chart.textContent = `Gantt chart: ${e.message}`;
      }
    }));
  }

  /** The details' part of the height: shown with the Gantt charts, at first a little under half. */
  #split() {
    const open = !$('compare-gantt').hidden;
    if (open && $('below').hidden) $('below').style.height = `${Math.round($('work').clientHeight * 0.42)}px`;
    $('below').hidden = $('split').hidden = !open;
  }
}

/** The API parameters of a comparison: the pair, the model's settings, the window (OTHER's), the align and p. */
export function compareParams(state) {
  const q = new URLSearchParams({ base: state.base, other: state.other });
  for (const key of ['metric', 'slices', 'depth', 'start', 'end', 'exact', 'time', 'align', 'p']) {
    if (state[key] !== '' && state[key] !== undefined) q.set(key, String(state[key]));
  }
  for (const key of ['include', 'exclude', 'xkinds', 'xtypes']) {
    if (state[key].length) q.set(key, state[key].join('|'));
  }
  return q;
}

/**
 * What only one trace's page offers: its hidden deviations, the spatial views, another trace to
 * pair, the aggregation and view (a comparison is spatiotemporal), statistics, saved selections
 * (a comparison takes none) and the overview's CSV exports (its SVG and PNG links draw the difference).
 */
function singleOnly() {
  return [$('outliers'), $('panels'), $('compare-with'), $('aggregation').closest('label'), $('view').closest('label'),
    $('open-stats'), $('selections').closest('section'), $('export-csv'), $('export-parts')];
}

function who(d) {
  return d.node === 0 ? 'all producers' : d.producer;
}

/** A window of a run, since its start. */
function windowText(w, trace) {
  const span = w[1] - w[0];
  return `${time(w[0] - trace.origin, span / 100, '')} – ${time(w[1] - trace.origin, span / 100, trace.unit)}`;
}

function differenceTooltip(d, rank, r) {
  const scale = r.timeScale;
  const slice = (r.end - r.start) / r.slices * scale.factor;
  return `<div><strong style="color:${OUTLIER_INK}">difference ${rank}</strong> (click: both Gantt charts)</div>`
    + `<div>${escapeHtml(who(d))}</div>`
    + `<div>${time(since(d.start, scale), slice, '')} – ${time(since(d.end, scale), slice, scale.unit)} of OTHER</div>`
    + (d.kind === 'link' ? `<div>behind ${escapeHtml(d.by)}, whose use departs first</div>`
      + `<div>score ${value(d.score)} of the links' use (${escapeHtml(d.metric)})</div>`
      : `<div>${escapeHtml(d.type)}: ${percent(d.baseShare)} in BASE → ${percent(d.otherShare)} in OTHER</div>`
      + `<div>score ${value(d.score)}</div>`);
}

/** An answer, asked again while the server says it is busy (503: as many computations as it may run). */
async function retried(ask) {
  for (let attempt = 0; ; attempt++) {
    try {
      return await ask();
    } catch (e) {
      if (e.status !== 503 || attempt >= 60) throw e;
      await new Promise(ok => setTimeout(ok, 1000));
    }
  }
}
