// Calls to the JSON API. The page was opened with the token in its URL and the server set a
// cookie with it, so same-origin fetches carry it; the header is sent too for clarity.

export class ApiError extends Error {
  constructor(status, message) { super(message); this.status = status; }
}

export class Api {
  constructor(token) {
    this.token = token;
    this.client = Math.random().toString(36).slice(2) + Date.now().toString(36);
    this.seq = 0;
    this.importSeq = 0;
    this.controller = null;
  }

  async get(path, params, signal) {
    const url = `/api/${path}${params ? '?' + params : ''}`;
    return this.#json(await fetch(url, { headers: { 'X-Ocelotl-Token': this.token }, signal }));
  }

  async post(path, body) {
    return this.#json(await fetch(`/api/${path}`, {
      method: 'POST', headers: { 'X-Ocelotl-Token': this.token, 'Content-Type': 'application/json' },
      body: JSON.stringify(body) }));
  }

  /** PATCH or DELETE, with an optional JSON body. */
  async send(method, path, body) {
    return this.#json(await fetch(`/api/${path}`, {
      method, headers: { 'X-Ocelotl-Token': this.token, 'Content-Type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body) }));
  }

  async #json(response) {
    const text = await response.text();
    let body;
    try { body = JSON.parse(text); } catch { body = { error: text || response.statusText }; }
    if (!response.ok) throw new ApiError(response.status, body.error || response.statusText);
    return body;
  }

  /**
   * Asks for an overview (or another answer of the page's main picture at `path`: a comparison),
   * superseding any request still under way: the old fetch is aborted,
   * the server cancels its computation (same client, higher seq), and a late answer to an old
   * request is never returned (null instead), so no stale picture can be drawn over a newer one.
   */
  async overview(params, onProgress, path = 'overview') {
    const seq = ++this.seq;
    this.controller?.abort();
    const controller = new AbortController();
    this.controller = controller;
    params.set('client', this.client);
    params.set('seq', String(seq));
    const poll = setInterval(async () => {
      try {
        const progress = await this.get('progress', new URLSearchParams({ client: this.client }));
        if (seq === this.seq && progress.seq === seq) onProgress(progress);
      } catch { /* a poll may fail while the server is busy; the next one will tell */ }
    }, 300);
    try {
      // 503: the server is computing as much as it may; an older computation of this page (or
      // another page's) finishes soon. Ask again while this is still the newest request.
      for (let attempt = 0; ; attempt++) {
        try {
          const result = await this.get(path, params, controller.signal);
          return seq === this.seq ? result : null;
        } catch (e) {
          if (e.status !== 503 || attempt >= 60 || seq !== this.seq) throw e;
          onProgress({ seq, stage: 'waiting for the server (busy)', elapsedMs: attempt * 1000 });
          await new Promise(ok => setTimeout(ok, 1000));
        }
      }
    } catch (e) {
      if (seq !== this.seq || e.name === 'AbortError' || e.status === 409) return null;
      throw e;
    } finally {
      clearInterval(poll);
    }
  }

  /** Stops the current overview request, on the server too (its computation ends at once). */
  async cancel() {
    const seq = this.seq;
    this.seq++; // any late answer to the cancelled request is now stale
    this.controller?.abort();
    await fetch(`/api/cancel?client=${encodeURIComponent(this.client)}`,
      { method: 'POST', headers: { 'X-Ocelotl-Token': this.token } });
    return seq;
  }

  /**
   * Imports a file of the server's machine as a job of its own (not an overview's: drawing goes
   * on meanwhile), polled for its progress; null when cancelled.
   */
  async importTrace(path, onProgress) {
    const client = `${this.client}-import`;
    const seq = ++this.importSeq;
    const poll = setInterval(async () => {
      try {
        const progress = await this.get('progress', new URLSearchParams({ client }));
        if (progress.seq === seq) onProgress(progress);
      } catch { /* the next poll will tell */ }
    }, 300);
    try {
      const q = new URLSearchParams({ client, seq: String(seq) });
      return await this.#json(await fetch(`/api/import?${q}`, {
        method: 'POST', headers: { 'X-Ocelotl-Token': this.token, 'Content-Type': 'application/json' },
        body: JSON.stringify({ path }) }));
    } catch (e) {
      if (e.status === 409) return null; // cancelled
      throw e;
    } finally {
      clearInterval(poll);
    }
  }

  /** Stops the import under way on the server; its answer then says it was cancelled. */
  async cancelImport() {
    await fetch(`/api/cancel?client=${encodeURIComponent(`${this.client}-import`)}`,
      { method: 'POST', headers: { 'X-Ocelotl-Token': this.token } });
  }

  exportUrl(path, params) {
    return `/api/${path}?${params}`;
  }
}
