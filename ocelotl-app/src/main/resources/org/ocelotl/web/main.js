// The page: settings, overview, curves, filters, zoom history, all driven by the state in the
// URL. Every user action becomes a new state; the state is written to the URL (a zoom or a
// filter is a history entry, a change of p replaces the current one) and then drawn.
import { Api } from './api.js';
import * as S from './state.js';
import { OverviewView } from './overview.js';
import { CurvesView } from './curves.js';
import { TreemapView } from './treemap.js';
import { TopologyView } from './topology.js';
import { ProducerFilter, TypeFilter } from './filters.js';
import { time, pValue, percent, escapeHtml } from './format.js';

const $ = id => document.getElementById(id);
const token = S.token(location.search);
const api = new Api(token);
let state = S.fromUrl(location.search);
let trace = null;         // {id, name, start, end, unit, …} of the current trace
let traceData = { id: null, producers: [], types: [] };
let last = null;          // the last overview response drawn
let selection = null;     // {start, end, producer}
let filterTimer = null;

const overview = new OverviewView($('overview'), $('tooltip'), s => {
  selection = s;
  $('zoom').disabled = !s;
  $('selection').textContent = s ? selectionText(s) : 'Drag on the overview to select a time range'
    + (state.aggregation === 'spatiotemporal' ? ' × producers.' : '.');
});
const treemap = new TreemapView($('treemap'), $('tooltip'),
  cell => go({ ...state, panel: '', include: cell.node === 0 ? [] : [cell.path], p: '' }, true));
const topology = new TopologyView($('topology'), $('tooltip'), node => {
  // A collapsed group expands; any other node collapses its parent group.
  const parent = node.path.includes('/') ? node.path.slice(0, node.path.lastIndexOf('/')) : '';
  const toggle = node.aggregate ? `+${node.path}` : `-${parent}`;
  go({ ...state, toggles: [...state.toggles, toggle] }, true);
}, node => go({ ...state, panel: '', include: node.node === 0 ? [] : [node.path], p: '' }, true));
let treemapSeq = 0;
let playing = null; // the timer of the next time step while the time control plays
const curves = new CurvesView($('curves'), p => setP(p));
const producers = new ProducerFilter($('producers'), $('levels'), exclude => filtersChanged({ exclude }));
const types = new TypeFilter($('types'), xtypes => filtersChanged({ xtypes }));

function message(text, error = false) {
  $('message').textContent = text;
  $('message').classList.toggle('error', error);
  $('message').title = text;
}

function selectionText(s) {
  const span = s.end - s.start;
  return `Selected ${time(s.start, span / 100, '')} – ${time(s.end, span / 100, trace?.unit || '')}`
    + (s.producer ? ` on ${s.producer.path || 'all producers'}` : '') + '. Press Enter or “Zoom in”.';
}

/** Makes `next` the state: writes the URL (push = a new history entry) and draws it. */
function go(next, push) {
  state = next;
  const url = `${location.pathname}?${S.toQuery(state, token)}`;
  if (push) history.pushState(null, '', url); else history.replaceState(null, '', url);
  render();
}

function setP(p) {
  go({ ...state, p: pValue(p) }, false);
}

function filtersChanged(patch) {
  clearTimeout(filterTimer);
  // Several quick clicks in the tree make one request, not one each.
  filterTimer = setTimeout(() => go({ ...state, ...patch, p: '' }, true), 350);
}

/**
 * A time rounded to about 1/100 000 of the span: zoom windows read well in the URL and the
 * fields, and no analyst can select finer than that with a mouse.
 */
function roundTime(t, span) {
  const digits = Math.max(0, Math.min(15, 5 - Math.floor(Math.log10(span))));
  return Number(t.toFixed(digits));
}

