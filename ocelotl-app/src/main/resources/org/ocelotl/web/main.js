// The page: settings, overview, curves, filters, zoom history, all driven by the state in the
// URL. Every user action becomes a new state; the state is written to the URL (a zoom or a
// filter is a history entry, a change of p replaces the current one) and then drawn.
import { Api } from './api.js';
import * as S from './state.js';
import { OverviewView } from './overview.js';
import { CurvesView } from './curves.js';
import { TreemapView } from './treemap.js';
import { TopologyView } from './topology.js';
import { showMapping } from './mapping.js';
import { ProducerFilter, TypeFilter } from './filters.js';
import { DetailsView } from './details.js';
import { StatsView } from './stats.js';
import { SelectionsPanel } from './selections.js';
import { OutliersView, sliceWidth } from './outliers.js';
import { ComparePage } from './compare.js';
import { QueryView } from './query.js';
import { since, time, pValue, percent, escapeHtml, value } from './format.js';
import { traceTime, bothWays } from './times.js';

const $ = id => document.getElementById(id);
const token = S.token(location.search);
const api = new Api(token);
const query = new QueryView($('query-row'), api);
// The event table saves a sequence's occurrences as a selection: the menu lists it at once.
document.addEventListener('ocelotl-selection-saved', () => selections.load(state.trace));
let state = S.fromUrl(location.search);
let trace = null;         // {id, name, start, end, unit, …} of the current trace
let model = null;         // {name, slices, leaves, depth, types} in a model session (ocelotl view --model)
let traceData = { id: null, producers: [], types: [] };
let last = null;          // the last overview response drawn
let lastState = null;     // the settings it answered: a new p of the same model asks answer=view
let shownP = null;        // the p of the overview drawn last, full or provisional
/**
 * The p the analyst had when they zoomed, until the zoom's first answer is asked: that answer is
 * the window's exact partition at it (one programme), so that p does not change under their eyes
 * before the window's own default p is known (decision 064). Not in the URL: a reload or a
 * bookmark asks the window's default p at once.
 */
let zoomedFromP = null;
let selection = null;     // {start, end, producer}
let filterTimer = null;

const overview = new OverviewView($('overview'), $('tooltip'), s => {
  selection = s;
  $('zoom').disabled = !s;
  pair.selected(s); // two runs compared share one selection
  if (model) { // a model file's selection is for a zoom only: the Gantt chart needs the trace
    $('selection').textContent = s ? modelSelectionText(s) : modelHint();
    return;
  }
  $('open-gantt').disabled = !s;
  $('selection').textContent = s ? selectionText(s) : 'Drag on the overview to select a time range'
    + (state.aggregation === 'spatiotemporal' ? ' × producers.' : '.');
});
const treemap = new TreemapView($('treemap'), $('tooltip'),
  cell => go({ ...state, panel: '', include: cell.node === 0 || model ? [] : [cell.path], p: '' }, true));
const topology = new TopologyView($('topology'), $('tooltip'), node => {
  // A collapsed group expands; any other node collapses its parent group.
  const parent = node.path.includes('/') ? node.path.slice(0, node.path.lastIndexOf('/')) : '';
  const toggle = node.aggregate ? `+${node.path}` : `-${parent}`;
  go({ ...state, toggles: [...state.toggles, toggle] }, true);
}, node => go({ ...state, panel: '', include: node.node === 0 ? [] : [node.path], p: '' }, true));
let treemapSeq = 0;
/**
 * How many hidden deviations of each kind (who, then when: decision 061) the list beside the
 * picture shows: together a scrolling column's worth.
 */
const OUTLIERS_LIMIT = 10;
const hiddenList = new OutliersView($('outliers-list'), (o, action) => chooseOutlier(o, action), rank => overview.stress(rank));
overview.onOutlier = rank => {
  if (pair.active) { pair.choose(rank); return; } // the marks are the differences
  hiddenList.pick(rank);
  chooseOutlier(hiddenList.items[rank - 1], 'gantt');
};
/** The same for the treemap and the graph: the nodes merged into a shown node that depart from it. */
const spatialList = new OutliersView($('spatial-outliers-list'), o => chooseHiddenNode(o), () => {});
treemap.onOutlier = rank => chooseHiddenNode(spatialList.items[rank - 1]);
topology.onOutlier = rank => chooseHiddenNode(spatialList.items[rank - 1]);
let outliersSeq = 0;
let outliersController = null;
/** The last list asked for, by its query: drawing the same picture again (a Gantt chart opened) asks nothing new. */
let outliersCache = { key: null, answer: null };
let playing = null; // the timer of the next time step while the time control plays
/** How long ▶ Play shows each time step at least, in ms. */
const PLAY_FRAME_MS = 500;
/**
 * The next time step's answer, asked for while the current one is shown ({key: its query, answer:
 * a promise}): Play shows each step in turn, never skipping one, and need not wait twice as long.
 */
let ahead = null;
/** Whether a treemap or graph answer is awaited: Play resumed meanwhile waits for it, not skips it. */
let treemapPending = false;
const curves = new CurvesView($('curves'), p => setP(p));
const details = new DetailsView($('details'), api, (from, to) => {
  if (from === null) go({ ...state, gantt: '', gfrom: '', gto: '', gproducers: [] }, true);
  else go({ ...state, gfrom: String(roundTime(from, to - from)), gto: String(roundTime(to, to - from)) }, true);
});
const stats = new StatsView($('stats'), api, () => go({ ...state, stats: '', sfrom: '', sto: '', sproducers: [] }, true),
  path => overview.highlight(path),
  name => last?.overview.legend.find(l => l.name === name)?.colour || traceData.types.find(t => t.name === name)?.color || '#bbb');
