// Draws a treemap's geometry (cells in [0,1]², from the server) on a canvas: each shown node
// filled with its mode type's colour at the mode's share as opacity, aggregates with a dashed
// outline and their name, groups too small to draw hatched, groups outlined. Hover shows a
// cell's values; a click hands the cell to the page (which filters the overview by it).
import { value, percent, escapeHtml } from './format.js';
import { badges, ranksByAggregate, badgeAt, badgeData } from './outliers.js';

const GROUP_LINE = '#333';

export class TreemapView {
  constructor(canvas, tooltip, onPick) {
    this.canvas = canvas;
    this.tooltip = tooltip;
    this.onPick = onPick;
    this.data = null;
    this.badges = [];       // the hidden deviations' numbers, where drawn
    this.onOutlier = null;  // (rank) when one is clicked
    canvas.addEventListener('mousemove', e => this.#hover(e));
    canvas.addEventListener('mouseleave', () => { this.tooltip.hidden = true; });
    canvas.addEventListener('click', e => {
      const r = canvas.getBoundingClientRect();
      const rank = badgeAt(this.badges, e.clientX - r.left, e.clientY - r.top);
      if (rank) { this.onOutlier?.(rank); return; }
      const cell = this.#cellAt(e);
      if (cell) this.onPick(cell);
    });
    new ResizeObserver(() => this.draw()).observe(canvas);
  }

  /**
   * The drawing size in CSS pixels: the server lays the treemap out for it. Measured on the box the
   * treemap shares with the graph, so that the graph's request (whose height decides the producer
   * depth) gets the panel's size while the treemap's canvas is hidden.
   */
  size() {
    const box = this.canvas.parentElement;
    return { width: Math.max(100, Math.round(box.clientWidth)), height: Math.max(100, Math.round(box.clientHeight)) };
  }

  show(data) {
    this.data = data;
    this.draw();
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
    const cells = this.data.treemap.cells;
    for (const cell of cells) {
      if (cell.kind !== 'GROUP') this.#cell(g, cell, w, h);
    }
    for (const cell of cells) {
      if (cell.kind !== 'GROUP') continue;
      g.strokeStyle = GROUP_LINE;
      g.lineWidth = Math.max(1, 3 - cell.depth);
      g.setLineDash([]);
      g.strokeRect(cell.x0 * w, cell.y0 * h, (cell.x1 - cell.x0) * w, (cell.y1 - cell.y0) * h);
    }
    // What each shown node hides: the ranks of the list beside, on the node, under its name.
    this.badges = [];
    for (const [node, ranks] of ranksByAggregate(this.data.treemap.hiddenNodes.outliers)) {
      const cell = cells.find(k => k.kind !== 'GROUP' && k.node === node);
      if (!cell) continue; // inside a group too small to draw
      const tall = (cell.y1 - cell.y0) * h >= 34;
      this.badges.push(...badges(g, ranks, cell.x0 * w + 3, cell.y0 * h + (tall ? 18 : 2)));
    }
    c.dataset.outlierMarks = badgeData(this.badges);
  }

  #cell(g, cell, w, h) {
    const x = cell.x0 * w, y = cell.y0 * h, cw = (cell.x1 - cell.x0) * w, ch = (cell.y1 - cell.y0) * h;
    g.globalAlpha = cell.opacity;
    g.fillStyle = cell.colour;
    g.fillRect(x, y, cw, ch);
    g.globalAlpha = 1;
    g.strokeStyle = '#fff';
    g.lineWidth = 1;
    g.setLineDash([]);
    g.strokeRect(x, y, cw, ch);
    let label = cell.name;
    if (cell.kind === 'AGGREGATE') {
      g.strokeStyle = GROUP_LINE;
      g.lineWidth = 1.5;
      g.setLineDash([4, 3]);
      g.strokeRect(x + 1.5, y + 1.5, cw - 3, ch - 3);
      g.setLineDash([]);
      label = `${cell.name} (${cell.leaves})`;
    } else if (cell.kind === 'VISUAL') {
      g.save();
      g.beginPath();
      g.rect(x, y, cw, ch);
      g.clip();
      g.strokeStyle = '#1a1a1a';
      g.lineWidth = 1;
      g.beginPath();
      for (let d = -ch; d < cw; d += 6) { g.moveTo(x + d, y + ch); g.lineTo(x + d + ch, y); }
      g.stroke();
      g.restore();
      label = `${cell.name} [${cell.hidden} too small]`;
    }
    if (ch >= 17 && cw > 24) {
      g.font = `${cell.kind === 'AGGREGATE' ? 'bold ' : ''}11px system-ui, sans-serif`;
      g.fillStyle = '#222';
      let text = label;
      while (text.length > 3 && g.measureText(text).width > cw - 6) text = text.slice(0, -2);
      if (text !== label) text = text.slice(0, -1) + '…';
      if (text.length > 3) g.fillText(text, x + 3, y + 13);
    }
  }

  /** The innermost drawn (non-group) cell under the mouse. */
  #cellAt(e) {
    if (!this.data) return null;
    const r = this.canvas.getBoundingClientRect();
    const fx = (e.clientX - r.left) / r.width, fy = (e.clientY - r.top) / r.height;
    return this.data.treemap.cells.find(c => c.kind !== 'GROUP' && fx >= c.x0 && fx < c.x1 && fy >= c.y0 && fy < c.y1) || null;
  }

  #hover(e) {
    const cell = this.#cellAt(e);
    if (!cell) { this.tooltip.hidden = true; return; }
    const kind = { PRODUCER: 'producer', AGGREGATE: `aggregate of ${cell.leaves} leaves (the spatial partition)`,
      VISUAL: `${cell.hidden} nodes too small to draw` }[cell.kind];
    const unit = this.data.valueUnit || '';
    this.tooltip.innerHTML = `<strong>${escapeHtml(cell.path)}</strong><br>${escapeHtml(kind)}<br>`
      + `value ${value(cell.value)} ${escapeHtml(unit)} · ${percent(cell.value / this.data.treemap.total)} of the total`
      + '<table>' + cell.types.map(t => `<tr><td>${escapeHtml(t.type)}</td><td class="num">${percent(t.share)}</td>`
        + `<td class="num">${value(t.value)}</td></tr>`).join('') + '</table><span class="hint">click: filter the overview to it</span>';
    this.tooltip.hidden = false;
    const tw = this.tooltip.offsetWidth, th = this.tooltip.offsetHeight;
    this.tooltip.style.left = `${Math.min(e.clientX + 14, window.innerWidth - tw - 4)}px`;
    this.tooltip.style.top = `${Math.min(e.clientY + 14, window.innerHeight - th - 4)}px`;
  }
}