function syncControls() {
  $('metric').value = state.metric;
  $('aggregation').value = state.aggregation;
  $('view').innerHTML = S.VIEWS[state.aggregation].map(v => `<option value="${v}">${v}</option>`).join('');
  $('view').value = state.view;
  $('slices').value = state.slices;
  $('exact').checked = state.exact === 'true';
  $('start').value = state.start !== '' ? state.start : trace ? trace.start : '';
  $('end').value = state.end !== '' ? state.end : trace ? trace.end : '';
  $('unit').textContent = trace ? trace.unit : '';
  $('trace').value = state.trace;
  producers.setExcluded(state.exclude);
}

function settingsFromControls() {
  const aggregation = $('aggregation').value;
  let view = $('view').value;
  if (!S.VIEWS[aggregation].includes(view)) view = S.VIEWS[aggregation][0];
  const start = $('start').value.trim();
  const end = $('end').value.trim();
  const atBounds = (v, bound) => trace && Number(v) === Number(bound);
  return { ...state, metric: $('metric').value, aggregation, view, slices: $('slices').value.trim(),
    exact: $('exact').checked ? 'true' : '',
    start: atBounds(start, trace?.start) ? '' : start, end: atBounds(end, trace?.end) ? '' : end };
}

async function loadTraces() {
  const list = await api.get('traces');
  $('trace').innerHTML = list.traces.map(t => `<option value="${escapeHtml(t.id)}">${escapeHtml(t.name)}</option>`).join('');
  return list.traces;
}

async function loadTrace(id) {
  if (traceData.id === id) return;
  const [info, tree, typeList] = await Promise.all([
    api.get(`traces/${encodeURIComponent(id)}`), api.get(`traces/${encodeURIComponent(id)}/producers`),
    api.get(`traces/${encodeURIComponent(id)}/types`)]);
  trace = info;
  traceData = { id, producers: tree.producers, types: typeList.types };
  producers.setNodes(tree.producers);
}

async function render() {
  syncControls();
  overview.clearSelection();
  showPanel();
  if (!state.trace) return;
  if (state.panel === 'treemap' || state.panel === 'topology') return renderTreemap();
  try {
    await loadTrace(state.trace);
    syncControls();
    types.set(traceData.types, state.xtypes, state.metric, last?.overview.legend);
    $('busy').hidden = false;
    $('busy').textContent = 'computing…';
    const params = S.apiParams(state);
    params.set('height', String(overview.plotHeight()));
    const started = performance.now();
    const result = await api.overview(params, progress => {
      $('busy').textContent = `${progress.stage}… ${(progress.elapsedMs / 1000).toFixed(1)} s`;
    });
    if (!result) return; // superseded by a newer request: that one will draw
    last = result;
    last.clientMs = performance.now() - started;
    draw(result);
    $('busy').hidden = true;
    message('');
  } catch (e) {
    $('busy').hidden = true;
    message(e.message, true);
  }
}

function draw(r) {
  overview.show(r);
  curves.show(r.curves);
  types.set(traceData.types, state.xtypes, state.metric, r.overview.legend);
  legend(r);
  $('p-value').textContent = pValue(r.p);
  $('part-count').textContent = `${r.partCount} part${r.partCount === 1 ? '' : 's'} · breakpoint ${r.curves.chosen + 1} of ${r.curves.breakpoints.length}`;
  const span = r.end - r.start;
  $('caption').textContent = [
    r.trace.name, `window ${time(r.start, span / r.slices, '')} – ${time(r.end, span / r.slices, r.trace.unit)}`,
    `N = ${r.slices}`, ...filterCaption(), r.metricLabel, `${r.aggregation} ${r.view}`, `p = ${pValue(r.p)}`,
    `gain ${percent(r.gainFraction)}`, `loss ${percent(r.lossFraction)}`, `${r.partCount} parts`,
    r.exact ? 'exact model' : 'APPROXIMATE model (rebuilt from a cached one; tick “exact model only”)', `${Math.round(r.clientMs)} ms`,
  ].join(' · ');
  $('caption').dataset.p = String(r.p);
  $('caption').dataset.start = String(r.start);
  $('caption').dataset.end = String(r.end);
  $('caption').dataset.parts = String(r.partCount);
  $('caption').dataset.leaves = String(r.leaves);
  $('caption').dataset.slices = String(r.slices);
  $('caption').dataset.view = `${r.aggregation} ${r.view}`;
  const exportParams = S.apiParams({ ...state, p: String(r.p) });
  exportParams.set('token', token);
  $('export-svg').href = api.exportUrl('export', `${exportParams}&format=svg`);
  $('export-png').href = api.exportUrl('export', `${exportParams}&format=png`);
  $('export-csv').href = api.exportUrl('breakpoints', `${exportParams}&format=csv`);
}

