// Details on demand: the Gantt chart (drawn by the server from the same geometry as `ocelotl
// gantt`, inlined so that each mark's title shows its record) and the event table of the
// selection the analyst opened, both from the store, a page at a time, both keeping the types
// the view keeps. The table's times read as the chart's axis: since the trace's start, in the
// unit the server chose for the window (the answer's timeScale).
import { escapeHtml, value, since, time } from './format.js';

const COLUMNS = ['kind', 'producer', 'type', 'start', 'end', 'duration', 'value'];
/** The columns that hold times: their heads carry the unit. */
const TIMES = ['start', 'end', 'duration'];
/** The columns of a sequence's occurrences (docs/analysis.md#sequences): what they sort by. */
const SEQUENCE_COLUMNS = ['producer', 'start', 'end', 'duration'];
/** The kinds of records the chart can draw, and what its checkboxes call them. */
const CHART_KINDS = [['state', 'states'], ['event', 'events'], ['link', 'link arrows'], ['variable', 'variables']];

export class DetailsView {
  /** onCentre(from, to): the user asked to see a record: the chart's window around it. */
  constructor(box, api, onCentre) {
    this.box = box;
    this.api = api;
    this.onCentre = onCentre;
    this.sort = '-duration';
    this.offset = 0;
    this.match = '';
    this.kind = 'state';
    // The duration bounds in the trace's unit ('' for none): typed in the table's, which follows the window.
    this.minDuration = '';
    this.maxDuration = '';
    // A sequence of types (comma-separated): the table lists its occurrences instead of records.
    this.sequence = '';
    this.within = ''; // in the trace's unit, typed in the table's as the duration bounds are
    // The chart's kinds: states, events and links by default (the server's), variables on demand.
    this.chartKinds = new Set(['state', 'event', 'link']);
    this.scale = null; // the table's time scale, from its last answer
    // Each request numbered: an answer is shown only if no later request of its kind was sent,
    // for two quick changes (a sequence, then its bound) may be answered out of order.
    this.asked = { gantt: 0, table: 0 };
    box.addEventListener('click', e => this.#click(e));
    box.addEventListener('change', e => {
      const id = e.target.id;
      if (e.target.dataset.chartKind) {
        if (e.target.checked) this.chartKinds.add(e.target.dataset.chartKind);
        else this.chartKinds.delete(e.target.dataset.chartKind);
        this.#gantt();
        return;
      }
      if (id === 'events-match') this.match = e.target.value;
      else if (id === 'events-kind') this.kind = e.target.value;
      else if (id === 'events-min') this.minDuration = this.#traceDuration(e.target.value);
      else if (id === 'events-max') this.maxDuration = this.#traceDuration(e.target.value);
      else if (id === 'events-sequence') this.#setSequence(e.target.value);
      else if (id === 'events-within') this.within = this.#traceDuration(e.target.value);
      else return;
      this.offset = 0;
      this.#table();
    });
  }

  /**
   * Shows the details of {trace, gfrom, gto, gproducers} without the types the view leaves out
   * (xtypes); hides them when gantt is not set.
   */
  async show(state) {
    if (!state.gantt || !state.trace) { this.box.hidden = true; this.key = null; return; }
    const key = [state.trace, state.gfrom, state.gto, state.gproducers.join('|'), state.xtypes.join('|')].join(' ');
    this.box.hidden = false;
    if (key === this.key) return;
    this.key = key;
    this.state = state;
    this.offset = 0;
    this.box.innerHTML = `<div class="details-head"><strong>Details</strong> <span id="details-what"></span>
      <button type="button" id="details-close" title="close the details">Close</button></div>
      <div class="hint gantt-kinds">in the chart: ${CHART_KINDS.map(([kind, label]) => `<label><input type="checkbox"
        id="gantt-${kind}s" data-chart-kind="${kind}"${this.chartKinds.has(kind) ? ' checked' : ''}> ${label}</label>`).join(' ')}
        <span>(variables: a step line in their producer's row)</span></div>
      <div id="gantt-box">loading the Gantt chart…</div>
      <div id="gantt-pinned" class="hint">hover a mark for its record; click it to pin it here</div>
      <div class="events-controls"><label>records <select id="events-kind">${['state', 'event', 'link', 'variable',
        'state|event|link|variable'].map(k => `<option value="${k}"${k === this.kind ? ' selected' : ''}>${k.includes('|') ? 'all' : k + 's'}</option>`).join('')}</select></label>
        <label>match <input id="events-match" type="text" value="${escapeHtml(this.match)}"
        placeholder="regular expression" spellcheck="false"></label>
        <label>duration ≥ <input id="events-min" type="number" min="0" step="any"></label>
        <label>≤ <input id="events-max" type="number" min="0" step="any">
        <span class="events-unit"></span></label>
        <label title="types in order, comma-separated: where they occur as consecutive records of a producer">sequence
        <input id="events-sequence" type="text" value="${escapeHtml(this.sequence)}" placeholder="A,B,…" spellcheck="false"></label>
        <label>within <input id="events-within" type="number" min="0" step="any"> <span class="events-unit"></span></label>
        <button type="button" id="events-save-sequence" title="save the occurrences as a selection: the producers where the sequence occurs, the window spanning them"${this.sequence ? '' : ' hidden'}>Save as selection</button>
        <button type="button" data-page="-1">◀</button><span id="events-page"></span><button type="button" data-page="1">▶</button></div>
      <div id="events-box"></div>`;
    this.box.querySelector('#details-what').textContent = `${state.gproducers.length ? state.gproducers.join(', ') : 'all producers'}`
      + ` · [${state.gfrom}, ${state.gto})${state.xtypes.length ? ` · without ${state.xtypes.join(', ')}, as the view` : ''}`;
    await Promise.all([this.#gantt(), this.#table()]);
  }

  #params() {
    const q = new URLSearchParams({ trace: this.state.trace, from: this.state.gfrom, to: this.state.gto });
    if (this.state.gproducers.length) q.set('producers', this.state.gproducers.join('|'));
    if (this.state.xtypes.length) q.set('xtypes', this.state.xtypes.join('|'));
    return q;
  }

  async #gantt() {
    const box = this.box.querySelector('#gantt-box');
    const q = this.#params();
    q.set('format', 'svg');
    const kinds = CHART_KINDS.map(([kind]) => kind).filter(kind => this.chartKinds.has(kind));
    if (!kinds.length) { box.textContent = 'Gantt chart: no kind of record chosen above.'; return; }
    q.set('kind', kinds.join('|'));
    q.set('width', String(Math.max(600, Math.round(box.clientWidth || 1000))));
    q.set('height', '420');
    const asked = ++this.asked.gantt;
    try {
      const response = await fetch(`/api/gantt?${q}`, { headers: { 'X-Ocelotl-Token': this.api.token } });
      const text = await response.text();
      if (asked !== this.asked.gantt) return;
      if (!response.ok) throw new Error(JSON.parse(text).error);
      box.innerHTML = text; // the server's SVG: its marks carry <title>s with their records
    } catch (e) {
      if (asked === this.asked.gantt) box.textContent = `Gantt chart: ${e.message}`;
    }
  }

  /** A sequence typed: the occurrences' table sorts by what occurrences have (start, end, duration, producer). */
  #setSequence(typed) {
    this.sequence = typed.split(',').map(t => t.trim()).filter(t => t).join(',');
    if (this.sequence && !SEQUENCE_COLUMNS.includes(this.sort.replace(/^-/, ''))) this.sort = 'start';
    this.box.querySelector('#events-save-sequence').hidden = !this.sequence;
  }

