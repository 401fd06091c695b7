// Draws a topology graph's geometry (nodes at [0,1]² positions, from the server) on a canvas:
// platform links grey, communications blue (width by count), hosts as squares, network links
// as diamonds, processes as circles, sized by capacity and filled from the bottom by use.
// A click on a collapsed group expands it, a click on any other node collapses its parent
// group; a double click filters the overview to the node.
import { value, percent, escapeHtml } from './format.js';
import { badges, ranksByAggregate, badgeAt, badgeData } from './outliers.js';

const COLOURS = { SQUARE: '#2f6db5', DIAMOND: '#e3872d', CIRCLE: '#3c9a4a' };
const OVER = '#c62828';

export class TopologyView {
  constructor(canvas, tooltip, onToggle, onPick) {
    this.canvas = canvas;
    this.tooltip = tooltip;
    this.data = null;
    this.clickTimer = null;
    canvas.addEventListener('mousemove', e => this.#hover(e));
    canvas.addEventListener('mouseleave', () => { this.tooltip.hidden = true; });
    this.badges = [];       // the hidden deviations' numbers, where drawn
    this.onOutlier = null;  // (rank) when one is clicked
    canvas.addEventListener('click', e => {
      const r = canvas.getBoundingClientRect();
      const rank = badgeAt(this.badges, e.clientX - r.left, e.clientY - r.top);
      if (rank) { this.onOutlier?.(rank); return; }
      const node = this.#nodeAt(e);
      if (!node) return;
      // Wait for a possible second click: a double click means "filter the overview".
      clearTimeout(this.clickTimer);
      this.clickTimer = setTimeout(() => onToggle(node), 250);
    });
    canvas.addEventListener('dblclick', e => {
      clearTimeout(this.clickTimer);
      const node = this.#nodeAt(e);
      if (node) onPick(node);
    });
    new ResizeObserver(() => this.draw()).observe(canvas);
  }

  show(data) {
    this.data = data;
    this.draw();
  }

  /**
   * The size the server lays the graph out for: this canvas's, at least the smallest picture a
   * graph takes (480 × 360); a smaller canvas draws the same layout scaled down.
   */
  size() {
    return { width: Math.max(480, Math.round(this.canvas.clientWidth)), height: Math.max(360, Math.round(this.canvas.clientHeight)) };
  }

  #frame() {
    const w = this.canvas.clientWidth, h = this.canvas.clientHeight;
    const side = Math.min(w, h);
    return { left: (w - side) / 2, top: (h - side) / 2, side };
  }