const producers = new ProducerFilter($('producers'), $('levels'), (exclude, xkinds) => filtersChanged({ exclude, xkinds }));
const types = new TypeFilter($('types'), xtypes => filtersChanged({ xtypes }));

/** Two runs as a pair (compare.js): drawn instead of one trace's overview when the state names base and other. */
const pair = new ComparePage({ api, overview, curves, tooltip: $('tooltip'), state: () => state,
  go: (patch, push) => go({ ...state, ...patch }, push), message: (text, error) => message(text, error),
  loadTrace: id => loadTrace(id), showProgress: p => showProgress(p),
  sync: () => { syncControls(); types.set(traceData.types, state.xtypes, state.metric, null); } });
const selections = new SelectionsPanel($('selections'), $('save-selection'), $('rename-selection'),
  $('delete-selection'), api, savedSelection, applySelection,
  (text, error) => message(text, error));

/** Nodes whose use exceeds their capacity, named as the picture's caption names them. */
function overCapacity(nodes) {
  const over = nodes.filter(n => n.overCapacity);
  if (!over.length) return [];
  return [`use exceeds capacity on ${over.length} node${over.length > 1 ? 's' : ''}, drawn full with a red outline `
    + `(the trace's capacity is not in its use's unit): `
    + over.slice(0, 5).map(n => `${n.path}: ${n.useVariable} ${value(n.use)} > ${n.capacityVariable} ${value(n.capacity)}`)
      .join(', ')
    + (over.length > 5 ? ` and ${over.length - 5} more` : '')];
}

/** The names of the metric's types the view keeps, or [] when it keeps them all. */
function keptTypes() {
  if (!state.xtypes.length) return [];
  const category = traceData.types.filter(t => t.category === S.metricCategory(state.metric)).map(t => t.name);
  return [...new Set(category)].filter(name => !state.xtypes.includes(name));
}

/** The metric menu: every metric the server knows, Ocelotl's own then the plug-ins', by label. */
function metricMenu() {
  $('metric').replaceChildren(...S.metrics().map(m => new Option(m.label, m.name)));
}

/**
 * What "Save selection" keeps: the dragged range (and producer), else the view's window and filters.
 * A dragged range is rounded to the precision of the slices drawn: a mouse picks no finer, and the
 * file and the menu then read 3.049, not 3.0487261.
 */
function savedSelection() {
  const precise = t => last ? roundTime(t, (last.end - last.start) / last.slices * 1e3) : t;
  const start = selection ? precise(selection.start) : state.start === '' ? trace.start : traceTime(state.start, trace).value;
  const end = selection ? precise(selection.end) : state.end === '' ? trace.end : traceTime(state.end, trace).value;
  const producers = selection && selection.producer && selection.producer.path ? [selection.producer.path] : state.include;
  return { start, end, producers, types: keptTypes() };
}

/** Shows a saved selection: its window, producers and (of the metric's category) types become the view's. */
function applySelection(s) {
  const category = [...new Set(traceData.types.filter(t => t.category === S.metricCategory(state.metric)).map(t => t.name))];
  const kept = category.filter(name => s.types.length === 0 || s.types.includes(name));
  const xtypes = kept.length === 0 || kept.length === category.length ? [] : category.filter(name => !kept.includes(name));
  go({ ...state, start: String(s.from), end: String(s.to), include: s.producers, exclude: [], xkinds: [], xtypes, p: '' }, true)
    .then(() => { if (!$('message').classList.contains('error')) message(`selection ${s.name}${s.note ? ': ' + s.note : ''}`); });
}

function message(text, error = false) {
  $('message').textContent = text;
  $('message').classList.toggle('error', error);
  $('message').title = text;
}

function selectionText(s) {
  const scale = last?.timeScale;
  const span = (s.end - s.start) * (scale ? scale.factor : 1);
  return `Selected ${scale && trace ? bothWays(s.start, s.end, scale, trace)
    : `${time(s.start, span / 100, '')} – ${time(s.end, span / 100, trace?.unit || '')}`}`
    + (s.producer ? ` on ${s.producer.path || 'all producers'}` : '') + '. Press Enter or “Zoom in”.';
}

/**
 * The whole slices a zoom on a model file takes for a selection: its edges rounded to the nearest
 * slice boundaries (a clicked block's edges are boundaries, up to rounding); a selection within
 * one slice takes that slice. A model file's window is whole slices: no rebinning.
 */
function wholeSlices(s) {
  let start = Math.round(s.start);
  let end = Math.round(s.end);
  if (end <= start) {
    start = Math.min(last.end - 1, Math.floor((s.start + s.end) / 2));
    end = start + 1;
  }
  return { start: Math.max(last.start, start), end: Math.min(last.end, end) };
}

function modelSelectionText(s) {
  const w = wholeSlices(s);
  return `Selected slices ${w.start} – ${w.end} (every producer). Press Enter or “Zoom in”.`;
}

/** What a model session offers with a selection, and what it does not. */
function modelHint() {
  return `Drag on the overview or click a block to zoom on its slices. ${model.name} is a model file: Gantt chart, `
    + 'event table, statistics, graph, filters and selections need the trace\'s records, which it does not hold.';
}

/**
 * A burst of zooms or filter clicks is one step back, not one per click: a new history entry
 * within this many ms of the previous one replaces it.
 */
const HISTORY_BURST_MS = 1000;
let lastPush = -Infinity;

/** Makes `next` the state: writes the URL (push = a new history entry) and draws it (the promise: drawn). */
function go(next, push) {
  state = next;
  const url = `${location.pathname}?${S.toQuery(state, token)}`;
  const now = performance.now();
  if (push && now - lastPush > HISTORY_BURST_MS) history.pushState(null, '', url); else history.replaceState(null, '', url);
  if (push) lastPush = now;
  return render();
}

