// The Play view: a game against the model, leg by leg. The page knows no rules: every State
// comes from the server with its legal next legs, and a click is sent only when it is one of
// them. One request at a time: while one is in flight (a leg, the model's reply) clicks are
// ignored, and New / Undo / Load / a game switch cancel it first, so a late answer can never
// land on a game that has moved on (`epoch`).

import * as api from './api.js';
import { Board, cellsOf } from './board.js';

const $ = (id) => document.getElementById(id);

export class PlayView {
  /** `shared`: the page's common state (app.js): {games, bus}. */
  constructor(shared) {
    this.shared = shared;
    this.board = new Board($('play-board'), (cell) => this.click(cell));
    this.game = null; // the Game of /api/info being played
    this.state = null; // the current State (a move possibly in progress)
    this.history = []; // States at the start of each turn; moves[i] led from history[i]
    this.moves = [];
    this.selected = null; // the cell of the selected piece, when no move is in progress
    this.busy = false;
    this.epoch = 0; // bumped by every cancel: answers of an older epoch are dropped
    this.controller = null; // aborts the model's reply in flight

    $('game').addEventListener('change', (e) => {
      e.target.blur();
      this.setGame(e.target.value);
    });
    $('new').addEventListener('click', () => this.newGame());
    $('undo').addEventListener('click', () => this.undo());
    $('end-move').addEventListener('click', () => this.send('end'));
    $('model-move').addEventListener('click', () => this.modelMoves(true));
    $('load').addEventListener('click', () => this.load());
    $('position').addEventListener('keydown', (e) => {
      if (e.key === 'Enter') this.load();
    });
  }

  /** Switches to game `name` (resetting the seats the model plays) at its start. */
  async setGame(name) {
    this.cancel();
    this.game = this.shared.games.get(name);
    $('game').value = name;
    this.board.setGame(this.game);
    // Nothing of the other game is drawn or clicked while the new start is on its way.
    this.state = null;
    this.history = [];
    this.moves = [];
    const seats = $('model-seats');
    seats.replaceChildren();
    // By default the model plays every seat but the first.
    this.game.seat_names.forEach((seatName, i) => {
      const label = document.createElement('label');
      const box = document.createElement('input');
      box.type = 'checkbox';
      box.id = `model-seat-${i}`;
      box.checked = i !== 0;
      label.append(box, ` ${seatName}`);
      seats.append(label);
    });
    // One row of the move list per round.
    $('moves').style.setProperty('--seats', String(this.game.seats.length));
    $('model-name').textContent = this.game.model ?? 'no model: uniform priors';
    await this.newGame();
  }

  /** Whether the model plays `seat` (its checkbox). */
  isModel(seat) {
    const box = $(`model-seat-${seat}`);
    return Boolean(box && box.checked);
  }

  seatName(seat) {
    return this.game.seat_names[seat] ?? this.game.seats[seat];
  }

  /** Drops whatever request is in flight: its answer will be ignored. */
  cancel() {
    this.epoch += 1;
    if (this.controller) this.controller.abort();
    this.controller = null;
    this.setBusy(false);
  }

  setBusy(busy) {
    this.busy = busy;
    const view = $('view-play');
    if (busy) view.dataset.busy = '1';
    else delete view.dataset.busy;
    this.render();
  }

  async newGame() {
    this.cancel();
    await this.request(() => api.state(this.game.name, 'start'), (state) => this.reset(state));
  }

  /** Loads the position string of #position (the game it names, if it names the other one). */
  async load() {
    const text = $('position').value.trim();
    this.cancel();
    const first = text.split(/\s+/)[0];
    if (this.shared.games.has(first) && first !== this.game.name) await this.setGame(first);
    await this.request(() => api.state(this.game.name, text), (state) => this.reset(state));
  }

  /** Starts again from `state`, with an empty history. */
  reset(state) {
    this.history = [state];
    this.moves = [];
    this.setState(state);
  }

  setState(state) {
    this.state = state;
    this.selected = null;
    // Only a new state rewrites the position line (not a re-render), so what is being typed
    // there stays until it is loaded.
    $('position').value = state.position;
    this.render();
    this.shared.bus.dispatchEvent(new CustomEvent('position', { detail: state }));
  }

  /** A server answer {state, completed} of a leg or a reply: the move list grows when a move
   * was completed. */
  apply(state, completed) {
    if (completed) {
      this.moves.push({ move: completed, seat: this.state.to_move });
      this.history.push(state);
    }
    this.setState(state);
  }

  /**
   * Runs `call` (a request) as the one request in flight and hands its answer to `done`, unless
   * the page moved on meanwhile. Returns whether it succeeded. Its error, if any, is already
   * shown by app.js.
   */
  async request(call, done) {
    const epoch = this.epoch;
    this.setBusy(true);
    try {
      const answer = await call();
      if (epoch !== this.epoch) return false;
      this.setBusy(false);
      done(answer);
      return true;
    } catch {
      if (epoch === this.epoch) this.setBusy(false);
      return false;
    }
  }