function showPanel() {
  const spatial = state.panel === 'treemap' || state.panel === 'topology';
  $('treemap-row').hidden = !spatial;
  $('overview-row').hidden = spatial;
  $('treemap').hidden = state.panel !== 'treemap';
  $('topology').hidden = state.panel !== 'topology';
  for (const b of document.querySelectorAll('#panels button')) b.classList.toggle('active', b.dataset.panel === state.panel);
}

/** The treemap or graph of the state: the spatial analysis at p, cut and time step as the URL says. */
async function renderTreemap() {
  const seq = ++treemapSeq;
  try {
    await loadTrace(state.trace);
    syncControls();
    syncTreemapControls();
    $('treemap-busy').hidden = false;
    const started = performance.now();
    const graph = state.panel === 'topology';
    const r = await api.get(graph ? 'topology' : 'treemap',
      graph ? S.topologyParams(state, treemap.size()) : S.treemapParams(state, treemap.size()));
    if (seq !== treemapSeq) return; // a newer request will draw
    r.clientMs = performance.now() - started;
    if (graph) {
      r.treemap = { legend: [], cells: [], cut: [], note: r.topology.note, slices: r.slices,
        firstSlice: state.step === '' ? 0 : Number(state.step), lastSlice: state.step === '' ? r.slices - 1 : Number(state.step),
        stepStart: r.topology.start, stepEnd: r.topology.end };
      topology.show(r);
    } else {
      treemap.show(r);
    }
    drawTreemapFrame(r);
    $('treemap-busy').hidden = true;
    message('');
    if (playing !== null) playing = setTimeout(nextStep, 500);
  } catch (e) {
    $('treemap-busy').hidden = true;
    stopPlaying();
    message(e.message, true);
  }
}

function syncTreemapControls() {
  const depth = trace ? trace.depth : 0;
  const cuts = [['', 'spatial partition at p'], ...Array.from({ length: depth }, (_, i) => [String(i + 1), `depth ${i + 1}`])];
  $('cut').innerHTML = cuts.map(([v, l]) => `<option value="${v}">${l}</option>`).join('');
  $('cut').value = state.cut;
  $('step').max = String(Number(state.slices) - 1);
  $('step').value = state.step === '' ? '-1' : state.step;
}

