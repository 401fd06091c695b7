// Draws an overview's geometry (blocks in [0,1]², producer axis, time axis) on a canvas, and
// turns the mouse into tooltips and selections. Coordinates come from the server's view
// geometry; this file only maps them to pixels.
import { niceTicks, since, time, value, percent, escapeHtml } from './format.js';
import { OUTLIER_INK, OUTLIER_HALO, outlierTooltip, sliceWidth } from './outliers.js';

const MARGIN = { left: 150, right: 12, top: 10, bottom: 34 };
const AXIS_INK = '#444';
const SELECTION = 'rgba(47,109,181,0.18)';
/** Height of a lane of time bars marking hidden deviations where the picture has no producer axis. */
const LANE = 18;
/** How far from a mark's outline a click or hover still takes the mark (CSS pixels). */
const MARK_REACH = 3;

export class OverviewView {
  constructor(canvas, tooltip, onSelect) {
    this.canvas = canvas;
    this.tooltip = tooltip;
    this.onSelect = onSelect;
    this.data = null;
    this.selection = null; // {x0, x1, y0, y1} in [0,1]
    this.drag = null;
    this.outliers = [];     // the hidden deviations listed beside the picture, in rank order
    this.stressed = null;   // the rank whose mark is drawn heavier (its row is hovered)
    this.marks = [];        // where each mark was drawn: {rank, boxes: [[x0, y0, x1, y1], …]} in CSS pixels
    this.onOutlier = null;  // (rank) when a mark is clicked
    this.markTooltip = null; // (item, rank) → a mark's tooltip, when the marks are not hidden deviations
    canvas.addEventListener('mousedown', e => this.#down(e));
    window.addEventListener('mousemove', e => this.#move(e));
    window.addEventListener('mouseup', e => this.#up(e));
    canvas.addEventListener('mouseleave', () => { this.tooltip.hidden = true; });
    new ResizeObserver(() => this.draw()).observe(canvas);
  }

  /** Plot height in CSS pixels: the server needs it to decide which producers are too thin. */
  plotHeight() {
    return Math.max(50, Math.round(this.canvas.clientHeight - MARGIN.top - MARGIN.bottom));
  }

  show(data) {
    this.data = data;
    this.outliers = []; // they belong to the previous picture; the page marks the new one's
    this.selection = null;
    this.onSelect(null);
    this.draw();
  }

  /** Marks these hidden deviations (each with x0, x1, y0, y1 in [0, 1]²), numbered in order; [] clears. */
  setOutliers(items) {
    this.outliers = items;
    this.stressed = null;
    this.draw();
  }

  /** Draws the mark of rank (1-based) heavier, or none. */
  stress(rank) {
    if (rank === this.stressed) return;
    this.stressed = rank;
    this.draw();
  }

  clearSelection() {
    this.selection = null;
    this.draw();
  }

  /**
   * Selects [x0, x1] of the window (fractions) over the rows of the producer at `path` (null: every
   * row), as a drag would, and with `notify` tells onSelect as a drag does; x0 null clears. Views
   * that share one selection (two runs compared) set each other's by this.
   */
  select(x0, x1, path, notify) {
    if (x0 === null || !this.data) { this.clearSelection(); return; }
    const clamp = v => Math.min(1, Math.max(0, v));
    const axis = this.data.overview.producers;
    const node = path && axis.length ? holdingNode(axis, path) : null;
    this.selection = { x0: clamp(x0), x1: clamp(x1), y0: node ? node.y0 : 0, y1: node ? node.y1 : 1 };
    this.draw();
    if (notify) this.onSelect(this.#describe(this.selection));
  }

  /**
   * Outlines the rows of a producer (its path below the root), or of the deepest row that holds
   * it when it is drawn inside a coarser one; null clears. Nothing to show without a producer axis.
   */
  highlight(path) {
    if (path === this.highlighted) return;
    this.highlighted = path;
    this.draw();
  }

  #plot() {
    const w = this.canvas.clientWidth;
    const h = this.canvas.clientHeight;
    const left = this.data && this.data.overview.producers.length ? MARGIN.left : this.data && this.data.overview.valueMax > 0 ? 76 : 28;
    return { x: left, y: MARGIN.top, w: Math.max(10, w - left - MARGIN.right), h: Math.max(10, h - MARGIN.top - MARGIN.bottom) };
  }

  draw() {
    const c = this.canvas;
    const ratio = window.devicePixelRatio || 1;
    const w = c.clientWidth;
    const h = c.clientHeight;
    if (c.width !== Math.round(w * ratio) || c.height !== Math.round(h * ratio)) {
      c.width = Math.round(w * ratio);
      c.height = Math.round(h * ratio);
    }
    const g = c.getContext('2d');
    g.setTransform(ratio, 0, 0, ratio, 0, 0);
    g.clearRect(0, 0, w, h);
    if (!this.data) return;
    const o = this.data.overview;
    const plot = this.#plot();
    // Where the plot and the time ticks are, for scripts and tests that drive the page.
    c.dataset.plot = `${plot.x} ${plot.y} ${plot.w} ${plot.h}`;
    this.#blocks(g, o, plot);
    g.strokeStyle = '#8a8a8a';
    g.lineWidth = 1;
    g.strokeRect(plot.x - 0.5, plot.y - 0.5, plot.w + 1, plot.h + 1);
    this.#timeAxis(g, o, plot);
    c.dataset.producerLabels = '';
    if (o.producers.length) this.#producerAxis(g, o, plot);
    else if (o.valueMax > 0) this.#valueAxis(g, o, plot);
    else this.#allProducersLabel(g, plot);
    delete c.dataset.highlight;
    if (this.highlighted && o.producers.length) this.#highlight(g, o, plot);
    this.#outlierMarks(g, o, plot);
    // For scripts and tests: the selection drawn, "x0 x1 y0 y1" in [0, 1]² of the plot.
    c.dataset.selection = this.selection ? [this.selection.x0, this.selection.x1, this.selection.y0, this.selection.y1].join(' ') : '';
    if (this.selection) {
      const s = this.selection;
      g.fillStyle = SELECTION;
      g.strokeStyle = '#2f6db5';
      const x = plot.x + s.x0 * plot.w, y = plot.y + s.y0 * plot.h;
      const sw = (s.x1 - s.x0) * plot.w, sh = (s.y1 - s.y0) * plot.h;
      g.fillRect(x, y, sw, sh);
      g.strokeRect(x + 0.5, y + 0.5, sw - 1, sh - 1);
    }
  }

  #blocks(g, o, plot) {
    // 10 000 blocks are 10 000 fillRects: a few milliseconds. Edges snap to whole pixels so
    // that neighbours neither overlap nor leave hairline gaps.
    for (const b of o.blocks) {
      const x0 = Math.round(plot.x + b.x0 * plot.w), x1 = Math.round(plot.x + b.x1 * plot.w);
      const y0 = Math.round(plot.y + b.y0 * plot.h), y1 = Math.round(plot.y + b.y1 * plot.h);
      g.globalAlpha = b.opacity;
      g.fillStyle = b.colour;
      g.fillRect(x0, y0, Math.max(1, x1 - x0), Math.max(1, y1 - y0));
      g.globalAlpha = 1;
      if (b.mark !== 'NONE') this.#mark(g, b.mark, x0, y0, x1, y1);
    }
    g.globalAlpha = 1;
    // Part boundaries: a thin white line where one part ends and the next begins.
    if (o.blocks.length < 4000) {
      g.strokeStyle = 'rgba(255,255,255,0.9)';
      g.lineWidth = 1;
      for (const b of o.blocks) {
        const x0 = Math.round(plot.x + b.x0 * plot.w), x1 = Math.round(plot.x + b.x1 * plot.w);
        const y0 = Math.round(plot.y + b.y0 * plot.h), y1 = Math.round(plot.y + b.y1 * plot.h);
        if (x1 - x0 >= 3 && y1 - y0 >= 3) g.strokeRect(x0 + 0.5, y0 + 0.5, x1 - x0 - 1, y1 - y0 - 1);
      }
    }
  }

  /**
   * The hidden deviations: a dashed outline around each cell where producers are on the y axis,
   * else a bar over its time in lanes along the top; each with its rank in a badge. They are
   * drawn in their own colour and never as lines across a block, so that they cannot be read as
   * visual-aggregation marks (⁄, ✕), which say where pixels hide detail, not where the
   * partition does.
   */
  #outlierMarks(g, o, plot) {
    this.marks = [];
    const c = this.canvas;
    if (!this.outliers.length) { delete c.dataset.outlierMarks; return; }
    const spatial = o.producers.length > 0;
    const lanes = []; // per lane, the x extents already taken
    const cells = [];
    g.save();
    g.strokeStyle = OUTLIER_INK;
    g.fillStyle = OUTLIER_INK;
    this.outliers.forEach((m, i) => {
      const x0 = Math.round(plot.x + m.x0 * plot.w), x1 = Math.max(x0 + 2, Math.round(plot.x + m.x1 * plot.w));
      if (spatial) {
        const y0 = Math.round(plot.y + m.y0 * plot.h), y1 = Math.max(y0 + 2, Math.round(plot.y + m.y1 * plot.h));
        const r = MARK_REACH;
        cells.push({ x0, y0, x1, y1, edges: [[x0 - r, y0 - r, x1 + r, y0 + r], [x0 - r, y1 - r, x1 + r, y1 + r],
          [x0 - r, y0 - r, x0 + r, y1 + r], [x1 - r, y0 - r, x1 + r, y1 + r]] });
      } else {
        let lane = 0;
        while (lanes[lane]?.some(([a, b]) => x0 < b && a < x1)) lane++;
        (lanes[lane] ??= []).push([x0, x1]);
        const y = plot.y + 2 + lane * LANE;
        cells.push({ x0, y0: y, x1, y1: y + 4, bar: true, edges: [[x0, y - MARK_REACH, x1, y + 4 + MARK_REACH]] });
      }
    });
    // Outlines and bars, the first ranks last so that they lie on top.
    for (let i = cells.length - 1; i >= 0; i--) {
      const k = cells[i];
      const heavy = this.stressed === i + 1;
      if (k.bar) {
        g.fillStyle = OUTLIER_HALO;
        g.fillRect(k.x0 - 1, k.y0 - 1, k.x1 - k.x0 + 2, (heavy ? 6 : 4) + 2);
        g.fillStyle = OUTLIER_INK;
        g.fillRect(k.x0, k.y0, k.x1 - k.x0, heavy ? 6 : 4);
      } else {
        const rect = [k.x0 + 1.5, k.y0 + 1.5, Math.max(1, k.x1 - k.x0 - 3), Math.max(1, k.y1 - k.y0 - 3)];
        g.setLineDash([]);
        g.strokeStyle = OUTLIER_HALO;
        g.lineWidth = heavy ? 5 : 3;
        g.strokeRect(...rect);
        g.setLineDash([5, 3]);
        g.strokeStyle = OUTLIER_INK;
        g.lineWidth = heavy ? 3 : 1.5;
        g.strokeRect(...rect);
      }
    }
    g.setLineDash([]);
    // Badges over every outline, each where it covers no earlier one: down its cell, then to the right.
    g.font = 'bold 10px system-ui, sans-serif';
    g.textBaseline = 'middle';
    g.textAlign = 'center';
    const placed = [];
    cells.forEach((k, i) => {
      const label = String(i + 1);
      const bw = Math.ceil(g.measureText(label).width) + 6, bh = 12;
      const top = k.bar ? k.y1 + 1 : k.y0;
      const free = b => !placed.some(p => b[0] < p[2] && p[0] < b[2] && b[1] < p[3] && p[1] < b[3]);
      let box = null;
      for (let dx = 0; !box && dx < 4; dx++) {
        for (let y = top; !box && (y === top || y + bh <= Math.max(k.y1, top + bh)); y += bh + 1) {
          const x = Math.min(k.x0 + dx * (bw + 1), plot.x + plot.w - bw);
          const b = [x, Math.min(y, plot.y + plot.h - bh), x + bw, Math.min(y, plot.y + plot.h - bh) + bh];
          if (free(b)) box = b;
        }
      }
      box ??= [k.x0, Math.min(top, plot.y + plot.h - bh), k.x0 + bw, Math.min(top, plot.y + plot.h - bh) + bh];
      placed.push(box);
      g.fillStyle = OUTLIER_HALO;
      g.fillRect(box[0] - 1, box[1] - 1, bw + 2, bh + 2);
      g.fillStyle = OUTLIER_INK;
      g.fillRect(box[0], box[1], bw, bh);
      if (this.stressed === i + 1) { g.strokeStyle = '#f5c400'; g.lineWidth = 2; g.strokeRect(box[0] - 1, box[1] - 1, bw + 2, bh + 2); }
      g.fillStyle = '#fff';
      g.fillText(label, box[0] + bw / 2, box[1] + bh / 2 + 0.5);
      this.marks.push({ rank: i + 1, boxes: [box, ...k.edges] });
    });
    g.restore();
    // For scripts and tests: each mark's rank and its badge, "rank x0 y0 x1 y1" in CSS pixels of the canvas.
    c.dataset.outlierMarks = this.marks.map(k => `${k.rank} ${k.boxes[0].join(' ')}`).join('|');
  }

  /** The rank of the mark at (x, y) in CSS pixels of the canvas, badges before outlines; null if none. */
  outlierAt(x, y) {
    const inside = ([x0, y0, x1, y1]) => x >= x0 && x <= x1 && y >= y0 && y <= y1;
    for (const k of this.marks) if (inside(k.boxes[0])) return k.rank;
    for (const k of this.marks) if (k.boxes.slice(1).some(inside)) return k.rank;
    return null;
  }

  #highlight(g, o, plot) {
    const node = holdingNode(o.producers, this.highlighted);
    if (!node) return;
    const y0 = Math.round(plot.y + node.y0 * plot.h), y1 = Math.round(plot.y + node.y1 * plot.h);
    g.fillStyle = 'rgba(255,200,0,0.25)';
    g.fillRect(plot.x, y0, plot.w, Math.max(1, y1 - y0));
    g.strokeStyle = '#d08000';
    g.lineWidth = 2;
    g.strokeRect(plot.x + 1, y0 + 1, plot.w - 2, Math.max(1, y1 - y0 - 2));
    this.canvas.dataset.highlight = `${node.path} ${node.y0} ${node.y1}`;
  }

