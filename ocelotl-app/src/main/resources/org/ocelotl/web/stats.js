// Statistics on demand: per type of the selection (an aggregate, a drag, or the window shown) its
// total, share (drawn as a bar), records and state durations; per producer for the type picked,
// the top ten and the rest; the density of records over the window, over a time axis. All from
// GET /api/stats, the bytes of `ocelotl stats`. One unit for the panel: times and durations read
// in the answer's timeScale (since the trace's start, a unit that suits the window), as the
// overview's and the Gantt chart's axes do.
import { escapeHtml, value, percent, niceTicks, since } from './format.js';

const TOP = 10;
const DURATIONS = ['min', 'mean', 'median', 'p90', 'p99', 'max'];

export class StatsView {
  /**
   * onClose(): the user closed the panel; onHighlight(path or null): a producer row is hovered;
   * colourOf(type name): the type's colour in the overview.
   */
  constructor(box, api, onClose, onHighlight, colourOf) {
    this.box = box;
    this.api = api;
    this.onClose = onClose;
    this.onHighlight = onHighlight;
    this.colourOf = colourOf;
    box.addEventListener('click', e => this.#click(e));
    box.addEventListener('mouseover', e => {
      const row = e.target.closest('tr[data-producer]');
      this.onHighlight(row && row.dataset.producer !== '' ? row.dataset.producer : null);
    });
    box.addEventListener('mouseleave', () => this.onHighlight(null));
  }

  /** Shows the statistics of {trace, sfrom, sto, sproducers}; hides them when stats is not set. */
  async show(state) {
    if (!state.stats || !state.trace) { this.box.hidden = true; this.key = null; return; }
    const key = [state.trace, state.sfrom, state.sto, state.sproducers.join('|'), state.time].join(' ');
    this.box.hidden = false;
    if (key === this.key) return;
    this.key = key;
    this.box.innerHTML = `<div class="details-head"><strong>Statistics</strong> <span id="stats-what"></span>
      <button type="button" id="stats-close" title="close the statistics">Close</button></div>
      <div id="stats-box">computing the statistics…</div>`;
    this.box.querySelector('#stats-what').textContent = `${state.sproducers.length ? state.sproducers.join(', ')
      : 'all producers'} · [${state.sfrom}, ${state.sto})`;
    const q = new URLSearchParams({ trace: state.trace, from: state.sfrom, to: state.sto, by: 'producer',
      top: String(TOP) });
    if (state.sproducers.length) q.set('producers', state.sproducers.join('|'));
    if (state.time) q.set('time', state.time); // the settings' state time, as the overview's
    try {
      const stats = await this.api.get('stats', q);
      if (key !== this.key) return; // another selection was opened meanwhile
      this.stats = stats;
      this.picked = stats.types.length ? stats.types[0].type : null;
      this.#draw();
    } catch (e) {
      this.box.querySelector('#stats-box').textContent = `Statistics: ${e.message}`;
    }
  }

  #draw() {
    const s = this.stats;
    const box = this.box.querySelector('#stats-box');
    if (!s.types.length) { box.textContent = 'No record in this selection.'; return; }
    const dominant = s.types[0];
    const scale = s.timeScale;
    const head = `<tr><th>type</th><th>kind</th><th class="num">total</th><th>share of its kind</th>`
      + `<th class="num">records</th>${DURATIONS.map(d => `<th class="num">${d}</th>`).join('')}</tr>`;
    const rows = s.types.map(t => `<tr data-type="${escapeHtml(t.type)}"${t.type === this.picked ? ' class="picked"' : ''}
        title="click: its producers below">`
      + `<td><span class="swatch" style="background:${this.colourOf(t.type)}"></span> ${escapeHtml(t.type)}</td>`
      + `<td>${t.kind}</td><td class="num">${total(t, scale)}</td><td>${shareBar(t.share, this.colourOf(t.type))}</td>`
      + `<td class="num">${t.records.toLocaleString('en-US')}</td>${durations(t, scale)}</tr>`).join('');
    box.innerHTML = `<p id="stats-dominant">${dominantText(dominant, s.time)} · ${s.records.toLocaleString('en-US')} records</p>
      <div class="stats-density"><span class="hint">records per ${value(s.density.width * scale.factor)} ${escapeHtml(scale.unit)}, by start</span>
        ${densityChart(s.density.counts)}${densityAxis(s.from, s.to, scale)}</div>
      <table id="stats-types" class="stats-table"><thead>${head}</thead><tbody>${rows}</tbody></table>
      <p class="hint">durations of states in ${escapeHtml(scale.unit)}, unclipped; quantiles exact (nearest rank); click a type for its producers</p>
      <div id="stats-producers"></div>`;
    this.#producers();
  }

