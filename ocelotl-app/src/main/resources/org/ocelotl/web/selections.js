// Saved selections (docs/selections.md): a menu that applies one to the view, a button that
// saves the current selection (a drag, else the view's window and filters) under a name, and
// two that rename or delete the selection applied last.
import { escapeHtml } from './format.js';

export class SelectionsPanel {
  /**
   * @param current () => {trace, start, end, producers, types}: what "Save" keeps
   * @param apply   selection => void: makes the view show a saved selection
   */
  constructor(menu, saveButton, renameButton, deleteButton, api, current, apply, message) {
    this.menu = menu;
    this.renameButton = renameButton;
    this.deleteButton = deleteButton;
    this.api = api;
    this.message = message;
    this.traceId = null;
    this.list = [];
    this.applied = null;
    menu.addEventListener('change', () => {
      const chosen = this.list.find(s => s.name === menu.value);
      menu.value = '';
      if (chosen) {
        this.#choose(chosen.name);
        apply(chosen);
      }
    });
    saveButton.addEventListener('click', () => this.save(current()));
    renameButton.addEventListener('click', () => this.rename());
    deleteButton.addEventListener('click', () => this.remove());
  }

  /** The selection the Rename and Delete buttons act on (null: none, they are disabled). */
  #choose(name) {
    this.applied = name;
    this.renameButton.disabled = this.deleteButton.disabled = name === null;
    const what = name === null ? 'the selection applied last' : `selection ${name}`;
    this.renameButton.title = `rename ${what}`;
    this.deleteButton.title = `delete ${what}`;
  }

  #path() {
    return `selections?trace=${encodeURIComponent(this.traceId)}&name=${encodeURIComponent(this.applied)}`;
  }

  async rename() {
    const name = prompt(`New name for selection ${this.applied} (letters, digits, ._:+-):`, this.applied);
    if (!name || name === this.applied) return;
    try {
      await this.api.send('PATCH', this.#path(), { name });
      this.message(`renamed selection ${this.applied} to ${name}`);
      this.#choose(name);
      await this.load(this.traceId, name);
    } catch (e) {
      this.message(e.message, true);
    }
  }

  async remove() {
    if (!confirm(`Delete selection ${this.applied}?`)) return;
    try {
      await this.api.send('DELETE', this.#path());
      this.message(`deleted selection ${this.applied}`);
      await this.load(this.traceId);
    } catch (e) {
      this.message(e.message, true);
    }
  }

  /** Lists the trace's selections; {@code keep}: the name the buttons still act on, if any. */
  async load(traceId, keep = null) {
    this.traceId = traceId;
    this.#choose(keep);
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
