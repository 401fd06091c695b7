// The view's state and its URL form: every setting lives in the query string, so a reload
// restores the view and a URL can be shared (the token comes along, as with notebook servers).

export const VIEWS = {
  temporal: ['mode', 'stacked', 'partition'],
  spatiotemporal: ['mode', 'partition'],
};

const LIST_SEPARATOR = '|';

/** Keys in URL order; values are strings or, for lists, arrays. */
const KEYS = ['trace', 'base', 'other', 'align', 'panel', 'metric', 'aggregation', 'view', 'slices', 'depth', 'start', 'end', 'exact', 'time', 'p', 'include',
  'exclude', 'xkinds', 'xtypes', 'cut', 'step', 'toggles', 'size', 'fill', 'gantt', 'gfrom', 'gto', 'gproducers', 'stats', 'sfrom', 'sto',
  'sproducers'];
/** The page's own lists (the details panels' producers); the request's lists come from the spec. */
const PAGE_LISTS = ['gproducers', 'sproducers'];
let LISTS = new Set(['include', 'exclude', 'xkinds', 'xtypes', 'toggles', 'size', 'fill', ...PAGE_LISTS]);
/** The request spec (GET /api/vocabulary): its parameters by name; until it is read, the page's copy above. */
let spec = new Map();
/** The server's metrics, plug-ins' included (the spec's `metrics`): name, label and the category of types each reads. */
let metricList = [];

/**
 * Takes the server's request spec: which URL keys hold lists, and the defaults of the request
 * parameters the page starts with, so that the page and the command line cannot drift apart.
 */
export function configure(vocabulary) {
  spec = new Map(vocabulary.parameters.map(p => [p.name, p]));
  const lists = vocabulary.parameters.filter(p => p.type === 'LIST').flatMap(p => p.keys);
  LISTS = new Set([...lists.filter(key => KEYS.includes(key)), ...PAGE_LISTS]);
  metricList = vocabulary.metrics;
}

/** Every metric the server knows, Ocelotl's own then the plug-ins': {name, label, category}. */
export function metrics() {
  return metricList;
}

/** The category of the types a metric reads (state, event, variable, link), or undefined for an unknown name. */
export function metricCategory(name) {
  return metricList.find(m => m.name === name)?.category;
}

/** A request parameter's default as the spec gives it, or the page's own copy before the spec is read. */
function fallback(name, copy) {
  return spec.get(name)?.fallback ?? copy;
}

export function defaults() {
  // depth 'auto' (the spec's, as the command line's): a wide trace shows its structure (the
  // deepest level that fits) rather than one aggregated block; '0' keeps every level.
  return { trace: '', base: '', other: '', align: '', metric: fallback('metric', 'state-duration'), exact: '', time: '', aggregation: fallback('aggregation', 'temporal'),
    view: fallback('view', 'mode'), slices: fallback('slices', '100'), depth: fallback('depth', 'auto'),
    start: '', end: '', p: '', include: [], exclude: [], xkinds: [], xtypes: [], panel: '', cut: '', step: '', toggles: [],
    size: [], fill: [], gantt: '', gfrom: '', gto: '', gproducers: [], stats: '', sfrom: '', sto: '', sproducers: [] };
}

export function fromUrl(search) {
  const q = new URLSearchParams(search);
  const s = defaults();
  for (const key of KEYS) {
    if (!q.has(key)) continue;
    const raw = q.get(key);
    s[key] = LISTS.has(key) ? raw.split(LIST_SEPARATOR).filter(x => x !== '') : raw;
  }
  if (!VIEWS[s.aggregation]) s.aggregation = 'temporal';
  if (!VIEWS[s.aggregation].includes(s.view)) s.view = VIEWS[s.aggregation][0];
  return s;
}

/**
 * The state of a model session (ocelotl view --model): the model file fixes the metric, slices
 * and filters, so only the window (a zoom: whole slices start to end), the aggregation, the view,
 * p and the treemap's cut and step are kept; the others are left empty, hence out of the URL and
 * of every API request.
 */
export function modelState(s) {
  return { ...defaults(), trace: '', metric: '', slices: '', depth: '', start: s.start, end: s.end,
    aggregation: s.aggregation, view: s.view, p: s.p, panel: s.panel === 'treemap' ? 'treemap' : '', cut: s.cut,
    step: s.step };
}

export function token(search) {
  return new URLSearchParams(search).get('token') || '';
}

/** The query string of a state: token first, then every setting that is set. */
export function toQuery(state, tokenValue) {
  const q = new URLSearchParams();
  if (tokenValue) q.set('token', tokenValue);
  for (const key of KEYS) {
    const v = state[key];
    if (LISTS.has(key) ? v.length === 0 : v === '' || v === undefined || v === null) continue;
    q.set(key, LISTS.has(key) ? v.join(LIST_SEPARATOR) : String(v));
  }
  return q.toString();
}

/** The API parameters of an overview request (p left out when the server should choose). */
export function apiParams(state) {
  const q = new URLSearchParams();
  for (const key of ['trace', 'metric', 'aggregation', 'view', 'slices', 'depth', 'start', 'end', 'exact', 'time', 'p']) {
    if (state[key] !== '' && state[key] !== undefined) q.set(key, String(state[key]));
  }
  if (state.include.length) q.set('include', state.include.join(LIST_SEPARATOR));
  if (state.exclude.length) q.set('exclude', state.exclude.join(LIST_SEPARATOR));
  if (state.xkinds.length) q.set('xkinds', state.xkinds.join(LIST_SEPARATOR));
  if (state.xtypes.length) q.set('xtypes', state.xtypes.join(LIST_SEPARATOR));
  return q;
}

/**
 * The API parameters of a treemap (docs/api.md): the overview's model settings and p, the cut
 * (p or a depth) and the time step; the treemap is always a spatial aggregation.
 */
export function treemapParams(state, size) {
  const q = apiParams(state);
  q.delete('aggregation');
  q.delete('view');
  if (state.cut !== '') q.set('cut', state.cut);
  if (state.step !== '') q.set('step', state.step);
  q.set('width', String(size.width));
  q.set('height', String(size.height));
  return q;
}

/**
 * The API parameters of a topology graph: the treemap's, with the expanded and collapsed groups.
 * The metric is always sent: the graph draws the model the settings show (decision 039), never the
 * capacity model the server would choose for a request without one.
 */
export function topologyParams(state, size) {
  const q = treemapParams(state, size);
  if (state.toggles.length) q.set('toggles', state.toggles.join(LIST_SEPARATOR));
  // Size and fill per node kind (decision 050): only with the variable mean, whose model holds the variables.
  // The variable chosen for the overview leaves the model: the mapping names its own variables.
  if (state.metric === 'variable-mean' && (state.size.length || state.fill.length)) {
    q.delete('xtypes');
    if (state.size.length) q.set('size', state.size.join(LIST_SEPARATOR));
    if (state.fill.length) q.set('fill', state.fill.join(LIST_SEPARATOR));
  }
  return q;
}

/** Whether two states need a new model (anything but p and the view changed). */
export function sameModel(a, b) {
  if (!a || !b) return false;
  for (const key of ['trace', 'metric', 'aggregation', 'slices', 'depth', 'start', 'end', 'exact', 'time']) {
    if (String(a[key]) !== String(b[key])) return false;
  }
  for (const key of LISTS) {
    if (a[key].join(LIST_SEPARATOR) !== b[key].join(LIST_SEPARATOR)) return false;
  }
  return true;
}
