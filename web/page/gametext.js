// Save and Load of the Play view's game as a saved game's text (docs/records.md, "Saved
// games": the text `camelot-zero play`, `replay` and the Python package read and write). The
// server writes and reads the text and checks every move; the page only moves it between the
// box, a file and the Play view's line.

import * as api from './api.js';

const $ = (id) => document.getElementById(id);

export class GameText {
  /** `shared`: the page's common state (app.js): {play}. */
  constructor(shared) {
    this.shared = shared;
    this.url = null;
    $('save-game').addEventListener('click', () => this.save());
    $('load-game').addEventListener('click', () => this.load($('game-text').value));
    $('game-file').addEventListener('change', async (e) => {
      const file = e.target.files?.[0];
      if (!file) return;
      const text = await file.text();
      $('game-text').value = text;
      e.target.value = '';
      await this.load(text);
    });
  }

  /** The line shown in the Play view (to its end, past the position shown) as text, in the
   * box and as a file to download. */
  async save() {
    const play = this.shared.play;
    if (!play.tree) return;
    const line = play.tree.line();
    const game = {
      game: play.game.name,
      start: line[0].position,
      moves: line.slice(1).map((n) => n.move),
      comments: line.map((n) => n.comment),
    };
    let text;
    try {
      ({ text } = await api.writeGame(game));
    } catch {
      return; // shown in #error
    }
    $('game-text').value = text;
    if (this.url) URL.revokeObjectURL(this.url);
    this.url = URL.createObjectURL(new Blob([text], { type: 'text/plain' }));
    const link = $('save-link');
    link.href = this.url;
    link.download = `${play.game.name}-${game.moves.length}-moves.txt`;
    link.hidden = false;
    $('view-play').dataset.saved = String(game.moves.length);
  }

  /** Reads `text` and shows its game in the Play view, at its last move. */
  async load(text) {
    let read;
    try {
      read = await api.readGame(text);
    } catch {
      return; // shown in #error
    }
    await this.shared.play.openLine(read.game, read);
  }
}