/** Why the settings cannot be applied, or null: a bad window never reaches the URL or the history. */
function invalidSettings(s) {
  if (model) return null; // only the aggregation and the view, both chosen from menus
  // A time with a unit is since the trace's start (decision 036): read here only to check the window.
  const read = (text, bound, what) => text === '' ? { value: bound } : traceTime(text, trace, what);
  const from = read(s.start, trace?.start, 'start'), to = read(s.end, trace?.end, 'end');
  if (from.error || to.error) return from.error || to.error;
  const start = from.value, end = to.value;
  if (!(end > start)) return `the window needs start < end, found ${start} and ${end}`;
  const n = Number(s.slices);
  if (!Number.isInteger(n) || n < 2 || n > 10000) return `N: expected a whole number from 2 to 10000, found “${s.slices}”`;
  return null;
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
  const height = Math.max(0, ...traceData.producers.map(n => n.depth));
  $('depth').innerHTML = '<option value="auto">auto</option><option value="0">every level</option>'
    + Array.from({ length: Math.max(0, height - 1) }, (_, i) => `<option value="${i + 1}">${i + 1}</option>`).join('');
  $('depth').value = state.depth;
  $('approximate').checked = state.exact === 'false';
  $('inclusive').checked = state.time === 'inclusive';
  $('start').value = state.start !== '' ? state.start : trace ? trace.start : '';
  $('end').value = state.end !== '' ? state.end : trace ? trace.end : '';
  $('unit').textContent = trace ? trace.unit : '';
  $('trace').value = state.trace;
  producers.setExcluded(state.exclude, state.include, state.xkinds);
}

function settingsFromControls() {
  const aggregation = $('aggregation').value;
  let view = $('view').value;
  if (!S.VIEWS[aggregation].includes(view)) view = S.VIEWS[aggregation][0];
  const start = $('start').value.trim();
  const end = $('end').value.trim();
  const atBounds = (v, bound) => trace && Number(v) === Number(bound);
  // A type filter belongs to its metric's category: another metric starts with every type.
  const xtypes = $('metric').value === state.metric ? state.xtypes : [];
  if (model) return { ...state, aggregation, view };
  return { ...state, metric: $('metric').value, xtypes, aggregation, view, slices: $('slices').value.trim(), depth: $('depth').value,
    exact: $('approximate').checked ? 'false' : '', time: $('inclusive').checked ? 'inclusive' : '',
    start: atBounds(start, trace?.start) ? '' : start, end: atBounds(end, trace?.end) ? '' : end };
}

async function loadTraces() {
  const list = await api.get('traces');
  $('trace').innerHTML = list.traces.map(t => `<option value="${escapeHtml(t.id)}">${escapeHtml(t.name)}</option>`).join('');
  $('compare-with').innerHTML = '<option value="">Compare with…</option>' + list.traces.map(t =>
    `<option value="${escapeHtml(t.id)}">${escapeHtml(t.name)}</option>`).join('');
  return list.traces;
}

async function loadTrace(id) {
  if (model || traceData.id === id) return;
  const [info, tree, typeList] = await Promise.all([
    api.get(`traces/${encodeURIComponent(id)}`), api.get(`traces/${encodeURIComponent(id)}/producers`),
    api.get(`traces/${encodeURIComponent(id)}/types`)]);
  trace = info;
  traceData = { id, producers: tree.producers, types: typeList.types };
  // Only the metrics this trace has records for: a menu entry that can only fail is no choice.
  for (const option of $('metric').options) option.disabled = !info.metrics.includes(option.value);
  if (!info.metrics.includes(state.metric) && info.metrics.length > 0) state = { ...state, metric: info.metrics[0] };
  producers.setNodes(tree.producers);
  await selections.load(id);
}

async function render() {
  const yours = zoomedFromP; // this render's only: a later one is no zoom
  zoomedFromP = null;
  syncControls();
  overview.clearSelection();
  showPanel();
  if (state.base && state.other) return pair.render(state);
  pair.leave();
  if (!state.trace && !model) return;
  if (state.panel === 'query') return query.show(state.trace);
  if (state.panel === 'treemap' || state.panel === 'topology') return renderTreemap();
  try {
    await loadTrace(state.trace);
    syncControls();
    details.show(state);
    stats.show(state);
    showSplit();
    types.set(traceData.types, state.xtypes, state.metric, last?.overview.legend);
    $('busy').hidden = false;
    $('busy-text').textContent = 'computing…';
    $('busy-bar').hidden = true;
    // The picture on screen answers the previous settings until the new one arrives: say so.
    $('overview').classList.add('stale');
    $('outliers').classList.add('stale');
    const params = S.apiParams(state);
    params.set('height', String(overview.plotHeight()));
    const asked = state;
    // The model drawn already (a new p, another view): its breakpoints and curves are the same for
    // every p, and the page never reads the parts, so the answer leaves them out (decision 068).
    const known = last && S.sameModel(lastState, asked) ? last : null;
    const overviewParams = new URLSearchParams(params);
    if (known) overviewParams.set('answer', 'view');
    const started = performance.now();
    const onProgress = showProgress;
    // A spatiotemporal search can take long: the server first gives the partition at p (the URL's,
    // or the exact default p) by a few programmes, drawn at once; the curves follow. When the
    // breakpoints are already known (a new p, another view) the first answer is the full one:
    // asking again would double the wait for the same bytes.
    let result = null;
    if (state.aggregation === 'spatiotemporal' && !model) { // a model file's search has no quick first answer
      // A zoom: the window at the analyst's p first (one programme where the default p takes about
      // six), then at its own default p; what it hides is ranked only for the latter, which stays.
      if (yours !== null && state.p === '') {
        const atYours = await api.overview(new URLSearchParams([...overviewParams, ['p', String(yours)], ['progressive', '1']]), onProgress);
        if (!atYours) return; // superseded by a newer request: that one will draw
        if (atYours.provisional) {
          atYours.clientMs = performance.now() - started;
          drawProvisional(atYours, true);
        }
      }
      const first = await api.overview(new URLSearchParams([...overviewParams, ['progressive', '1']]), onProgress);
      if (!first) return; // superseded by a newer request: that one will draw
      if (first.provisional) {
        first.clientMs = performance.now() - started;
        drawProvisional(first);
        // Its partition is the full answer's: what it hides is ranked now, not after the search.
        loadOutliers(params, first);
      } else {
        result = first;
      }
    }
    result ??= await api.overview(overviewParams, onProgress);
    if (!result) return; // superseded by a newer request: that one will draw
    if (known) result = withCurves(result, known);
    last = result;
    lastState = asked;
    last.clientMs = performance.now() - started;
    draw(result);
    $('overview').classList.remove('stale');
    $('busy').hidden = true;
    message('');
    loadOutliers(params, result);
  } catch (e) {
    $('busy').hidden = true;
    // The old picture stays greyed: it does not answer the settings shown.
    message(last ? `${e.message} (the picture shown is the previous one)` : e.message, true);
  }
}

