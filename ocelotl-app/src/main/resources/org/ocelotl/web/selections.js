// Saved selections (docs/selections.md): a menu that applies one to the view, and a button that
// saves the current selection (a drag, else the view's window and filters) under a name.
import { escapeHtml } from './format.js';

export class SelectionsPanel {
  /**
   * @param current () => {trace, start, end, producers, types}: what "Save" keeps
   * @param apply   selection => void: makes the view show a saved selection
   */
  constructor(menu, saveButton, api, current, apply, message) {
    this.menu = menu;
    this.api = api;
    this.message = message;
    this.traceId = null;
    this.list = [];
    menu.addEventListener('change', () => {
      const chosen = this.list.find(s => s.name === menu.value);
      menu.value = '';
      if (chosen) apply(chosen);
    });
    saveButton.addEventListener('click', () => this.save(current()));
  }

  async load(traceId) {
    this.traceId = traceId;
    try {
      this.list = (await this.api.get('selections', new URLSearchParams({ trace: traceId }))).selections;
    } catch (e) {
      this.list = [];
      this.message(e.message, true);
    }
    this.menu.innerHTML = `<option value="">${this.list.length ? 'Apply a saved selection…' : 'no saved selection'}</option>`
      + this.list.map(s => `<option value="${escapeHtml(s.name)}" title="${escapeHtml(s.note)}">${escapeHtml(s.name)}</option>`).join('');
  }

  async save(selection) {
    const name = prompt('Name of the selection (letters, digits, ._:+-):');
    if (!name) return;
    const note = prompt('A note (optional):') || '';
    try {
      const saved = await this.api.post(`selections?trace=${encodeURIComponent(this.traceId)}`,
        { name, note, from: selection.start, to: selection.end, producers: selection.producers, types: selection.types });
      this.message(`saved selection ${saved.name}`);
      await this.load(this.traceId);
    } catch (e) {
      this.message(e.message, true);
    }
  }
}