  /** The legs the board offers now: the moving piece's, or the selected piece's. */
  currentLegs() {
    if (!this.state) return [];
    const from = this.state.moving ?? this.selected;
    return from ? this.state.legs.filter((l) => l.from === from) : [];
  }

  /** A click on `cell`: a legal landing cell plays its leg; a piece with legs is selected;
   * anything else only clears the selection. Nothing is sent for an illegal click. */
  click(cell) {
    if (this.busy || !this.state || this.state.over) return;
    const leg = this.currentLegs().find((l) => l.to === cell);
    if (leg) {
      this.send(leg.action);
      return;
    }
    if (this.state.moving) return; // the moving piece stays the one that moves
    const hasLegs = this.state.legs.some((l) => l.from === cell);
    this.selected = hasLegs && this.selected !== cell ? cell : null;
    this.render();
  }

  /** Plays `action` (a leg or "end"); once the move is complete, the model's seats answer. */
  async send(action) {
    if (this.busy || !this.state) return;
    let completed = null;
    const ok = await this.request(
      () => api.play(this.game.name, this.state.position, action),
      (answer) => {
        completed = answer.completed;
        this.apply(answer.state, answer.completed);
      },
    );
    if (ok && completed) await this.modelMoves(false);
  }

  /** The model plays while the side to move is one of its seats; `now`: it plays the side to
   * move once whoever that is (#model-move), completing a move in progress. */
  async modelMoves(now) {
    if (now && this.busy) return;
    let force = now;
    while (this.state && !this.state.over && (force || this.isModel(this.state.to_move))) {
      force = false;
      const sims = Math.max(1, parseInt($('sims').value, 10) || 200);
      this.controller = new AbortController();
      const signal = this.controller.signal;
      const ok = await this.request(
        () => api.reply(this.game.name, this.state.position, sims, signal),
        (answer) => this.apply(answer.state, answer.move),
      );
      this.controller = null;
      if (!ok) return;
    }
  }

  /** Takes back to the last turn a person plays (before that person's last move), or drops the
   * legs of the move in progress. */
  async undo() {
    this.cancel();
    if (!this.state) return;
    if (this.state.moving) {
      // A position string in the middle of a move is the turn's start plus ` move=<legs>`.
      const top = this.history[this.history.length - 1];
      const start = this.state.position.replace(/\s+move=\S*$/, '');
      if (top && top.position === start) this.setState(top);
      else await this.request(() => api.state(this.game.name, start), (s) => this.reset(s));
      return;
    }
    for (let j = this.history.length - 2; j >= 0; j--) {
      if (!this.isModel(this.history[j].to_move)) {
        this.history.length = j + 1;
        this.moves.length = j;
        this.setState(this.history[j]);
        return;
      }
    }
  }

  /** Text of a finished game's result: who won, or a draw. */
  resultText(over) {
    const best = Math.max(...over.result);
    const winners = over.result.map((v, i) => [v, i]).filter(([v]) => v === best);
    const who = winners.length === 1 ? `${this.seatName(winners[0][1])} wins` : 'draw';
    return `Game over: ${who} (${over.termination})`;
  }

  render() {
    const s = this.state;
    if (!s || !this.game) return;
    const legs = this.currentLegs();
    this.board.render({
      pieces: s.pieces,
      selected: s.moving ?? this.selected,
      targets: this.busy || s.over ? [] : legs.map((l) => l.to),
      movable: this.busy || s.over ? [] : s.moving ? [s.moving] : s.legs.map((l) => l.from),
      landed: s.landed,
      last: cellsOf(s.last_move ?? (s.moving ? this.moves.at(-1)?.move : null)),
    });

    const mover = this.seatName(s.to_move);
    const model = this.isModel(s.to_move) ? ' (model)' : '';
    let status;
    if (s.over) status = this.resultText(s.over);
    else if (this.busy && this.controller) status = `${mover}${model} is thinking…`;
    else if (s.moving) {
      status = `${mover}${model} to move: ${s.partial} …` + (s.can_end ? ' (may end here)' : '');
    } else status = `${mover}${model} to move`;
    $('status').textContent = status;
    $('status').dataset.seat = String(s.to_move);

    $('end-move').disabled = this.busy || !s.can_end || Boolean(s.over);
    $('model-move').disabled = this.busy || Boolean(s.over);

    const list = $('moves');
    if (list.children.length !== this.moves.length || this.movesDirty(list)) {
      list.replaceChildren(
        ...this.moves.map(({ move, seat }) => {
          const li = document.createElement('li');
          li.textContent = move;
          li.dataset.seat = String(seat);
          li.title = this.seatName(seat);
          return li;
        }),
      );
      list.lastElementChild?.scrollIntoView({ block: 'nearest' });
    }
  }

  /** Whether the list on the page differs from `moves` (after an undo and a new move). */
  movesDirty(list) {
    return this.moves.some((m, i) => list.children[i].textContent !== m.move);
  }
}
