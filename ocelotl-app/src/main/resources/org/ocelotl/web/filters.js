// Producer filter (a tree checked by subtree and by level) and event type filter. Both edit
// lists of names in the state: exclude (producer paths) and xtypes (type names).
import { escapeHtml } from './format.js';
import { metricCategory } from './state.js';


/** Whether `path` is `ancestor` or lies under it. */
export function within(path, ancestor) {
  return path === ancestor || path.startsWith(ancestor + '/');
}

export class ProducerFilter {
  /**
   * onChange(exclude, xkinds): the subtrees and the container types left out. A whole type goes
   * out by its name (the URL stays short: "MPI none" is xkinds=MPI, not 64 rank paths).
   */
  constructor(treeBox, levelBox, onChange) {
    this.treeBox = treeBox;
    this.levelBox = levelBox;
    this.onChange = onChange;
    this.nodes = [];
    this.include = [];
    this.xkinds = [];
    this.exclude = [];
    this.open = new Set();
    treeBox.addEventListener('change', e => this.#toggle(e.target));
    treeBox.addEventListener('click', e => {
      const t = e.target.closest('.toggle');
      if (!t) return;
      const path = t.dataset.path;
      if (this.open.has(path)) this.open.delete(path); else this.open.add(path);
      this.render();
    });
    levelBox.addEventListener('click', e => {
      const b = e.target.closest('button');
      if (b) this.#level(b.dataset.kind, b.dataset.action === 'all');
    });
  }

  /** nodes: [{id, name, path, parent, depth, kind}], parents first; the root has path ''. */
  setNodes(nodes) {
    this.nodes = nodes;
    this.children = new Map();
    for (const n of nodes) {
      if (n.parent >= 0) {
        if (!this.children.has(n.parent)) this.children.set(n.parent, []);
        this.children.get(n.parent).push(n);
      }
    }
    this.open = new Set(nodes.filter(n => n.depth <= 1).map(n => n.path));
    this.render();
  }

  /**
   * exclude: subtrees removed; include: the subtrees a zoom kept (empty: all). Producers outside
   * the zoom are shown unchecked and disabled, so the tree never claims more than is drawn.
   */
  setExcluded(exclude, include = [], xkinds = []) {
    this.exclude = [...exclude];
    this.include = [...include];
    this.xkinds = [...xkinds];
    this.render();
  }

  #outsideZoom(path) {
    return this.include.length > 0 && path !== '' && !this.include.some(x => within(path, x) || within(x, path));
  }

