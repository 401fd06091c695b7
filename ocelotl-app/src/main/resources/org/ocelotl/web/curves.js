// The quality curves: normalised gain and loss of the optimal partition as step functions of
// p, the breakpoints, and the current p. A click or a drag chooses p (the picture follows the
// pointer: a new p only redraws); ← and → step through breakpoints.
import { niceTicks, pValue } from './format.js';

const GAIN = '#1f7a3a';
const LOSS = '#c0392b';
const M = { left: 40, right: 14, top: 12, bottom: 30 };

export class CurvesView {
  constructor(canvas, onChoose) {
    this.canvas = canvas;
    this.onChoose = onChoose;
    this.curves = null;
    canvas.addEventListener('pointerdown', e => {
      this.dragging = true;
      canvas.setPointerCapture(e.pointerId);
      this.#choose(e);
    });
    canvas.addEventListener('pointermove', e => { if (this.dragging) this.#choose(e); });
    canvas.addEventListener('pointerup', e => { this.dragging = false; canvas.releasePointerCapture(e.pointerId); });
    canvas.addEventListener('keydown', e => this.#key(e));
    new ResizeObserver(() => this.draw()).observe(canvas);
  }

  show(curves) {
    this.curves = curves;
    delete this.canvas.dataset.empty;
    // Breakpoints crowd the low end of p (beyond the last one the partition is a single
    // part): the axis ends a little past the last breakpoint, or past p, so they can be told apart.
    const last = curves.breakpoints[curves.breakpoints.length - 1];
    this.pMax = Math.min(1, Math.max(0.01, last * 1.25, curves.p * 1.05));
    this.draw();
  }

  /** No curves (yet): the canvas says why. */
  clear(why) {
    this.curves = null;
    const c = this.canvas;
    const g = c.getContext('2d');
    g.setTransform(1, 0, 0, 1, 0, 0);
    g.clearRect(0, 0, c.width, c.height);
    g.fillStyle = '#666';
    g.font = '13px sans-serif';
    g.fillText(why, 12, 24);
    c.dataset.empty = why;
  }

  /** The p of the breakpoint `step` places away from the current one (clamped). */
  stepped(step) {
    const c = this.curves;
    if (!c) return null;
    const k = Math.min(c.breakpoints.length - 1, Math.max(0, c.chosen + step));
    return c.breakpoints[k];
  }

  #key(e) {
    if (e.key !== 'ArrowLeft' && e.key !== 'ArrowRight') return;
    e.preventDefault();
    const p = this.stepped(e.key === 'ArrowLeft' ? -1 : 1);
    if (p !== null) this.onChoose(p);
  }

  #plot() {
    return { x: M.left, y: M.top, w: Math.max(10, this.canvas.clientWidth - M.left - M.right),
      h: Math.max(10, this.canvas.clientHeight - M.top - M.bottom) };
  }

  #choose(e) {
    if (!this.curves) return;
    this.canvas.focus();
    const r = this.canvas.getBoundingClientRect();
    const plot = this.#plot();
    const p = Math.min(1, Math.max(0, this.pMax * (e.clientX - r.left - plot.x) / plot.w));
    // While dragging, ask only when the partition changes: between breakpoints the picture is the same.
    const k = this.#breakpointAt(p);
    if (this.dragging && k === this.lastChosen && e.type === 'pointermove') return;
    this.lastChosen = k;
    this.onChoose(p);
  }

  #breakpointAt(p) {
    let k = 0;
    for (let i = 0; i < this.curves.breakpoints.length; i++) if (this.curves.breakpoints[i] <= p) k = i;
    return k;
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
    if (!this.curves) return;
    const plot = this.#plot();
    const X = p => plot.x + Math.min(1, p / this.pMax) * plot.w;
    const Y = v => plot.y + (1 - v) * plot.h;
    g.font = '11px system-ui, sans-serif';
    g.fillStyle = '#444';
    g.strokeStyle = '#ddd';
    g.textBaseline = 'middle';
    g.textAlign = 'right';
    for (const v of [0, 0.5, 1]) {
      g.beginPath(); g.moveTo(plot.x, Math.round(Y(v)) + 0.5); g.lineTo(plot.x + plot.w, Math.round(Y(v)) + 0.5); g.stroke();
      g.fillText(String(v), plot.x - 5, Y(v));
    }
    g.textAlign = 'center';
    g.textBaseline = 'top';
    for (const t of niceTicks(0, this.pMax, Math.max(2, Math.floor(plot.w / 70)))) {
      g.fillText(t.label, X(t.value), plot.y + plot.h + 4);
    }
    g.fillText(this.pMax < 1 ? `p (up to 1: one part beyond the last breakpoint)` : 'p', plot.x + plot.w / 2, plot.y + plot.h + 16);
    // Breakpoints: short ticks along the bottom edge.
    g.strokeStyle = '#888';
    for (const p of this.curves.breakpoints) {
      const x = Math.round(X(p)) + 0.5;
      g.beginPath(); g.moveTo(x, plot.y + plot.h - 5); g.lineTo(x, plot.y + plot.h); g.stroke();
    }
    this.#steps(g, this.curves.gain, GAIN, X, Y);
    this.#steps(g, this.curves.loss, LOSS, X, Y);
    const x = Math.round(X(this.curves.p)) + 0.5;
    g.strokeStyle = '#2f6db5';
    g.lineWidth = 2;
    g.beginPath(); g.moveTo(x, plot.y); g.lineTo(x, plot.y + plot.h); g.stroke();
    g.lineWidth = 1;
    g.textAlign = x > plot.x + plot.w - 80 ? 'right' : 'left';
    g.fillStyle = '#2f6db5';
    // Near p = 0 the p label would cover "gain loss": it goes one line lower there.
    const pLabelY = x < plot.x + 80 ? plot.y + 14 : plot.y + 1;
    g.fillText(`p = ${pValue(this.curves.p)}`, x + (g.textAlign === 'left' ? 4 : -4), pLabelY);
    g.textAlign = 'left';
    g.fillStyle = GAIN; g.fillText('gain', plot.x + 4, plot.y + 1);
    g.fillStyle = LOSS; g.fillText('loss', plot.x + 36, plot.y + 1);
  }

  #steps(g, steps, colour, X, Y) {
    g.strokeStyle = colour;
    g.lineWidth = 1.5;
    g.beginPath();
    steps.forEach((s, i) => {
      if (i === 0) g.moveTo(X(s.from), Y(s.value)); else g.lineTo(X(s.from), Y(s.value));
      g.lineTo(X(s.to), Y(s.value));
    });
    g.stroke();
    g.lineWidth = 1;
  }
}