  async #table() {
    const asked = ++this.asked.table;
    if (this.sequence) return this.#occurrences(asked);
    const q = this.#params();
    q.set('kind', this.kind);
    q.set('sort', this.sort);
    q.set('offset', String(this.offset));
    q.set('limit', '100');
    if (this.match) q.set('match', this.match);
    if (this.minDuration !== '') q.set('min_duration', String(this.minDuration));
    if (this.maxDuration !== '') q.set('max_duration', String(this.maxDuration));
    const box = this.box.querySelector('#events-box');
    try {
      const page = await this.api.get('events', q);
      if (asked !== this.asked.table) return;
      const scale = this.scale = page.timeScale;
      this.box.querySelector('#events-page').textContent =
        ` ${page.total === 0 ? 0 : this.offset + 1}–${this.offset + page.records.length} of ${page.total} `;
      for (const u of this.box.querySelectorAll('.events-unit')) u.textContent = scale.unit;
      // The bounds read in this window's unit (another window may have another).
      const shown = d => d === '' ? '' : String(Number((d * scale.factor).toPrecision(12)));
      this.box.querySelector('#events-min').value = shown(this.minDuration);
      this.box.querySelector('#events-max').value = shown(this.maxDuration);
      const head = COLUMNS.map(c => {
        const arrow = this.sort === c ? ' ▲' : this.sort === `-${c}` ? ' ▼' : '';
        return `<th data-sort="${c}" title="sort by ${c}">${c}${TIMES.includes(c) ? ` (${escapeHtml(scale.unit)})` : ''}${arrow}</th>`;
      }).join('');
      // Times since the start to a thousandth of the window or finer: records a pixel apart differ.
      const span = (page.to - page.from) * scale.factor / 100;
      const rows = page.records.map((r, i) => `<tr data-row="${i}" title="click: centre the chart on it">`
        + `<td>${r.kind}</td><td>${escapeHtml(r.producer)}${r.to ? ' → ' + escapeHtml(r.to) : ''}</td>`
        + `<td>${escapeHtml(r.type)}</td><td class="num">${time(since(r.start, scale), span, '')}</td>`
        + `<td class="num">${time(since(r.end, scale), span, '')}</td>`
        + `<td class="num">${value(r.duration * scale.factor)}</td>`
        + `<td class="num" title="a variable's value; a link's volume">${r.value === undefined ? '' : value(r.value)}</td></tr>`).join('');
      box.innerHTML = `<table id="events-table"><thead><tr>${head}</tr></thead><tbody>${rows}</tbody></table>`;
      this.records = page.records;
    } catch (e) {
      if (asked === this.asked.table) box.textContent = `Event table: ${e.message}`;
    }
  }

  /** The occurrences of the sequence (GET /api/events?sequence=…), a page at a time. */
  async #occurrences(asked) {
    const q = this.#params();
    q.set('sequence', this.sequence.split(',').join('|'));
    q.set('sort', this.sort);
    q.set('offset', String(this.offset));
    q.set('limit', '100');
    if (this.match) q.set('match', this.match);
    if (this.minDuration !== '') q.set('min_duration', String(this.minDuration));
    if (this.maxDuration !== '') q.set('max_duration', String(this.maxDuration));
    if (this.within !== '') q.set('within', String(this.within));
    const box = this.box.querySelector('#events-box');
    try {
      const page = await this.api.get('events', q);
      if (asked !== this.asked.table) return;
      const scale = this.scale = page.timeScale;
      this.box.querySelector('#events-page').textContent = ` ${page.total === 0 ? 0 : this.offset + 1}–`
        + `${this.offset + page.occurrences.length} of ${page.total} occurrences on ${page.producers} producers `;
      for (const u of this.box.querySelectorAll('.events-unit')) u.textContent = scale.unit;
      const shown = d => d === '' ? '' : String(Number((d * scale.factor).toPrecision(12)));
      this.box.querySelector('#events-within').value = shown(this.within);
      const head = SEQUENCE_COLUMNS.map(c => {
        const arrow = this.sort === c ? ' ▲' : this.sort === `-${c}` ? ' ▼' : '';
        return `<th data-sort="${c}" title="sort by ${c}">${c}${TIMES.includes(c) ? ` (${escapeHtml(scale.unit)})` : ''}${arrow}</th>`;
      }).join('') + '<th>steps</th>';
      const span = (page.to - page.from) * scale.factor / 100;
      const rows = page.occurrences.map((o, i) => `<tr data-row="${i}" title="click: centre the chart on it">`
        + `<td>${escapeHtml(o.producer)}</td><td class="num">${time(since(o.start, scale), span, '')}</td>`
        + `<td class="num">${time(since(o.end, scale), span, '')}</td><td class="num">${value(o.duration * scale.factor)}</td>`
        + `<td>${o.steps.map(s => `${escapeHtml(s.type)} @ ${time(since(s.start, scale), span, '')}`).join(' → ')}</td></tr>`).join('');
      box.innerHTML = `<table id="events-table" class="occurrences"><thead><tr>${head}</tr></thead><tbody>${rows}</tbody></table>`;
      this.records = page.occurrences;
    } catch (e) {
      if (asked === this.asked.table) box.textContent = `Occurrences: ${e.message}`;
    }
  }

  /** Saves the occurrences as a selection (docs/selections.md, the sequence rule). */
  async #saveSequence() {
    const name = prompt('Name of the selection of the occurrences (letters, digits, ._:+-):');
    if (!name) return;
    const rule = { kind: 'sequence', types: this.sequence.split(','), longest: this.within === '' ? null : this.within };
    const body = { name, from: Number(this.state.gfrom), to: Number(this.state.gto), producers: this.state.gproducers, rule };
    const head = this.box.querySelector('#details-what');
    try {
      const saved = await this.api.post(`selections?trace=${encodeURIComponent(this.state.trace)}`, body);
      head.textContent = `saved selection ${saved.name}: ${saved.producers.length} producers, [${saved.from}, ${saved.to})`;
      document.dispatchEvent(new CustomEvent('ocelotl-selection-saved'));
    } catch (e) {
      head.textContent = `not saved: ${e.message}`;
    }
  }

  /** A duration typed in the table's unit, in the trace's ('' for none). */
  #traceDuration(typed) {
    return typed.trim() === '' ? '' : Number(typed) / (this.scale ? this.scale.factor : 1);
  }

  #click(e) {
    if (e.target.id === 'details-close') { this.onCentre(null); return; }
    if (e.target.id === 'events-save-sequence') { this.#saveSequence(); return; }
    const mark = e.target.closest('#gantt-box svg *');
    const title = mark && mark.querySelector(':scope > title');
    if (title) { this.box.querySelector('#gantt-pinned').textContent = `pinned: ${title.textContent}`; return; }
    const th = e.target.closest('th[data-sort]');
    if (th) {
      const c = th.dataset.sort;
      this.sort = this.sort === c ? `-${c}` : c;
      this.offset = 0;
      this.#table();
      return;
    }
    const step = e.target.closest('button[data-page]');
    if (step) {
      this.offset = Math.max(0, this.offset + 100 * Number(step.dataset.page));
      this.#table();
      return;
    }
    const tr = e.target.closest('tr[data-row]');
    if (tr && this.records) {
      const r = this.records[Number(tr.dataset.row)];
      const margin = Math.max(r.end - r.start, (Number(this.state.gto) - Number(this.state.gfrom)) / 100) * 2;
      this.onCentre(r.start - margin, r.end + margin);
    }
  }
}