/**
 * A view answer (answer=view) completed with what it left out of the same model's answer drawn
 * before: its breakpoints, and its curves at the new p (the breakpoint chosen: the last at or
 * below p, as the server chooses it).
 */
function withCurves(r, known) {
  const ps = known.curves.breakpoints;
  let chosen = 0;
  for (let k = 0; k < ps.length; k++) if (ps[k] <= r.p) chosen = k;
  return { ...r, breakpoints: known.breakpoints, curves: { ...known.curves, p: r.p, chosen } };
}

/** The busy badge: the stage, how far it is (a bar and a percentage when known) and the time spent. */
function showProgress(progress) {
  // Within a stage the engine says how far it is (rows, nodes, bytes); the search counts evaluations.
  const known = progress.total > 0;
  $('busy-bar').hidden = !known;
  if (known) $('busy-bar').value = progress.done / progress.total;
  const fraction = known ? progress.done / progress.total : 0;
  // The time left of this stage, at the pace so far (said only once there is a pace to go by).
  const eta = fraction > 0.05 && fraction < 1 ? ` · about ${Math.ceil(progress.elapsedMs * (1 - fraction) / fraction / 1000)} s left` : '';
  $('busy-text').textContent = `${progress.stage}${known ? ` ${Math.floor(100 * fraction)}%`
    : progress.done > 0 ? ` (${progress.done} optima evaluated)` : '…'} · ${(progress.elapsedMs / 1000).toFixed(1)} s${eta}`;
}

/**
 * The partition at p before the breakpoints are known: no curves yet, and the caption says so. At
 * the analyst's p from before a zoom (`yours`), it says too that the window's own default p is
 * coming, and that the view will move to it.
 */
function drawProvisional(r, yours = false) {
  overview.show(r);
  shownP = r.p;
  curves.clear(yours ? 'computing the window\'s default p: the curves follow' : 'searching the breakpoints: the curves follow');
  legend(r);
  $('p-value').textContent = pValue(r.p);
  const parts = `${r.partCount} part${r.partCount === 1 ? '' : 's'}`;
  $('part-count').textContent = yours ? `${parts} · at your p; the window's default p being computed`
    : `${parts} · breakpoints being searched`;
  $('caption').textContent = [r.trace.name, `N = ${r.slices}`, ...filterCaption(), r.metricLabel,
    `${r.aggregation} ${r.view}`, yours ? `p = ${pValue(r.p)} (your p before the zoom)` : `p = ${pValue(r.p)}${r.defaultP === r.p ? ' (default)' : ''}`,
    parts, yours ? 'exact partition at your p; the window\'s own default p being computed, the view moves to it'
      : 'exact partition; breakpoints and curves being searched',
    `${Math.round(r.clientMs)} ms`].join(' · ');
  $('caption').dataset.provisional = yours ? 'yours' : '1';
  $('overview').classList.remove('stale');
  if (yours) { // the previous window's list must not sit beside this one; the window's own comes with its default p
    outliersSeq++;
    outliersController?.abort();
    hiddenList.clear('ranked once the window\'s default p is known');
  }
}

/** The variable a variable mean shows and why, when the server chose it (decision 050), as the command line's caption says it. */
function variableChoice(r) {
  const c = r.variableChoice;
  if (!c) return [];
  return [`types: ${c.type} (${c.producer ? `varies most: ${c.score.toFixed(2)}, ${c.producer} at ${c.when}` : 'most records, none varies'})`];
}