  #mark(g, mark, x0, y0, x1, y1) {
    g.save();
    g.beginPath();
    g.rect(x0, y0, x1 - x0, y1 - y0);
    g.clip();
    g.strokeStyle = '#1a1a1a';
    g.lineWidth = 1;
    g.beginPath();
    if (mark === 'MERGED') {
      for (let x = x0 - (y1 - y0); x < x1; x += 6) { g.moveTo(x, y1); g.lineTo(x + (y1 - y0), y0); }
    } else {
      g.moveTo(x0, y1); g.lineTo(x1, y0);
      if (mark === 'CROSS') { g.moveTo(x0, y0); g.lineTo(x1, y1); }
    }
    g.stroke();
    g.restore();
  }

  #timeAxis(g, o, plot) {
    const scale = this.data.timeScale;
    const ticks = niceTicks(since(o.start, scale), since(o.end, scale), Math.max(2, Math.floor(plot.w / 90)));
    g.fillStyle = AXIS_INK;
    g.strokeStyle = AXIS_INK;
    g.font = '11px system-ui, sans-serif';
    g.textAlign = 'center';
    g.textBaseline = 'top';
    const yb = plot.y + plot.h;
    // For scripts and tests: the ticks as trace times (the labels are times since the start).
    this.canvas.dataset.ticks = ticks.map(t => t.value / scale.factor + scale.origin).join(' ');
    this.canvas.dataset.tickLabels = ticks.map(t => t.label).join(' ');
    this.canvas.dataset.timeUnit = scale.unit;
    for (const t of ticks) {
      const x = Math.round(plot.x + t.at * plot.w) + 0.5;
      g.beginPath(); g.moveTo(x, yb); g.lineTo(x, yb + 4); g.stroke();
      g.fillText(t.label, x, yb + 6);
    }
    g.textAlign = 'right';
    // A model file has no time axis of its own: its slices are numbered.
    g.fillText(scale.unit === 'slice' ? 'slice number' : `time since the trace's start (${scale.unit || 'trace unit'})`,
      plot.x + plot.w, yb + 20);
  }

  #valueAxis(g, o, plot) {
    const ticks = niceTicks(0, o.valueMax, Math.max(2, Math.floor(plot.h / 40)));
    g.fillStyle = AXIS_INK;
    g.strokeStyle = AXIS_INK;
    g.font = '11px system-ui, sans-serif';
    g.textAlign = 'right';
    g.textBaseline = 'middle';
    for (const t of ticks) {
      const y = Math.round(plot.y + plot.h - t.at * plot.h) + 0.5;
      g.beginPath(); g.moveTo(plot.x - 4, y); g.lineTo(plot.x, y); g.stroke();
      g.fillText(t.label, plot.x - 6, y);
    }
    g.save();
    g.translate(12, plot.y + plot.h / 2);
    g.rotate(-Math.PI / 2);
    g.textAlign = 'center';
    g.fillText(`${this.data.metricLabel} per slice (${this.data.valueUnit})`, 0, 0);
    g.restore();
  }

  #allProducersLabel(g, plot) {
    g.save();
    g.fillStyle = AXIS_INK;
    g.font = '11px system-ui, sans-serif';
    g.translate(plot.x - 10, plot.y + plot.h / 2);
    g.rotate(-Math.PI / 2);
    g.textAlign = 'center';
    g.fillText('all producers', 0, 0);
    g.restore();
  }

  #producerAxis(g, o, plot) {
    // Depth brackets on the left, row names next to the plot; collapsed rows carry the same
    // mark as their blocks so that visual aggregation is never mistaken for a part.
    const maxDepth = Math.max(...o.producers.map(a => a.depth));
    // Columns wide enough for the group's name, written along its bracket.
    const column = 14;
    const namesRight = plot.x - 4;
    g.font = '10px system-ui, sans-serif';
    g.textBaseline = 'middle';
    // For tests: the extent along y of every name written, "x y0 y1" (x: the column), so that
    // hundreds of rows can be checked to give labels that never overlap.
    const written = [];
    for (const a of o.producers) {
      const y0 = plot.y + a.y0 * plot.h, y1 = plot.y + a.y1 * plot.h;
      if (a.row) {
        if (y1 - y0 >= 9) {
          g.fillStyle = AXIS_INK;
          g.textAlign = 'right';
          const name = a.mark === 'NONE' ? a.name : `${a.name} ${a.mark === 'CROSS' ? '✕' : '⁄'}`;
          g.fillText(fit(g, name, MARGIN.left - maxDepth * column - 10), namesRight, (y0 + y1) / 2);
          written.push(`${namesRight} ${(y0 + y1) / 2 - 5} ${(y0 + y1) / 2 + 5}`);
        }
      } else if (a.depth > 0 || maxDepth === 0) {
        const x = 4 + (a.depth - 1) * column + 0.5;
        g.strokeStyle = '#999';
        g.beginPath();
        g.moveTo(x + 3, y0 + 1); g.lineTo(x, y0 + 1); g.lineTo(x, y1 - 1); g.lineTo(x + 3, y1 - 1);
        g.stroke();
        const label = fit(g, a.name, y1 - y0 - 6);
        if (label === a.name || label.length >= 4) { // not a lone letter and an ellipsis
          g.save();
          g.fillStyle = AXIS_INK;
          g.translate(x + 8, (y0 + y1) / 2);
          g.rotate(-Math.PI / 2);
          g.textAlign = 'center';
          g.fillText(label, 0, 0);
          g.restore();
          const half = g.measureText(label).width / 2;
          written.push(`${x} ${(y0 + y1) / 2 - half} ${(y0 + y1) / 2 + half}`);
        }
      }
    }
    this.canvas.dataset.producerLabels = written.join('|');
  }

  /** The pointer in CSS pixels of the canvas. */
  #pixel(e) {
    const r = this.canvas.getBoundingClientRect();
    return [e.clientX - r.left, e.clientY - r.top];
  }

  #toPlot(e) {
    const r = this.canvas.getBoundingClientRect();
    const plot = this.#plot();
    return { x: (e.clientX - r.left - plot.x) / plot.w, y: (e.clientY - r.top - plot.y) / plot.h };
  }

  #down(e) {
    if (!this.data || e.button !== 0) return;
    const p = this.#toPlot(e);
    if (p.x < 0 || p.x > 1 || p.y < 0 || p.y > 1) return;
    e.preventDefault();
    this.canvas.focus();
    this.drag = { x: p.x, y: p.y, mark: this.outlierAt(...this.#pixel(e)) };
    this.selection = null;
  }

  #move(e) {
    if (!this.data) return;
    const p = this.#toPlot(e);
    if (this.drag) {
      const clamp = v => Math.min(1, Math.max(0, v));
      const spatial = this.data.overview.producers.length > 0;
      this.selection = {
        x0: clamp(Math.min(this.drag.x, p.x)), x1: clamp(Math.max(this.drag.x, p.x)),
        y0: spatial ? clamp(Math.min(this.drag.y, p.y)) : 0, y1: spatial ? clamp(Math.max(this.drag.y, p.y)) : 1,
      };
      this.draw();
      this.tooltip.hidden = true;
      return;
    }
    if (e.target !== this.canvas) return;
    const rank = this.outlierAt(...this.#pixel(e));
    const block = rank ? null : this.blockAt(p.x, p.y);
    if (!block && !rank) { this.tooltip.hidden = true; return; }
    // A mark's own tooltip (the differences of two runs) when it gives one, else a hidden deviation's.
    this.tooltip.innerHTML = rank ? this.markTooltip?.(this.outliers[rank - 1], rank)
      || outlierTooltip(this.outliers[rank - 1], rank, this.data.timeScale, sliceWidth(this.data, this.data.timeScale))
      : tooltipHtml(block, this.data);
    this.tooltip.hidden = false;
    const tw = this.tooltip.offsetWidth, th = this.tooltip.offsetHeight;
    this.tooltip.style.left = `${Math.min(e.clientX + 14, window.innerWidth - tw - 4)}px`;
    this.tooltip.style.top = `${Math.min(e.clientY + 14, window.innerHeight - th - 4)}px`;
  }

  #up() {
    if (!this.drag) return;
    const down = this.drag;
    this.drag = null;
    const s = this.selection;
    const plot = this.#plot();
    if ((!s || (s.x1 - s.x0) * plot.w < 3) && down.mark) {
      // A click on a hidden deviation's mark hands it to the page, as a click on its row does.
      this.selection = null;
      this.draw();
      this.onOutlier?.(down.mark);
      return;
    }
    if (!s || (s.x1 - s.x0) * plot.w < 3) {
      // A click selects the aggregate under it: its interval and its producers.
      const b = down ? this.blockAt(down.x, down.y) : null;
      this.selection = b ? { x0: b.x0, x1: b.x1, y0: b.y0, y1: b.y1 } : null;
      this.draw();
      this.onSelect(this.selection ? this.#describe(this.selection) : null);
      return;
    }
    this.onSelect(this.#describe(s));
  }

  /** The selection in trace time and, for spatiotemporal views, the producer subtree it covers. */
  #describe(s) {
    const o = this.data.overview;
    const span = o.end - o.start;
    const result = { start: o.start + s.x0 * span, end: o.start + s.x1 * span, producer: null };
    if (o.producers.length) result.producer = coveringNode(o.producers, s.y0, s.y1);
    return result;
  }

  blockAt(x, y) {
    if (!this.data || x < 0 || x > 1 || y < 0 || y > 1) return null;
    const blocks = this.data.overview.blocks;
    for (let i = blocks.length - 1; i >= 0; i--) {
      const b = blocks[i];
      if (x >= b.x0 && x < b.x1 && y >= b.y0 && y < b.y1) return b;
    }
    return null;
  }
}