  #excluded(path) {
    return this.exclude.some(x => within(path, x));
  }

  render() {
    const root = this.nodes.find(n => n.parent < 0);
    if (!root) { this.treeBox.innerHTML = ''; this.levelBox.innerHTML = ''; return; }
    this.treeBox.innerHTML = `<ul>${(this.children.get(root.id) || []).map(n => this.#item(n)).join('')}</ul>`;
    // One entry per container type, by the trace's own names, shallowest first: a level holds
    // several types where the platform mixes them (SimGrid's hosts and routers).
    const kinds = new Map();
    for (const n of this.nodes) {
      if (n.depth === 0) continue;
      const kind = n.kind || `depth ${n.depth}`;
      const k = kinds.get(kind) || { depth: n.depth, count: 0 };
      k.count++;
      kinds.set(kind, k);
    }
    const ordered = [...kinds].sort((a, b) => a[1].depth - b[1].depth || a[0].localeCompare(b[0]));
    this.levelBox.innerHTML = '<span class="label">by type:</span> ' + ordered.map(([kind, k]) =>
      `<span title="check or uncheck the ${k.count} producers of type ${escapeHtml(kind)}">${escapeHtml(kind)} (${k.count})`
      + ` <button type="button" data-kind="${escapeHtml(kind)}" data-action="all">all</button>`
      + `<button type="button" data-kind="${escapeHtml(kind)}" data-action="none">none</button></span>`).join(' ');
  }

  #item(n) {
    const kids = this.children.get(n.id) || [];
    const isOpen = this.open.has(n.path);
    const toggle = kids.length ? `<span class="toggle" data-path="${escapeHtml(n.path)}">${isOpen ? '▾' : '▸'}</span>` : '<span class="toggle"></span>';
    const outside = this.#outsideZoom(n.path) || this.xkinds.includes(n.kind);
    const checked = this.#excluded(n.path) || outside ? '' : 'checked';
    const disabled = outside ? ' disabled title="outside the zoom: Reset to see it"' : '';
    const sub = kids.length && isOpen ? `<ul>${kids.map(k => this.#item(k)).join('')}</ul>` : '';
    return `<li><label>${toggle}<input type="checkbox" data-path="${escapeHtml(n.path)}" ${checked}${disabled}>`
      + `${escapeHtml(n.name)}${kids.length ? ` <span class="hint">(${kids.length})</span>` : ''}</label>${sub}</li>`;
  }

  #toggle(input) {
    const path = input.dataset.path;
    if (path === undefined) return;
    if (input.checked) this.#include(path);
    else this.exclude = [...this.exclude.filter(x => !within(x, path)), path];
    this.render();
    this.onChange(this.exclude, this.xkinds);
  }

  // Re-checking a producer under an excluded ancestor: the ancestor's exclusion becomes the
  // exclusion of every sibling along the way down, so only the producer comes back.
  #include(path) {
    const byPath = new Map(this.nodes.map(n => [n.path, n]));
    let blocking = this.exclude.find(x => within(path, x));
    this.exclude = this.exclude.filter(x => !within(x, path));
    while (blocking !== undefined) {
      this.exclude = this.exclude.filter(x => x !== blocking);
      if (blocking === path) break;
      const ancestor = byPath.get(blocking);
      const next = (this.children.get(ancestor.id) || []).find(k => within(path, k.path));
      for (const k of this.children.get(ancestor.id) || []) if (k !== next) this.exclude.push(k.path);
      blocking = next.path;
    }
  }

  #level(kind, all) {
    const ofKind = this.nodes.filter(n => n.depth > 0 && n.kind === kind).map(n => n.path);
    // The type's own exclusions are folded into the type: one name in the URL, not one per producer.
    this.exclude = this.exclude.filter(x => !ofKind.includes(x));
    this.xkinds = all ? this.xkinds.filter(k => k !== kind) : [...new Set([...this.xkinds, kind])];
    this.render();
    this.onChange(this.exclude, this.xkinds);
  }
}

export class TypeFilter {
  constructor(box, onChange) {
    this.box = box;
    this.onChange = onChange;
    this.types = [];
    this.excluded = [];
    this.colours = new Map();
    box.addEventListener('change', e => {
      const name = e.target.dataset.type;
      if (name === undefined) return;
      if (e.target.type === 'radio') {
        // One variable at a time: the others are excluded.
        this.excluded = this.shown.map(t => t.name).filter(x => x !== name);
      } else {
        this.excluded = e.target.checked ? this.excluded.filter(x => x !== name) : [...this.excluded, name];
      }
      this.onChange(this.excluded);
    });
  }

  set(types, excluded, metric, legend) {
    this.types = types;
    this.excluded = [...excluded];
    for (const l of legend || []) this.colours.set(l.name, l.colour);
    const category = metricCategory(metric);
    const shown = types.filter(t => t.category === category && t.count > 0);
    this.shown = shown;
    // Variables have units of their own: the server shows one at a time (the legend's).
    const single = metric === 'variable-mean';
    const isShown = t => single ? (legend || []).some(l => l.name === t.name) : !this.excluded.includes(t.name);
    this.box.innerHTML = shown.length === 0 ? `<p class="hint">no ${category} types in this trace</p>`
      : (single ? '<p class="hint">one variable at a time: their units differ</p>' : '')
      + shown.map(t => `<label><input type="${single ? 'radio' : 'checkbox'}" name="type-filter" data-type="${escapeHtml(t.name)}" ${isShown(t) ? 'checked' : ''}>`
        + `<span class="swatch" style="background:${this.colours.get(t.name) || '#fff'}"></span>${escapeHtml(t.name)}`
        + ` <span class="hint">${t.count.toLocaleString('en-US')}</span></label>`).join('');
  }
}
