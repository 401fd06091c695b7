// The list beside a picture of what its aggregates hide (docs/aggregation.md, "What each
// aggregate hides"): the cells that a part merges but which deviate most from it, highest score
// first, as GET /api/outliers (or the spatial views' answers) gives them. The page decides what a
// click does; this file only lists and reports which row was hovered or chosen.
import { since, time, value, percent, escapeHtml } from './format.js';

/**
 * The ink of the marks: near black on a white halo, readable over any type's colour (a hue would
 * be some trace's type colour); dashed and numbered, never lines across a block as the marks of
 * visual aggregation are.
 */
export const OUTLIER_INK = '#111111';
export const OUTLIER_HALO = '#ffffff';

export class OutliersView {
  /**
   * @param box      the element the list is written in
   * @param onChoose (outlier, action) with action 'gantt' (the row) or 'zoom' (its button)
   * @param onHover  (rank or null): the row under the mouse, so that the picture can stress its mark
   */
  constructor(box, onChoose, onHover) {
    this.box = box;
    this.onChoose = onChoose;
    this.onHover = onHover;
    this.items = [];
    box.addEventListener('click', e => {
      const row = e.target.closest('li[data-rank]');
      if (!row) return;
      const o = this.items[Number(row.dataset.rank) - 1];
      this.onChoose(o, e.target.closest('button[data-zoom]') ? 'zoom' : 'gantt');
    });
    box.addEventListener('mouseover', e => {
      const row = e.target.closest('li[data-rank]');
      this.onHover(row ? Number(row.dataset.rank) : null);
    });
    box.addEventListener('mouseleave', () => this.onHover(null));
  }

  /** A note instead of a list (while ranking, on a provisional picture, after a failure). */
  clear(note) {
    this.items = [];
    this.box.innerHTML = `<p class="hint">${escapeHtml(note)}</p>`;
    delete this.box.dataset.count;
  }

  /**
   * Lists `items` (each with producer, node, start, end, score, worthUpTo, type, cellShare,
   * partShare) under a summary of how many there are and how many are hidden at p.
   *
   * @param answer  {count, hidden, start, end, slices}: how many deviating cells, how many worth
   *                telling apart at p, and the window's slices (times get a slice's precision)
   * @param scale   the picture's time scale (times shown since the trace's start), or null for a
   *                view without a time axis of its own
   * @param actions what a click offers: {gantt, zoom} as booleans
   */
  show(answer, items, scale, actions) {
    this.items = items;
    this.box.dataset.count = String(items.length);
    const summary = `${answer.hidden} of ${answer.count} deviating cell${answer.count === 1 ? '' : 's'} worth telling apart at`
      + ` this p; the first ${items.length}, highest score first.`;
    const marks = scale ? ' Marked on the picture by number: a dashed outline, or a bar along the top where producers are not drawn.' : '';
    const hint = actions.gantt ? 'Click a row or its mark: Gantt chart of that producer over that time.'
      : actions.zoom ? 'Click a row or its mark: zoom there.' : '';
    const slice = sliceWidth(answer, scale);
    const rows = items.map((o, i) => {
      const when = scale ? `${time(since(o.start, scale), slice, '')} – ${time(since(o.end, scale), slice, scale.unit)}` : '';
      const who = o.node === 0 ? 'all producers' : o.producer;
      return `<li data-rank="${i + 1}" title="${escapeHtml(o.producer)}">`
        + `<div class="who"><span class="rank">${i + 1}</span> ${escapeHtml(who)}`
        + (actions.zoom && actions.gantt ? ' <button type="button" data-zoom title="zoom on this time, every producer kept">zoom</button>' : '')
        + '</div>'
        + (when ? `<div>[${escapeHtml(when)})</div>` : '')
        + `<div>${escapeHtml(o.type)}: ${percent(o.cellShare)} here, ${percent(o.partShare)} in the aggregate</div>`
        + `<div class="hint">score ${value(o.score)} · hidden up to p = ${value(o.worthUpTo)}</div></li>`;
    }).join('');
    this.box.innerHTML = `<p class="hint">${escapeHtml(summary)}${escapeHtml(marks)} ${escapeHtml(hint)}</p><ol>${rows}</ol>`;
  }

  /** Stresses the row of rank (1-based), or none. */
  pick(rank) {
    for (const li of this.box.querySelectorAll('li[data-rank]')) li.classList.toggle('picked', Number(li.dataset.rank) === rank);
  }
}

/** One slice of the window in the unit shown: times are given to that precision. */
export function sliceWidth(window, scale) {
  return (window.end - window.start) / window.slices * (scale ? scale.factor : 1);
}

/** A cell's description for a tooltip on its mark; `slice` as {@link sliceWidth}. */
export function outlierTooltip(o, rank, scale, slice) {
  return `<div><strong>hidden deviation ${rank}</strong> (click: details)</div>`
    + `<div>${o.node === 0 ? 'all producers' : escapeHtml(o.producer)}</div>`
    + (scale ? `<div>${time(since(o.start, scale), slice, '')} – ${time(since(o.end, scale), slice, scale.unit)}</div>` : '')
    + `<div>${escapeHtml(o.type)}: ${percent(o.cellShare)} here, ${percent(o.partShare)} in the aggregate</div>`
    + `<div>score ${value(o.score)}</div>`;
}