function draw(r) {
  shownP = r.p;
  delete $('caption').dataset.provisional;
  delete $('caption').dataset.hidden;
  overview.show(r);
  curves.show(r.curves);
  types.set(traceData.types, state.xtypes, state.metric, r.overview.legend);
  legend(r);
  $('p-value').textContent = pValue(r.p);
  $('part-count').textContent = `${r.partCount} part${r.partCount === 1 ? '' : 's'} · breakpoint ${r.curves.chosen + 1} of ${r.curves.breakpoints.length}`;
  const span = (r.end - r.start) * r.timeScale.factor;
  $('caption').textContent = [
    sourceName(r), model ? `slices ${r.start} – ${r.end}`
      : `window ${time(since(r.start, r.timeScale), span / r.slices, '')} – ${time(since(r.end, r.timeScale), span / r.slices, r.timeScale.unit)} since the start`,
    `N = ${r.slices}`, ...filterCaption(), ...variableChoice(r), r.metricLabel, `${r.aggregation} ${r.view}`, `p = ${pValue(r.p)}`,
    `gain ${percent(r.gainFraction)}`, `loss ${percent(r.lossFraction)}`, `${r.partCount} part${r.partCount === 1 ? '' : 's'}`,
    r.exact ? 'exact model' : 'APPROXIMATE model (rebuilt from a cached one; untick “allow approximate models”)', `${Math.round(r.clientMs)} ms`,
  ].join(' · ');
  // The window both ways under the fields, whichever way it was typed (decision 036).
  $('window-both').textContent = model || !trace ? '' : bothWays(r.start, r.end, r.timeScale, trace);
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
  $('export-parts').href = api.exportUrl('export', `${exportParams}&format=csv`);
}

/**
 * The selection (a drag, else the window and filters shown) as a trace of its own: the bytes
 * `ocelotl export` writes, times kept absolute (GET /api/subtrace), asked when the link is followed.
 */
$('export-subtrace').addEventListener('click', () => {
  const s = savedSelection();
  const q = new URLSearchParams({ trace: state.trace, from: String(s.start), to: String(s.end), format: 'paje', token });
  if (s.producers.length) q.set('producers', s.producers.join('|'));
  if (s.types.length) q.set('types', s.types.join('|'));
  $('export-subtrace').href = api.exportUrl('subtrace', q);
});

/**
 * What the partition drawn hides (GET /api/outliers): asked once its picture is in, with the
 * picture's own request at the p drawn (the same model and partition, answered from the server's
 * cache); a newer picture aborts the question, and an answer to an older one is never shown.
 */
async function loadOutliers(overviewParams, r) {
  const seq = ++outliersSeq;
  outliersController?.abort();
  const q = new URLSearchParams(overviewParams);
  for (const key of ['progressive', 'client', 'seq']) q.delete(key); // the overview's job, not this one
  q.set('p', String(r.p));
  q.set('limit', String(OUTLIERS_LIMIT));
  const key = q.toString();
  hiddenList.clear('ranking what the aggregates hide…');
  try {
    let answer = outliersCache.key === key ? outliersCache.answer : null;
    // 503: the server computes as much as it may; ask again while this is still the newest picture.
    for (let attempt = 0; !answer; attempt++) {
      outliersController = new AbortController();
      try {
        answer = await api.get('outliers', q, outliersController.signal);
      } catch (e) {
        if (e.status !== 503 || attempt >= 30 || seq !== outliersSeq) throw e;
        await new Promise(ok => setTimeout(ok, 1000));
      }
    }
    if (seq !== outliersSeq) return;
    outliersCache = { key, answer };
    hiddenList.show(answer, answer.outliers, { scale: r.timeScale, slice: sliceWidth(answer, r.timeScale), zoom: !model,
      marks: 'Marked on the picture by number: a dashed outline, or a bar along the top where producers are not drawn.',
      hint: model ? 'Click a row or its mark: zoom on its slices.' : 'Click a row or its mark: Gantt chart of that producer over that time.' });
    overview.setOutliers(answer.outliers);
    const link = answer.outliers.find(o => o.link !== undefined);
    captionHidden(answer.hidden, `${answer.hidden} hidden deviation${answer.hidden === 1 ? '' : 's'}`
      + ' (worth telling apart at this p; listed beside the picture)'
      + (link ? `; first ${link.producer}, found by ${link.link}'s use` : ''));
  } catch (e) {
    if (seq !== outliersSeq || e.name === 'AbortError') return;
    hiddenList.clear(`What the aggregates hide could not be ranked: ${e.message}`);
  } finally {
    if (seq === outliersSeq) $('outliers').classList.remove('stale');
  }
}

/** The caption's count of hidden deviations (those worth telling apart at the p shown), in words. */
function captionHidden(hidden, text) {
  const c = $('caption');
  c.querySelector('.hidden-count')?.remove();
  const span = document.createElement('span');
  span.className = 'hidden-count';
  span.textContent = ` · ${text}`;
  c.append(span);
  c.dataset.hidden = String(hidden);
}

/** A node hidden in a shown one, chosen in the list or on the view: the overview of the node it is merged into. */
function chooseHiddenNode(o) {
  go({ ...state, panel: '', include: o.aggregateNode === 0 || model ? [] : [o.aggregate], p: '' }, true);
}

/**
 * A hidden deviation chosen in the list or on the picture: its producer's Gantt chart over its
 * time (a model file has none: a zoom on its slices), or with 'zoom' a zoom on its time with every
 * producer kept, so that it is seen against those it departs from.
 */
function chooseOutlier(o, action) {
  if (model) {
    const w = wholeSlices(o);
    go({ ...state, start: String(w.start), end: String(w.end), p: '' }, true);
    return;
  }
  const span = o.end - o.start;
  const from = String(roundTime(o.start, span)), to = String(roundTime(o.end, span));
  if (action === 'zoom') {
    zoomedFromP = shownP;
    go({ ...state, start: from, end: to, p: '' }, true);
  } else {
    go({ ...state, gantt: '1', gfrom: from, gto: to, gproducers: o.node === 0 ? state.include : [o.producer] }, true);
  }
}

/** What the answer is about: the trace, or the model file (whose answers name no trace). */
function sourceName(r) {
  return r.trace ? r.trace.name : model.name;
}

