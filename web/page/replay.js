// The Replay view: the games a run recorded (--run), stepped through move by move, with the
// value graph of the searches that chose them. The server replays each game by the rules and
// sends the position string before every move; the board draws the State of the one shown,
// which is asked for only when it is shown (and kept). "Open in Play" and "Analyse" take the
// game to the Play view's tree at the move shown, to branch from it or search it.

import * as api from './api.js';
import { Board } from './board.js';
import { ValueGraph } from './graph.js';
import { stepButtons } from './steps.js';

const $ = (id) => document.getElementById(id);

/** A result share as people write it: 1, 0, ½, ⅓. */
function share(v) {
  if (Math.abs(v - 0.5) < 1e-3) return '½';
  if (Math.abs(v - 1 / 3) < 1e-3) return '⅓';
  return Number.isInteger(v) ? String(v) : v.toFixed(2);
}

export function resultText(result) {
  return result.map(share).join('–');
}

export class ReplayView {
  /** `shared`: the page's common state (app.js): {info, games}. */
  constructor(shared) {
    this.shared = shared;
    this.board = new Board($('replay-board'));
    this.graph = new ValueGraph($('value-graph'), (i) => this.goto(i));
    this.seats = []; // the seat that played each move
    this.gameName = null;
    this.replay = null;
    this.states = []; // State of positions[i], once fetched
    this.index = 0;
    this.token = 0; // the latest goto: an older one's State is not drawn
    this.loaded = false;
    this.active = false;

    const hasRun = Boolean(shared.info.run);
    $('replay-none').hidden = hasRun;
    $('replay-controls').hidden = !hasRun;
    $('replay-board').parentElement.hidden = !hasRun; // no empty board frame either
    if (!hasRun) return;

    $('replay-collection').addEventListener('change', (e) => {
      e.target.blur(); // so the arrow keys step through the game, not the list
      this.loadGames(e.target.value);
    });
    $('replay-game').addEventListener('change', (e) => {
      e.target.blur();
      this.loadGame();
    });
    const to = { start: () => 0, prev: () => this.index - 1, next: () => this.index + 1, end: () => Infinity };
    stepButtons($('replay-steps'), 'replay', (kind) => this.goto(to[kind]()));
    document.addEventListener('keydown', (e) => this.key(e));
    $('replay-open').addEventListener('click', () => this.open('play'));
    $('replay-analyse').addEventListener('click', () => this.open('analyse'));
  }

  /** The game, at the move shown, into the Play view's tree; then `view` is shown. */
  async open(view) {
    const r = this.replay;
    if (!r || this.seats.length !== r.moves.length) return;
    const line = {
      positions: r.positions,
      moves: r.moves,
      seats: this.seats,
      values: r.values,
      netValues: r.net_values,
    };
    await this.shared.play.openLine(r.variant, line, this.index);
    this.shared.show(view);
  }

  /** The view is shown: the run's collections are listed the first time. */
  async show() {
    this.active = true;
    if (!this.shared.info.run || this.loaded) return;
    this.loaded = true;
    try {
      const run = await api.run();
      const select = $('replay-collection');
      select.replaceChildren(
        // An arena folder by its own name (several --games folders are told apart).
        ...run.collections.map((c) => {
          const name = c.kind === 'arena' && c.folder ? `${c.id}: ${String(c.folder).split(/[\\/]/).filter(Boolean).pop()}` : c.id;
          return new Option(`${name} (${c.kind})`, c.id);
        }),
      );
      if (run.collections.length) await this.loadGames(run.collections[0].id);
      else $('replay-move').textContent = 'this run has recorded no games yet';
    } catch {
      this.loaded = false; // shown in #error; tried again the next time the view is shown
    }
  }

  hide() {
    this.active = false;
  }

  key(e) {
    if (!this.active || !this.replay) return;
    if (e.target.closest && e.target.closest('input, select, textarea')) return;
    const step = { ArrowLeft: -1, ArrowRight: 1 }[e.key];
    if (step) this.goto(this.index + step);
    else if (e.key === 'Home') this.goto(0);
    else if (e.key === 'End') this.goto(Infinity);
    else return;
    e.preventDefault();
  }

  async loadGames(collection) {
    try {
      const { games } = await api.runGames(collection);
      games.sort((a, b) => a.shard - b.shard || a.game_id - b.game_id);
      $('replay-game').replaceChildren(
        ...games.map((g) => {
          const label =
            `shard ${g.shard} / game ${g.game_id} · ${g.plies} plies · ` +
            `${resultText(g.result)} (${g.termination})`;
          return new Option(label, `${g.shard}:${g.game_id}`);
        }),
      );
      if (games.length) await this.loadGame();
    } catch {
      // shown in #error
    }
  }

  /** The game chosen in #replay-game, from its start. */
  async loadGame() {
    const [shard, gameId] = $('replay-game').value.split(':');
    const collection = $('replay-collection').value;
    try {
      this.replay = await api.runGame(collection, shard, gameId);
    } catch {
      return;
    }
    this.states = [];
    this.seats = [];
    const r = this.replay;
    try {
      this.seats = (await api.line(r.variant, r.positions[0], r.moves)).seats;
    } catch {
      // shown in #error; the board still steps, without each seat's last move
    }
    const game = this.shared.games.get(this.replay.variant);
    if (game && this.gameName !== game.name) {
      this.board.setGame(game);
      this.gameName = game.name;
    }
    $('replay-info').textContent =
      `${this.replay.model} · ${resultText(this.replay.result)} (${this.replay.termination})`;
    const arena = $('replay-collection').selectedOptions[0]?.textContent.includes('(arena)');
    const recorded = arena ? 'arena games keep no searches' : 'no searches were recorded for this game';
    this.graph.draw(game, r.values, r.net_values, `no values: ${recorded}`);
    await this.goto(0);
  }

  /** Shows positions[i] (clamped to the game). */
  async goto(i) {
    const r = this.replay;
    if (!r) return;
    const last = r.positions.length - 1;
    i = Math.max(0, Math.min(last, i));
    this.index = i;
    const token = ++this.token;
    const n = r.moves.length;
    $('replay-move').textContent = `move ${i} / ${n}: ${i === 0 ? 'start' : r.moves[i - 1]}`;
    this.graph.mark(i);
    if (!this.states[i]) {
      try {
        this.states[i] = await api.state(r.variant, r.positions[i]);
      } catch {
        return;
      }
    }
    if (token !== this.token) return;
    // Each seat's last move up to the one shown.
    const lastBySeat = new Map();
    for (let k = 0; k < i && k < this.seats.length; k++) lastBySeat.set(this.seats[k], r.moves[k]);
    if (this.seats.length === 0 && i > 0) lastBySeat.set(-1, r.moves[i - 1]);
    this.board.render({ pieces: this.states[i].pieces, lastBySeat });
    $('view-replay').dataset.shown = String(i);
  }
}