function drawTreemapFrame(r) {
  const t = r.treemap;
  curves.show(r.curves);
  $('p-value').textContent = pValue(r.p);
  $('part-count').textContent = `${r.partCount} part${r.partCount === 1 ? '' : 's'} · breakpoint ${r.curves.chosen + 1} of ${r.curves.breakpoints.length}`;
  const span = r.end - r.start;
  const stepText = t.firstSlice === t.lastSlice
    ? `step ${t.firstSlice + 1} of ${t.slices}: ${time(t.stepStart, span / r.slices, '')} – ${time(t.stepEnd, span / r.slices, r.trace.unit)}`
    : 'whole window';
  $('step-label').textContent = stepText;
  if (r.topology) {
    $('treemap-legend').innerHTML = ['■ hosts, ◆ network links, ● processes', r.topology.capacities
      ? 'size = capacity, fill = use / capacity' : `size and fill: ${r.metricLabel}`,
      'grey: platform links; blue: messages', 'thick outline: collapsed group (click to expand)',
      ...(state.toggles.length ? [`${state.toggles.length} groups expanded or collapsed`] : []),
      ...(t.note ? [t.note] : [])].map(n => `<span class="note">${escapeHtml(n)}</span>`).join('');
  } else $('treemap-legend').innerHTML = t.legend.map(l =>
    `<div><span class="swatch" style="background:${l.colour}"></span>${escapeHtml(l.name)}</div>`).join('')
    + ['opacity = share of the dominant type', 'dashed: aggregate of the spatial partition (name, leaves)',
      ...(t.cells.some(c => c.kind === 'VISUAL') ? ['hatched: nodes too small to draw'] : []),
      ...(t.note ? [t.note] : [])].map(n => `<span class="note">${escapeHtml(n)}</span>`).join('');
  $('caption').textContent = [
    r.trace.name, `window ${time(r.start, span / r.slices, '')} – ${time(r.end, span / r.slices, r.trace.unit)}`,
    stepText, `N = ${r.slices}`, ...filterCaption(), r.metricLabel,
    state.cut === '' ? `spatial partition at p = ${pValue(r.p)}` : `cut at depth ${state.cut}`,
    `gain ${percent(r.gainFraction)}`, `loss ${percent(r.lossFraction)}`, r.topology ? `${r.topology.nodes.length} nodes, ${r.topology.edges.length} edges` : `${t.cut.length} shown nodes`,
    r.exact ? 'exact model' : 'APPROXIMATE model', `${Math.round(r.clientMs)} ms`,
  ].join(' · ');
  Object.assign($('caption').dataset, { p: String(r.p), start: String(r.start), end: String(r.end),
    parts: String(r.partCount), leaves: String(r.leaves), slices: String(r.slices),
    view: r.topology ? 'spatial topology' : 'spatial treemap',
    step: String(t.firstSlice === t.lastSlice ? t.firstSlice : -1),
    shown: String(r.topology ? r.topology.nodes.length : t.cut.length),
    edges: String(r.topology ? r.topology.edges.length : 0) });
  const path = r.topology ? 'topology' : 'treemap';
  const exportParams = (r.topology ? S.topologyParams : S.treemapParams)({ ...state, p: String(r.p) }, treemap.size());
  if (r.topology) { exportParams.delete('width'); exportParams.delete('height'); }
  exportParams.set('token', token);
  $('export-svg').href = api.exportUrl(path, `${exportParams}&format=svg`);
  $('export-png').href = api.exportUrl(path, `${exportParams}&format=png`);
  $('export-csv').href = api.exportUrl('breakpoints', `${S.apiParams({ ...state, p: String(r.p) })}&token=${token}&format=csv`);
}

function nextStep() {
  const step = state.step === '' ? 0 : Number(state.step) + 1;
  if (step >= Number(state.slices)) { stopPlaying(); return; }
  go({ ...state, step: String(step) }, false);
}

function stopPlaying() {
  clearTimeout(playing);
  playing = null;
  $('play').textContent = '▶ Play';
}

/** The filters in words, so that a zoom on a subtree is never mistaken for the whole trace. */
function filterCaption() {
  const parts = [];
  if (state.include.length) parts.push(`only ${state.include.join(', ')}`);
  if (state.exclude.length) parts.push(`${state.exclude.length} producer subtree${state.exclude.length === 1 ? '' : 's'} hidden`);
  if (state.xtypes.length) parts.push(`${state.xtypes.length} type${state.xtypes.length === 1 ? '' : 's'} hidden`);
  return parts;
}

function legend(r) {
  const notes = [];
  if (r.view === 'mode') notes.push('opacity = share of the dominant type');
  if (r.view === 'partition') notes.push('one colour per part');
  if (r.overview.blocks.some(b => b.mark === 'DIAGONAL')) notes.push('⁄ producers too thin to draw, same time cuts');
  if (r.overview.blocks.some(b => b.mark === 'CROSS')) notes.push('✕ producers too thin to draw, different time cuts');
  if (r.overview.blocks.some(b => b.mark === 'MERGED')) notes.push('hatched: thin types merged');
  // Partition views colour parts, not types: a type legend there would be read as a key.
  const typeRows = r.view === 'partition' ? [] : r.overview.legend;
  $('legend').innerHTML = typeRows.map(l =>
    `<div><span class="swatch" style="background:${l.colour}"></span>${escapeHtml(l.name)}</div>`).join('')
    + notes.map(n => `<span class="note">${escapeHtml(n)}</span>`).join('');
}

