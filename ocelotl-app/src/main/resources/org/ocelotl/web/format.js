// Number formatting and axis ticks shared by the drawings.

/** Ticks at 1, 2 or 5 × 10^k for values in [lo, hi], at most maxTicks of them. */
export function niceTicks(lo, hi, maxTicks) {
  if (!(hi > lo) || maxTicks < 2) return [];
  const rough = (hi - lo) / (maxTicks - 1);
  const power = Math.pow(10, Math.floor(Math.log10(rough)));
  let step = 10 * power;
  for (const m of [1, 2, 5, 10]) {
    if (m * power >= rough * (1 - 1e-12)) { step = m * power; break; }
  }
  const eps = step * 1e-9;
  const ticks = [];
  for (let k = Math.ceil((lo - eps) / step); k <= Math.floor((hi + eps) / step); k++) {
    const value = k * step;
    ticks.push({ at: (value - lo) / (hi - lo), value, label: label(value, step) });
  }
  return ticks;
}

function label(value, step) {
  if (Math.abs(value) < step * 1e-6) return '0';
  const e = Math.floor(Math.log10(step) + 1e-9);
  if (e >= 6 || e <= -5) return value.toExponential(Math.max(0, Math.floor(Math.log10(Math.abs(value))) - e)).replace('e+', 'e');
  return value.toFixed(Math.max(0, -e));
}

/**
 * A trace time as the reader sees it: since the trace's start, in the unit the server chose for
 * the window (`timeScale` of the answer: origin, factor, unit).
 */
export function since(t, scale) {
  return scale ? (t - scale.origin) * scale.factor : t;
}

/** A time with just enough digits to tell apart values `span` apart. */
export function time(t, span, unit) {
  const digits = span > 0 ? Math.max(0, Math.min(12, 3 - Math.floor(Math.log10(span)))) : 6;
  return `${Number(t).toFixed(digits)}${unit ? ' ' + unit : ''}`;
}

/** A value with 4 significant digits, grouped thousands for large ones. */
export function value(x) {
  if (x === 0) return '0';
  const a = Math.abs(x);
  if (a >= 1e4 && a < 1e12) return Math.round(x).toLocaleString('en-US');
  if (a >= 1e12 || a < 1e-3) return x.toExponential(3);
  return Number(x.toPrecision(4)).toString();
}

export function percent(f) {
  return `${(100 * f).toFixed(f >= 0.1 || f === 0 ? 1 : 2)}%`;
}

/** p with enough digits to tell close breakpoints apart. */
export function pValue(p) {
  return p === 0 || p === 1 ? String(p) : p.toPrecision(6).replace(/0+$/, '').replace(/\.$/, '');
}

export function escapeHtml(s) {
  return String(s).replace(/[&<>"']/g, c => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }[c]));
}