function fit(g, text, width) {
  if (g.measureText(text).width <= width) return text;
  let s = text;
  while (s.length > 1 && g.measureText(s + '…').width > width) s = s.slice(0, -1);
  return s + '…';
}

/**
 * The deepest axis node whose band holds the whole selected band [y0, y1], with its path
 * (names from below the root): the subtree a zoom keeps.
 */
export function coveringNode(axis, y0, y1) {
  const stack = [];
  let best = null;
  for (const a of axis) {
    while (stack.length && stack[stack.length - 1].depth >= a.depth) stack.pop();
    stack.push(a);
    const eps = 1e-9;
    if (a.y0 <= y0 + eps && a.y1 >= y1 - eps && (!best || a.depth > best.depth)) {
      best = { node: a.node, name: a.name, depth: a.depth, path: stack.slice(1).map(n => n.name).join('/') };
    }
  }
  return best;
}

/** The axis node of the producer at `path`, or of its deepest ancestor on the axis, with its path. */
function holdingNode(axis, path) {
  const stack = [];
  let best = null;
  for (const a of axis) {
    while (stack.length && stack[stack.length - 1].depth >= a.depth) stack.pop();
    stack.push(a);
    const p = stack.slice(1).map(n => n.name).join('/');
    if (p !== '' && (path === p || path.startsWith(p + '/')) && (!best || a.depth > best.depth)) {
      best = { y0: a.y0, y1: a.y1, depth: a.depth, path: p };
    }
  }
  return best;
}