  #producers() {
    const t = this.stats.types.find(x => x.type === this.picked);
    const box = this.box.querySelector('#stats-producers');
    if (!t) { box.innerHTML = ''; return; }
    const rows = t.groups.map(g => {
      const others = g.producer === '(others)';
      return `<tr data-producer="${others ? '' : escapeHtml(g.producer)}"${others ? '' : ' title="hover: where it is in the overview"'}>`
        + `<td>${escapeHtml(g.producer)}${others ? ` (${g.merged} producers)` : ''}</td>`
        + `<td class="num">${total(g, this.stats.timeScale, t.kind)}</td><td>${shareBar(g.share, this.colourOf(t.type))}</td>`
        + `<td class="num">${g.records.toLocaleString('en-US')}</td>${durations(g, this.stats.timeScale)}</tr>`;
    }).join('');
    box.innerHTML = `<h3>${escapeHtml(t.type)} per producer${t.groups.length > TOP ? `, the ${TOP} largest` : ''}</h3>
      <table id="stats-groups" class="stats-table"><thead><tr><th>producer</th><th class="num">total</th><th>share of the type</th>
      <th class="num">records</th>${DURATIONS.map(d => `<th class="num">${d}</th>`).join('')}</tr></thead><tbody>${rows}</tbody></table>`;
  }

  #click(e) {
    if (e.target.id === 'stats-close') { this.onHighlight(null); this.onClose(); return; }
    const row = e.target.closest('tr[data-type]');
    if (row) {
      this.picked = row.dataset.type;
      for (const r of this.box.querySelectorAll('#stats-types tr[data-type]')) r.classList.toggle('picked', r === row);
      this.#producers();
    }
  }
}

// States' time is exclusive unless the request asked for inclusive (nested states counted again).
function dominantText(t, time) {
  const what = { state: `of the ${time} state time`, link: 'of the link time', event: 'of the events', variable: '' }[t.kind];
  return t.share === null ? `${escapeHtml(t.type)}: mean ${value(t.total)}`
    : `Dominant ${t.kind} type: <strong>${escapeHtml(t.type)}</strong>, <strong id="stats-share">${percent(t.share)}</strong> ${what}`;
}

function total(row, scale, kind = row.kind) {
  if (row.total === null) return '–';
  if (kind === 'event') return row.total.toLocaleString('en-US');
  if (kind === 'variable') return `mean ${value(row.total)}`;
  return `${value(row.total * scale.factor)} ${escapeHtml(scale.unit)}`;
}

function shareBar(share, colour) {
  if (share === null) return '';
  return `<span class="share-bar"><span style="width:${(100 * share).toFixed(2)}%;background:${colour}"></span></span> ${percent(share)}`;
}

function durations(row, scale) {
  return DURATIONS.map(d => `<td class="num">${row.durations ? value(row.durations[d] * scale.factor) : ''}</td>`).join('');
}

/** The density's time axis: ticks since the trace's start under the bars, and its unit. */
function densityAxis(from, to, scale) {
  const ticks = niceTicks(since(from, scale), since(to, scale), 8);
  return `<div id="stats-axis" class="stats-axis">${ticks.map(t =>
    `<span style="left:${(100 * t.at).toFixed(3)}%">${t.label}</span>`).join('')}</div>
    <div class="hint stats-axis-title">time since the trace's start (${escapeHtml(scale.unit)})</div>`;
}

/** The density as a row of bars, one per bucket, scaled to the fullest. */
function densityChart(counts) {
  const max = Math.max(1, ...counts);
  const w = 100 / counts.length;
  const bars = counts.map((c, k) => `<rect x="${(k * w).toFixed(3)}" y="${(40 * (1 - c / max)).toFixed(2)}" width="${(w * 0.9).toFixed(3)}"
    height="${(40 * c / max).toFixed(2)}"><title>${c.toLocaleString('en-US')} records</title></rect>`).join('');
  return `<svg id="stats-density" viewBox="0 0 100 40" preserveAspectRatio="none" aria-label="records per time bucket">${bars}</svg>`;
}
