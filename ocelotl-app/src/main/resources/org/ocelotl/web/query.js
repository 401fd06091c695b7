// The Query tab: a read-only SQL query (one SELECT or WITH statement) over the trace's tables —
// states, events, variables, links, producers, types — run by the server's DuckDB as `ocelotl sql`
// runs it (GET /api/query, docs/sql.md), the answer as a table and its CSV as a download.
import { escapeHtml } from './format.js';

/** Rows drawn in the table: the CSV download holds them all. */
const SHOWN = 1000;

const EXAMPLE = `SELECT t.name AS state, count(*) AS records, sum(s.end_time - s.start_time) AS time
FROM states s JOIN types t ON t.id = s.type
GROUP BY t.name ORDER BY time DESC LIMIT 10`;

export class QueryView {
  constructor(box, api) {
    this.box = box;
    this.api = api;
    this.trace = null;
    this.asked = 0; // the last run's number: an earlier run's late answer is not shown
    box.innerHTML = `<div class="query-controls">
        <textarea id="query-sql" rows="6" spellcheck="false" aria-label="SQL query">${escapeHtml(EXAMPLE)}</textarea>
        <div class="buttons"><button id="query-run" type="button" title="run the query (Ctrl+Enter)">Run</button>
          <a id="query-csv" class="button" download="query.csv">CSV</a>
          <span class="hint">one SELECT or WITH query over states, events, variables, links, producers, types
          (docs/sql.md); times in the trace's unit</span></div></div>
      <div id="query-status" class="hint" role="status"></div>
      <div id="query-result"></div>`;
    this.sql = box.querySelector('#query-sql');
    box.querySelector('#query-run').addEventListener('click', () => this.run());
    this.sql.addEventListener('keydown', e => { if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) this.run(); });
    this.sql.addEventListener('input', () => this.#link());
  }

  /** Shows the tab for a trace (its id). */
  show(trace) {
    this.box.hidden = false;
    if (trace === this.trace) return;
    this.trace = trace;
    this.box.querySelector('#query-result').innerHTML = '';
    this.box.querySelector('#query-status').textContent = '';
    this.#link();
  }

  #params(format) {
    return new URLSearchParams({ trace: this.trace, sql: this.sql.value, format });
  }

  #link() {
    this.box.querySelector('#query-csv').href = this.api.exportUrl('query', this.#params('csv'));
  }

  async run() {
    const status = this.box.querySelector('#query-status');
    const out = this.box.querySelector('#query-result');
    status.textContent = 'running…';
    const started = performance.now();
    const asked = ++this.asked;
    try {
      const answer = await this.api.get('query', this.#params('json'));
      if (asked !== this.asked) return;
      const n = answer.rows.length;
      status.textContent = `${n} ${n === 1 ? 'row' : 'rows'}${n > SHOWN ? `, the first ${SHOWN} shown (the CSV has all)` : ''}`
        + ` · ${Math.round(performance.now() - started)} ms`;
      const head = answer.columns.map((c, i) => `<th title="${escapeHtml(answer.types[i])}">${escapeHtml(c)}</th>`).join('');
      const rows = answer.rows.slice(0, SHOWN).map(row => `<tr>${row.map(v => v === null ? '<td class="null">NULL</td>'
        : typeof v === 'number' ? `<td class="num">${v}</td>` : `<td>${escapeHtml(String(v))}</td>`).join('')}</tr>`).join('');
      out.innerHTML = `<table id="query-table"><thead><tr>${head}</tr></thead><tbody>${rows}</tbody></table>`;
    } catch (e) {
      if (asked !== this.asked) return;
      status.textContent = e.message;
      out.innerHTML = '';
    }
  }
}