function tooltipHtml(b, data) {
  const t = b.tooltip;
  const scale = data.timeScale;
  const span = (data.overview.end - data.overview.start) * scale.factor;
  const rows = t.types.map(s => {
    const entry = data.overview.legend.find(l => l.name === s.type);
    const colour = entry ? entry.colour : '#ccc';
    return `<tr><td><span class="swatch" style="background:${colour}"></span></td><td>${escapeHtml(s.type)}</td>`
      + `<td class="num">${value(s.value)} ${escapeHtml(data.valueUnit || '')}</td><td class="num">${percent(s.share)}</td></tr>`;
  }).join('');
  const what = b.part >= 0 ? `part ${b.part + 1} of ${data.partCount}`
    : b.mark === 'MERGED' ? 'thin types merged into one layer'
    : `visual aggregate of ${t.hiddenParts} parts (${b.mark === 'CROSS' ? 'cut differently in time' : 'same time cuts'})`;
  return `<div><strong>${escapeHtml(what)}</strong></div>`
    + `<div>${time(since(t.start, scale), span / 100, '')} – ${time(since(t.end, scale), span / 100, scale.unit)}`
    + ` <span class="absolute">(trace time ${t.start} – ${t.end} ${escapeHtml(t.unit)})</span></div>`
    // The root's own name (Pajé calls it "0") means nothing to a reader: say what it covers.
    + `<div>${b.node === 0 ? 'all producers' : escapeHtml(t.producer)}</div>`
    + `<div>${t.leaves} producer${t.leaves === 1 ? '' : 's'} × ${t.slices} slice${t.slices === 1 ? '' : 's'}</div>`
    + (t.merged.length ? `<div>merged: ${escapeHtml(t.merged.join(', '))}</div>` : '')
    + (rows ? `<table>${rows}</table>` : '<div>no value</div>');
}
