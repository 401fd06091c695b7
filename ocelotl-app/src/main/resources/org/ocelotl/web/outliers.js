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
   * @param answer {count, hidden}: how many deviating cells, how many worth telling apart at p
   * @param how    {scale, slice, marks, hint, zoom}: the time scale and one slice's width to show
   *               times with (no scale: the view shows one time, no time per row), where the marks
   *               are, what a click on a row does, whether rows offer a zoom button
   */
  show(answer, items, how) {
    this.items = items;
    this.box.dataset.count = String(items.length);
    const summary = `${answer.hidden} of ${answer.count} deviating cell${answer.count === 1 ? '' : 's'} worth telling apart at`
      + ` this p; ${listedInWords(items)}.`;
    const { scale, slice } = how;
    const rows = items.map((o, i) => {
      const when = scale ? `${time(since(o.start, scale), slice, '')} – ${time(since(o.end, scale), slice, scale.unit)}` : '';
      const who = o.node === 0 ? 'all producers' : o.producer;
      return `<li data-rank="${i + 1}" title="${escapeHtml(o.producer)}">`
        + `<div class="who"><span class="rank">${i + 1}</span> ${escapeHtml(who)}`
        // when: the whole part over some of its slices; who: producers below it (decision 052)
        + (o.kind ? ` <span class="hint">(${o.kind === 'when' ? 'when' : 'who'})</span>` : '')
        + (how.zoom ? ' <button type="button" data-zoom title="zoom on this time, every producer kept">zoom</button>' : '')
        + '</div>'
        + (o.aggregate !== undefined ? `<div>merged into ${o.aggregateNode === 0 ? 'all producers' : escapeHtml(o.aggregate)}</div>` : '')
        + (when ? `<div>[${escapeHtml(when)})</div>` : '')
        + `<div>${departure(o)}</div>`
        + (o.link === undefined ? `<div class="hint">score ${value(o.score)} · hidden up to p = ${value(o.worthUpTo)}</div></li>`
          : `<div class="hint">score ${value(o.score)} in the links' use</div></li>`);
    }).join('');
    this.box.innerHTML = `<p class="hint">${escapeHtml(summary)} ${escapeHtml(how.marks)} ${escapeHtml(how.hint)}</p><ol>${rows}</ol>`;
  }

  /** Stresses the row of rank (1-based), or none. */
  pick(rank) {
    for (const li of this.box.querySelectorAll('li[data-rank]')) li.classList.toggle('picked', Number(li.dataset.rank) === rank);
  }
}

/**
 * Which rows are listed: the producers behind a link first where the links name who the states
 * cannot, then who departs, then when the whole part does (decision 061); each highest score first.
 */
function listedInWords(items) {
  if (!items.some(o => o.kind)) return `the first ${items.length}, highest score first`;
  const count = kind => items.filter(o => o.kind === kind && o.link === undefined).length;
  const link = items.find(o => o.link !== undefined);
  const when = count('when'); // none in a temporal overview: a phase's cells are below it
  return (link ? `${link.producer} by ${link.link}'s use, then ` : '')
    + `the first ${count('who')} who${when ? `, then ${when} when, each` : ','} highest score first`;
}

/** How the cell departs: its type's share here and in the aggregate, or, found by a link, the link's use against the others'. */
function departure(o) {
  return o.link === undefined ? `${escapeHtml(o.type)}: ${percent(o.cellShare)} here, ${percent(o.partShare)} in the aggregate`
    : `found by ${escapeHtml(o.link)}'s use: ${percent(o.use)} of its bandwidth, ${percent(o.othersUse)} for the other links`;
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
    + `<div>${departure(o)}</div>`
    + `<div>score ${value(o.score)}</div>`;
}

/**
 * Numbered badges in a row from (x, y), their top left, in the marks' ink on a halo (the spatial
 * views' marks: on the node each deviation is merged into); returns each one's rank and box.
 */
export function badges(g, ranks, x, y) {
  g.save();
  g.font = 'bold 10px system-ui, sans-serif';
  g.textBaseline = 'middle';
  g.textAlign = 'center';
  const drawn = [];
  for (const rank of ranks) {
    const label = String(rank);
    const bw = Math.ceil(g.measureText(label).width) + 6, bh = 12;
    g.fillStyle = OUTLIER_HALO;
    g.fillRect(x - 1, y - 1, bw + 2, bh + 2);
    g.fillStyle = OUTLIER_INK;
    g.fillRect(x, y, bw, bh);
    g.fillStyle = '#fff';
    g.fillText(label, x + bw / 2, y + bh / 2 + 0.5);
    drawn.push({ rank, box: [x, y, x + bw, y + bh] });
    x += bw + 2;
  }
  g.restore();
  return drawn;
}

/** The ranks (1-based) of the listed deviations by the node they are merged into. */
export function ranksByAggregate(items) {
  const by = new Map();
  items.forEach((o, i) => by.set(o.aggregateNode, [...(by.get(o.aggregateNode) || []), i + 1]));
  return by;
}

/** The rank of the badge at (x, y), or null; for tests, the badges as "rank x0 y0 x1 y1" joined by |. */
export function badgeAt(drawn, x, y) {
  const hit = drawn.find(({ box }) => x >= box[0] && x <= box[2] && y >= box[1] && y <= box[3]);
  return hit ? hit.rank : null;
}

export function badgeData(drawn) {
  return drawn.map(({ rank, box }) => `${rank} ${box.join(' ')}`).join('|');
}
