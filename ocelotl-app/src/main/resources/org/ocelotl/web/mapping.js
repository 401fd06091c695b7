// The topology graph's size and fill per node kind (decision 050, as VIVA's mapping): two selects per
// kind, shown with the variable mean, whose model holds every variable. Their choice is the state's
// size and fill lists (KIND=VARIABLE), hence the URL's and the request's.
import { escapeHtml } from './format.js';

/**
 * Draws the selects in `box` for the graph answer `r` (its nodes' kinds, its model's variables),
 * or hides `box` when the metric is not the variable mean; `onChange(size, fill)` gets the new lists.
 */
export function showMapping(box, r, state, onChange) {
  box.hidden = state.metric !== 'variable-mean' || !r.topology;
  if (box.hidden) return;
  const kinds = [...new Set(r.topology.nodes.map(n => n.kind))].sort();
  const chosen = list => new Map(list.map(item => item.split('=')).map(([k, v]) => [k.toUpperCase(), v]));
  const size = chosen(state.size);
  const fill = chosen(state.fill);
  const select = (what, kind, current, fallback) => `<select data-what="${what}" data-kind="${escapeHtml(kind)}" `
    + `aria-label="${what} of ${escapeHtml(kind)}"><option value="">${fallback}</option>`
    + r.types.map(t => `<option value="${escapeHtml(t)}"${current === t ? ' selected' : ''}>${escapeHtml(t)}</option>`)
      .join('') + '</select>';
  box.innerHTML = '<div class="hint">size and fill per node kind</div>' + kinds.map(k => `<div>${escapeHtml(k)} `
    + `${select('size', k, size.get(k.toUpperCase()), 'capacity')} ${select('fill', k, fill.get(k.toUpperCase()), 'use')}</div>`)
    .join('');
  for (const s of box.querySelectorAll('select')) {
    s.addEventListener('change', () => {
      const picked = what => [...box.querySelectorAll(`select[data-what="${what}"]`)].filter(e => e.value !== '')
        .map(e => `${e.dataset.kind}=${e.value}`);
      onChange(picked('size'), picked('fill'));
    });
  }
}