/** The number of time slices the treemap steps through: a model's window's, or N. */
function sliceCount() {
  if (!model) return Number(state.slices);
  return (state.end === '' ? model.slices : Number(state.end)) - (state.start === '' ? 0 : Number(state.start));
}

function showPanel() {
  const spatial = state.panel === 'treemap' || state.panel === 'topology';
  $('treemap-row').hidden = !spatial;
  $('overview-row').hidden = spatial || state.panel === 'query';
  $('query-row').hidden = state.panel !== 'query';
  $('curves-row').hidden = state.panel === 'query';
  $('treemap').hidden = state.panel !== 'treemap';
  $('topology').hidden = state.panel !== 'topology';
  for (const b of document.querySelectorAll('#panels button')) b.classList.toggle('active', b.dataset.panel === state.panel);
}

/**
 * The details' part of the height, under the split: shown with the statistics or the Gantt chart,
 * at first a little under half the height (CSS keeps both sides to their minimum heights).
 */
function showSplit() {
  const open = !$('stats').hidden || !$('details').hidden;
  if (open && $('below').hidden) $('below').style.height = `${Math.round($('work').clientHeight * 0.42)}px`;
  $('below').hidden = $('split').hidden = !open;
}

/** Dragging the split shares the height between the views and the details, each above its minimum. */
$('split').addEventListener('pointerdown', e => {
  const split = $('split'), below = $('below');
  const row = $('overview-row').hidden ? $('treemap-row') : $('overview-row');
  const startY = e.clientY, startBelow = below.offsetHeight;
  const spare = row.offsetHeight - parseFloat(getComputedStyle(row).minHeight);
  const least = parseFloat(getComputedStyle(below).minHeight);
  split.setPointerCapture(e.pointerId);
  split.classList.add('dragging');
  const move = m => {
    below.style.height = `${Math.round(Math.max(least, Math.min(startBelow + spare, startBelow + startY - m.clientY)))}px`;
  };
  const end = () => {
    split.classList.remove('dragging');
    split.removeEventListener('pointermove', move);
    split.removeEventListener('pointerup', end);
  };
  split.addEventListener('pointermove', move);
  split.addEventListener('pointerup', end);
  e.preventDefault();
});

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
    treemapPending = true;
    const r = await spatialAnswer(state);
    if (seq !== treemapSeq) return; // a newer request will draw
    treemapPending = false;
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
    const hidden = (graph ? r.topology : r.treemap).hiddenNodes;
    spatialList.show(hidden, hidden.outliers, { scale: null, zoom: false,
      marks: 'Numbered on the node each is merged into.', hint: 'Click a row or its number: the overview of that node.' });
    $('treemap-busy').hidden = true;
    message('');
    if (playing !== null) {
      askAhead(nextStepOf(state));
      playing = setTimeout(nextStep, PLAY_FRAME_MS);
    }
  } catch (e) {
    if (seq === treemapSeq) treemapPending = false;
    $('treemap-busy').hidden = true;
    stopPlaying();
    message(e.message, true);
  }
}

function syncTreemapControls() {
  const depth = model ? model.depth : trace ? trace.depth : 0;
  const cuts = [['', 'spatial partition at p'], ...Array.from({ length: depth }, (_, i) => [String(i + 1), `depth ${i + 1}`])];
  $('cut').innerHTML = cuts.map(([v, l]) => `<option value="${v}">${l}</option>`).join('');
  $('cut').value = state.cut;
  $('step').max = String(sliceCount() - 1);
  $('step').value = state.step === '' ? '-1' : state.step;
}