  #at(n) {
    const f = this.#frame();
    return { x: f.left + n.x * f.side, y: f.top + n.y * f.side, r: Math.max(3, n.size * f.side) };
  }

  draw() {
    const c = this.canvas;
    const ratio = window.devicePixelRatio || 1;
    const w = c.clientWidth, h = c.clientHeight;
    if (c.width !== Math.round(w * ratio) || c.height !== Math.round(h * ratio)) {
      c.width = Math.round(w * ratio);
      c.height = Math.round(h * ratio);
    }
    const g = c.getContext('2d');
    g.setTransform(ratio, 0, 0, ratio, 0, 0);
    g.clearRect(0, 0, w, h);
    if (!this.data) return;
    const t = this.data.topology;
    // Width by bytes carried where the trace gives them, else by the number of messages.
    const volumes = t.edges.some(e => e.volume > 0);
    const weight = e => volumes ? e.volume : e.messages;
    const most = Math.max(1e-300, ...t.edges.map(weight));
    for (const e of t.edges) {
      const a = this.#at(t.nodes[e.a]), b = this.#at(t.nodes[e.b]);
      if (e.topology > 0) this.#line(g, a, b, '#9a9a9a', 1);
      if (e.messages > 0) this.#line(g, a, b, 'rgba(47,109,181,0.7)', 1 + 5 * Math.sqrt(weight(e) / most));
    }
    // Where the nodes are (x, y, collapsed), for scripts and tests that drive the page.
    c.dataset.points = t.nodes.map(n => { const p = this.#at(n); return `${p.x.toFixed(1)},${p.y.toFixed(1)},${n.aggregate ? 1 : 0}`; }).join(' ');
    const f = this.#frame();
    for (const n of t.nodes) {
      const p = this.#at(n);
      this.#shape(g, n.shape, p);
      g.fillStyle = '#fff';
      g.fill();
      g.save();
      g.clip();
      g.fillStyle = COLOURS[n.shape];
      g.globalAlpha = 0.85;
      g.fillRect(p.x - p.r, p.y + p.r - 2 * p.r * n.fill, 2 * p.r, 2 * p.r * n.fill);
      g.restore();
      this.#shape(g, n.shape, p);
      // Use beyond the capacity: drawn full, outlined in red (the caption names it).
      g.strokeStyle = n.overCapacity ? OVER : COLOURS[n.shape];
      g.lineWidth = n.overCapacity ? 2.5 : n.aggregate ? 3 : 1.2;
      g.stroke();
      // Labels where the server's layout found them room, at the size it placed them.
      if (n.labelled) {
        g.font = `${n.aggregate ? 'bold ' : ''}${(t.labelHeight * f.side).toFixed(1)}px system-ui, sans-serif`;
        g.fillStyle = '#222';
        g.textAlign = 'center';
        g.fillText(n.name, f.left + n.labelX * f.side, f.top + n.labelY * f.side);
        g.textAlign = 'start';
      }
    }
    this.#outlierBadges(g, t);
  }

  /** What each shown node hides: the ranks of the list beside, at the node's top right. */
  #outlierBadges(g, t) {
    this.badges = [];
    for (const [node, ranks] of ranksByAggregate(t.hiddenNodes.outliers)) {
      const n = t.nodes.find(k => k.node === node);
      if (!n) continue; // inside a collapsed group
      const p = this.#at(n);
      this.badges.push(...badges(g, ranks, p.x + p.r + 2, p.y - p.r - 12));
    }
    this.canvas.dataset.outlierMarks = badgeData(this.badges);
  }

  #line(g, a, b, colour, width) {
    g.strokeStyle = colour;
    g.lineWidth = width;
    g.beginPath();
    g.moveTo(a.x, a.y);
    g.lineTo(b.x, b.y);
    g.stroke();
  }

  #shape(g, shape, p) {
    g.beginPath();
    if (shape === 'SQUARE') g.rect(p.x - p.r, p.y - p.r, 2 * p.r, 2 * p.r);
    else if (shape === 'DIAMOND') {
      g.moveTo(p.x, p.y - p.r); g.lineTo(p.x + p.r, p.y); g.lineTo(p.x, p.y + p.r); g.lineTo(p.x - p.r, p.y); g.closePath();
    } else g.arc(p.x, p.y, p.r, 0, 2 * Math.PI);
  }

  #nodeAt(e) {
    if (!this.data) return null;
    const r = this.canvas.getBoundingClientRect();
    const x = e.clientX - r.left, y = e.clientY - r.top;
    let best = null, bestD = Infinity;
    for (const n of this.data.topology.nodes) {
      const p = this.#at(n);
      const d = Math.hypot(p.x - x, p.y - y);
      if (d <= p.r + 3 && d < bestD) { best = n; bestD = d; }
    }
    return best;
  }

  #hover(e) {
    const n = this.#nodeAt(e);
    if (!n) { this.tooltip.hidden = true; return; }
    const t = this.data.topology;
    this.tooltip.innerHTML = `<strong>${escapeHtml(n.path)}</strong><br>${escapeHtml(n.kind)}`
      + (n.aggregate ? ` × ${n.members} (collapsed group: click to expand)` : ' (click: collapse its group)') + '<br>'
      + (t.capacities ? `capacity ${value(n.capacity)} · use ${value(n.use)} · `
        + (n.overCapacity ? `use exceeds capacity (${escapeHtml(n.useVariable)} > ${escapeHtml(n.capacityVariable)})` : percent(n.fill))
        : `value ${value(n.capacity)} (${escapeHtml(this.data.metricLabel)})`)
      + '<br><span class="hint">double click: filter the overview to it</span>';
    this.tooltip.hidden = false;
    const tw = this.tooltip.offsetWidth, th = this.tooltip.offsetHeight;
    this.tooltip.style.left = `${Math.min(e.clientX + 14, window.innerWidth - tw - 4)}px`;
    this.tooltip.style.top = `${Math.min(e.clientY + 14, window.innerHeight - th - 4)}px`;
  }
}