function zoom() {
  if (!selection) return;
  const span = selection.end - selection.start;
  const next = { ...state, start: String(roundTime(selection.start, span)), end: String(roundTime(selection.end, span)), p: '' };
  if (selection.producer && selection.producer.path) next.include = [selection.producer.path];
  go(next, true);
}

for (const b of document.querySelectorAll('#panels button')) {
  b.addEventListener('click', () => { stopPlaying(); go({ ...state, panel: b.dataset.panel }, true); });
}
$('cut').addEventListener('change', () => go({ ...state, cut: $('cut').value, toggles: [] }, true));
$('step').addEventListener('input', () => {
  stopPlaying();
  const v = Number($('step').value);
  go({ ...state, step: v < 0 ? '' : String(v) }, false);
});
$('play').addEventListener('click', () => {
  if (playing !== null) { stopPlaying(); return; }
  $('play').textContent = '❚❚ Pause';
  playing = 0;
  nextStep();
});
$('apply').addEventListener('click', () => go({ ...settingsFromControls(), p: '' }, true));
$('aggregation').addEventListener('change', () => {
  const a = $('aggregation').value;
  $('view').innerHTML = S.VIEWS[a].map(v => `<option value="${v}">${v}</option>`).join('');
});
$('view').addEventListener('change', () => {
  // Another view of the same model keeps p: no new computation, just another picture.
  if ($('aggregation').value === state.aggregation) go({ ...state, view: $('view').value }, false);
});
$('metric').addEventListener('change', () => types.set(traceData.types, state.xtypes, $('metric').value, last?.overview.legend));
for (const id of ['slices', 'start', 'end']) {
  $(id).addEventListener('keydown', e => { if (e.key === 'Enter') $('apply').click(); });
}
$('trace').addEventListener('change', () => go({ ...S.defaults(), trace: $('trace').value }, true));
$('zoom').addEventListener('click', zoom);
$('back').addEventListener('click', () => history.back());
$('forward').addEventListener('click', () => history.forward());
$('reset').addEventListener('click', () => go({ ...state, start: '', end: '', p: '', include: [], exclude: [], xtypes: [] }, true));
window.addEventListener('popstate', () => { state = S.fromUrl(location.search); render(); });
document.addEventListener('keydown', e => {
  if (e.target.closest('input, select, textarea') || e.target === $('curves')) return;
  if (e.key === 'ArrowLeft' || e.key === 'ArrowRight') {
    const p = curves.stepped(e.key === 'ArrowLeft' ? -1 : 1);
    if (p !== null) { e.preventDefault(); setP(p); }
  } else if (e.key === 'Enter' && selection) {
    zoom();
  } else if (e.key === 'Escape') {
    overview.clearSelection();
    selection = null;
    $('zoom').disabled = true;
  }
});
$('import-form').addEventListener('submit', async e => {
  e.preventDefault();
  const path = $('import-path').value.trim();
  if (!path) return;
  message(`importing ${path}…`);
  try {
    const imported = await api.post('import', { path });
    await loadTraces();
    $('import-path').value = '';
    message(`imported ${imported.name}`);
    go({ ...S.defaults(), trace: imported.id }, true);
  } catch (err) {
    message(err.message, true);
  }
});

(async function start() {
  try {
    const traces = await loadTraces();
    if (!state.trace && traces.length) state = { ...state, trace: traces[0].id };
    if (!traces.length) message('No trace yet: type the path of a trace file on this machine and press Import.');
    go(state, false);
  } catch (e) {
    message(e.message, true);
  }
})();