function drawTreemapFrame(r) {
  const t = r.treemap;
  curves.show(r.curves);
  $('p-value').textContent = pValue(r.p);
  $('part-count').textContent = `${r.partCount} part${r.partCount === 1 ? '' : 's'} · breakpoint ${r.curves.chosen + 1} of ${r.curves.breakpoints.length}`;
  const span = r.end - r.start;
  const unit = r.trace ? r.trace.unit : r.timeUnit;
  const stepText = t.firstSlice === t.lastSlice
    ? `step ${t.firstSlice + 1} of ${t.slices}: ${time(t.stepStart, span / r.slices, '')} – ${time(t.stepEnd, span / r.slices, unit)}`
    : 'whole window';
  $('step-label').textContent = stepText;
  showMapping($('graph-mapping'), r, state, (size, fill) => go({ ...state, size, fill }, true));
  if (r.topology) {
    // The graph draws the Metric setting's model: say where capacity and use are to be had.
    const capacityHint = !model && trace.metrics.includes('variable-mean') && state.metric !== 'variable-mean'
      ? ' (Metric “variable mean”: capacity and use, where the trace records them)' : '';
    $('treemap-legend').innerHTML = ['■ hosts, ◆ network links, ● processes', r.topology.capacities
      ? (state.size.length || state.fill.length ? 'size and fill per node kind: below' : 'size = capacity, fill = use / capacity')
      : `size and fill: ${r.metricLabel}${capacityHint}`,
      'grey: platform links; blue: messages', 'thick outline: collapsed group (click to expand)',
      ...(state.toggles.length ? [`${state.toggles.length} groups expanded or collapsed`] : []),
      ...overCapacity(r.topology.nodes),
      ...(t.note ? [t.note] : [])].map(n => `<span class="note">${escapeHtml(n)}</span>`).join('');
  } else $('treemap-legend').innerHTML = t.legend.map(l =>
    `<div><span class="swatch" style="background:${l.colour}"></span>${escapeHtml(l.name)}</div>`).join('')
    + ['opacity = share of the dominant type', 'dashed: aggregate of the spatial partition (name, leaves)',
      ...(t.cells.some(c => c.kind === 'VISUAL') ? ['hatched: nodes too small to draw'] : []),
      ...(t.note ? [t.note] : [])].map(n => `<span class="note">${escapeHtml(n)}</span>`).join('');
  $('caption').textContent = [
    sourceName(r), `window ${time(r.start, span / r.slices, '')} – ${time(r.end, span / r.slices, unit)}`,
    stepText, `N = ${r.slices}`, ...filterCaption(), r.metricLabel,
    state.cut === '' ? `spatial partition at p = ${pValue(r.p)}` : `cut at depth ${state.cut}`,
    `gain ${percent(r.gainFraction)}`, `loss ${percent(r.lossFraction)}`, r.topology ? `${r.topology.nodes.length} nodes, ${r.topology.edges.length} edges` : `${t.cut.length} shown nodes`,
    r.exact ? 'exact model' : 'APPROXIMATE model', `${Math.round(r.clientMs)} ms`,
  ].join(' · ');
  const hidden = (r.topology || t).hiddenNodes.hidden;
  captionHidden(hidden, `${hidden} hidden node${hidden === 1 ? '' : 's'}`
    + ' (departing from the shown node that merges them, worth telling apart at this p; listed on the right)');
  Object.assign($('caption').dataset, { p: String(r.p), start: String(r.start), end: String(r.end),
    parts: String(r.partCount), leaves: String(r.leaves), slices: String(r.slices),
    view: r.topology ? 'spatial topology' : 'spatial treemap',
    step: String(t.firstSlice === t.lastSlice ? t.firstSlice : -1),
    shown: String(r.topology ? r.topology.nodes.length : t.cut.length),
    edges: String(r.topology ? r.topology.edges.length : 0) });
  const path = r.topology ? 'topology' : 'treemap';
  const exportParams = r.topology ? S.topologyParams({ ...state, p: String(r.p) }, topology.size())
    : S.treemapParams({ ...state, p: String(r.p) }, treemap.size());
  if (r.topology) { exportParams.delete('width'); exportParams.delete('height'); }
  exportParams.set('token', token);
  $('export-svg').href = api.exportUrl(path, `${exportParams}&format=svg`);
  $('export-png').href = api.exportUrl(path, `${exportParams}&format=png`);
  $('export-csv').href = api.exportUrl('breakpoints', `${S.apiParams({ ...state, p: String(r.p) })}&token=${token}&format=csv`);
}

/** The query of a treemap or graph answer for a state. */
function spatialQuery(s) {
  const graph = s.panel === 'topology';
  return [graph ? 'topology' : 'treemap', graph ? S.topologyParams(s, topology.size()) : S.treemapParams(s, treemap.size())];
}

/** The treemap or graph of a state: the answer asked for ahead when it is this one, else a new question. */
function spatialAnswer(s) {
  const [path, params] = spatialQuery(s);
  const key = `${path}?${params}`;
  const answer = ahead && ahead.key === key ? ahead.answer : api.get(path, params);
  ahead = null;
  return answer;
}

/** Asks now for the answer of a state shown next (null: none), so that it is in when its turn comes. */
function askAhead(next) {
  if (!next) { ahead = null; return; }
  const [path, params] = spatialQuery(next);
  const answer = api.get(path, params);
  answer.catch(() => {}); // its failure is reported when its step is shown
  ahead = { key: `${path}?${params}`, answer };
}

/** The state of the next time step, or null after the last one. */
function nextStepOf(s) {
  const step = s.step === '' ? 0 : Number(s.step) + 1;
  return step < sliceCount() ? { ...s, step: String(step) } : null;
}

function nextStep() {
  const next = nextStepOf(state);
  if (!next) { stopPlaying(); return; }
  go(next, false);
}

function stopPlaying() {
  clearTimeout(playing);
  playing = null;
  ahead = null;
  $('play').textContent = '▶ Play';
}

/** The filters in words, so that a zoom on a subtree is never mistaken for the whole trace. */
function filterCaption() {
  const parts = [];
  if (last && last.producerDepth > 0) {
    parts.push(`producers cut at depth ${last.producerDepth}${state.depth === 'auto' ? ' (auto: choose Producer depth to go deeper)' : ''}`);
  }
  if (state.include.length) parts.push(`only ${state.include.join(', ')}`);
  if (state.exclude.length) parts.push(`${state.exclude.length} producer subtree${state.exclude.length === 1 ? '' : 's'} hidden`);
  if (state.xkinds.length) parts.push(`without producers of type ${state.xkinds.join(', ')}`);
  if (state.xtypes.length) parts.push(`${state.xtypes.length} type${state.xtypes.length === 1 ? '' : 's'} hidden`);
  return parts;
}

function legend(r) {
  const notes = [];
  if (r.view === 'mode') notes.push(r.types.length === 1 ? `opacity = value / largest value (${r.valueUnit})` : 'opacity = share of the dominant type');
  if (r.view === 'partition') notes.push('touching parts in different colours');
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
  if (model) { // whole slices, every producer: a model file's window is a range of its slices
    const w = wholeSlices(selection);
    go({ ...state, start: String(w.start), end: String(w.end), p: '' }, true);
    return;
  }
  const span = selection.end - selection.start;
  const next = { ...state, start: String(roundTime(selection.start, span)), end: String(roundTime(selection.end, span)), p: '' };
  if (selection.producer && selection.producer.path) next.include = [selection.producer.path];
  zoomedFromP = shownP;
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
  // A step still being answered is shown first (its answer schedules the next): resuming never skips it.
  if (!treemapPending) nextStep();
});
$('cancel').addEventListener('click', async () => {
  if (importing) { await api.cancelImport(); return; } // the import's own handler says so
  await api.cancel();
  $('busy').hidden = true;
  message(last ? 'cancelled: the picture shown answers the previous settings' : 'cancelled', true);
});
$('apply').addEventListener('click', () => {
  const next = settingsFromControls();
  const problem = invalidSettings(next);
  if (problem) { message(problem, true); return; }
  go({ ...next, p: '' }, true);
});
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
// A second trace opened as a pair with the one shown (BASE), or the pair closed on OTHER.
$('compare-with').addEventListener('change', () => {
  const other = $('compare-with').value;
  $('compare-with').value = '';
  if (other && state.trace) go({ ...S.defaults(), base: state.trace, other }, true);
});
$('close-compare').addEventListener('click', () => go({ ...S.defaults(), trace: state.other }, true));
$('align').addEventListener('change', () => go({ ...state, align: $('align').value, start: '', end: '', p: '', gantt: '',
  gfrom: '', gto: '', gproducers: [] }, true));
$('zoom').addEventListener('click', zoom);
/** The records of the selection (a drag, or a clicked aggregate): Gantt chart and event table. */
function openGantt() {
  if (!selection || model) return;
  if (pair.active) { pair.openGantt({ start: selection.start, end: selection.end, path: selection.producer?.path || null }); return; }
  const span = selection.end - selection.start;
  const producers = selection.producer && selection.producer.path ? [selection.producer.path] : state.include;
  go({ ...state, gantt: '1', gfrom: String(roundTime(selection.start, span)), gto: String(roundTime(selection.end, span)),
    gproducers: producers }, true);
}
$('open-gantt').addEventListener('click', openGantt);
/** The statistics of the selection, or without one of the window shown and its producer filter. */
function openStats() {
  if (!state.trace) return;
  const start = selection ? selection.start : last ? last.start : trace?.start;
  const end = selection ? selection.end : last ? last.end : trace?.end;
  if (start === undefined || end === undefined) return;
  const producers = selection && selection.producer && selection.producer.path ? [selection.producer.path] : state.include;
  go({ ...state, stats: '1', sfrom: String(roundTime(start, end - start)), sto: String(roundTime(end, end - start)),
    sproducers: producers }, true);
}
$('open-stats').addEventListener('click', openStats);
$('back').addEventListener('click', () => history.back());
$('forward').addEventListener('click', () => history.forward());
$('reset').addEventListener('click', () => go({ ...state, start: '', end: '', p: '', include: [], exclude: [], xkinds: [], xtypes: [] }, true));
window.addEventListener('popstate', () => { state = stateOfUrl(); render(); });
document.addEventListener('keydown', e => {
  if (e.target.closest('input, select, textarea') || e.target === $('curves')) return;
  if (e.key === 'ArrowLeft' || e.key === 'ArrowRight') {
    const p = curves.stepped(e.key === 'ArrowLeft' ? -1 : 1);
    if (p !== null) { e.preventDefault(); setP(p); }
  } else if (e.key === 'Enter' && selection) {
    zoom();
  } else if ((e.key === 'g' || e.key === 'G') && selection) {
    openGantt();
  } else if (e.key === 's' || e.key === 'S') {
    openStats();
  } else if (e.key === 'Escape') {
    overview.clearSelection();
    selection = null;
    $('zoom').disabled = true;
  }
});
/** Whether an import runs: the busy badge's Cancel is then for it. */
let importing = false;
$('import-form').addEventListener('submit', async e => {
  e.preventDefault();
  const path = $('import-path').value.trim();
  if (!path) return;
  message(`importing ${path}…`);
  // A trace of gigabytes takes minutes: the badge follows the import, and Cancel stops it.
  importing = true;
  $('busy').hidden = false;
  $('busy-text').textContent = 'importing the trace…';
  $('busy-bar').hidden = true;
  try {
    const imported = await api.importTrace(path, showProgress);
    if (!imported) { message(`import of ${path} cancelled: nothing was kept`, true); return; }
    await loadTraces();
    $('import-path').value = '';
    message(`imported ${imported.name}`);
    go({ ...S.defaults(), trace: imported.id }, true);
  } catch (err) {
    message(err.message, true);
  } finally {
    importing = false;
    $('busy').hidden = true;
  }
});

/** The state the URL describes, kept to what the session can show. */
function stateOfUrl() {
  const s = S.fromUrl(location.search);
  return model ? S.modelState(s) : s;
}

/**
 * A model session: the page offers what the model alone gives (overviews, p, curves, treemap,
 * exports); the controls that need the trace's records go, and the page says why in one line.
 */
function enterModelSession(m) {
  model = m;
  const reason = `${m.name} is a model file: Gantt chart, event table, statistics, graph, filters and `
    + 'selections need the trace\'s records, which it does not hold.';
  for (const e of document.querySelectorAll('[data-trace-only]')) e.hidden = true;
  for (const b of [$('open-gantt'), $('open-stats'), document.querySelector('#panels [data-panel="topology"]')]) {
    b.disabled = true;
    b.title = reason;
  }
  $('reset').title = 'the whole model, every slice';
  $('selection').textContent = modelHint();
  state = stateOfUrl();
}

(async function start() {
  try {
    S.configure(await api.get('vocabulary'));
    metricMenu();
    state = S.fromUrl(location.search);
    const session = await api.get('session');
    if (session.model) {
      enterModelSession(session.model);
      go(state, false);
      return;
    }
    const traces = await loadTraces();
    if (!state.trace && !state.base && traces.length) state = { ...state, trace: traces[0].id };
    if (!traces.length) message('No trace yet: type the path of a trace file on this machine and press Import.');
    go(state, false);
  } catch (e) {
    message(e.message, true);
  }
})();
