// The Play view: a game against the model, leg by leg, kept as a tree of lines (tree.js): a
// click in the move list goes back to any position, a move played there starts a new line and
// keeps the old one. The page knows no rules: every State comes from the server with its legal
// next legs, and a click is sent only when it is one of them. One request at a time: while one
// is in flight (a leg, the model's reply) clicks are ignored, and New / Undo / Load / a game
// switch / a jump in the list cancel it first, so a late answer can never land on a game that
// has moved on (`epoch`). Beside the board, the evaluation bar and the value graph of the line:
// the values of the model's searches, of the Analyse view's, and of a short search of each
// position that has none yet (`EVAL_SIMS`).

import * as api from './api.js';
import { Board } from './board.js';
import { EvalBar } from './evalbar.js';
import { ValueGraph } from './graph.js';
import { MoveList } from './movelist.js';
import { stepButtons } from './steps.js';
import { GameTree } from './tree.js';

const $ = (id) => document.getElementById(id);

/** Simulations of the short search that values a position nobody has searched yet. */
export const EVAL_SIMS = 64;

export class PlayView {
  /** `shared`: the page's common state (app.js): {games, bus}. */
  constructor(shared) {
    this.shared = shared;
    this.board = new Board($('play-board'), (cell) => this.click(cell));
    this.evalBar = new EvalBar($('play-eval'));
    this.graph = new ValueGraph($('play-graph'), (i) => this.goto(this.tree.line()[i]));
    this.moveList = new MoveList((node) => this.goto(node));
    this.game = null; // the Game of /api/info being played
    this.state = null; // the current State (a move possibly in progress)
    this.tree = null; // every line played, the current node at the start of the turn shown
    this.selected = null; // the cell of the selected piece, when no move is in progress
    this.evaluation = null; // the short search valuing the current position, while it runs
    this.busy = false;
    this.epoch = 0; // bumped by every cancel: answers of an older epoch are dropped
    this.controller = null; // aborts the model's reply in flight
    if (Number.isInteger(shared.info.max_sims)) $('sims').max = String(shared.info.max_sims);

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
    $('stop-thinking').addEventListener('click', () => this.stopThinking());
    stepButtons($('line-steps'), 'line', (kind) => {
      if (kind === 'start') this.goto(this.tree?.root);
      else if (kind === 'end') this.goto(this.tree?.line().at(-1));
      else this.step(kind === 'prev' ? -1 : 1);
    });
    $('comment').addEventListener('input', (e) => {
      if (!this.tree) return;
      this.tree.current.comment = e.target.value;
      this.moveList.render(this.tree, this.game.seat_names);
    });
    this.active = true;
    document.addEventListener('keydown', (e) => {
      if (!this.active || (e.target.closest && e.target.closest('input, select, textarea'))) return;
      const step = { ArrowLeft: -1, ArrowRight: 1 }[e.key];
      if (!step) return;
      this.step(step);
      e.preventDefault();
    });
  }

  show() {
    this.active = true;
  }

  hide() {
    this.active = false;
  }

  /** Switches to game `name` (resetting the seats the model plays) at its start; `fresh`:
   * false when the caller sets up the game itself. */
  async setGame(name, fresh = true) {
    this.cancel();
    this.game = this.shared.games.get(name);
    $('game').value = name;
    this.board.setGame(this.game);
    // Nothing of the other game is drawn or clicked while the new start is on its way.
    this.state = null;
    this.tree = null;
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
    if (fresh) await this.newGame();
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
    this.stopEvaluation();
    this.setBusy(false);
  }

  /** Stops the model's thinking: no move is played, the same seat stays to move. */
  stopThinking() {
    if (!this.controller) return;
    this.cancel();
    $('status').textContent += ' (stopped: Model moves now, or play the move yourself)';
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

  /** Starts again from `state`, with a tree of no moves. */
  reset(state) {
    this.tree = new GameTree(state.position, state);
    this.setState(state);
  }

  /**
   * Starts again from a line of moves: `line` is {positions, seats} (/api/line, /api/game/read)
   * with `moves` and, optionally, `comments`, `values` and `netValues` per position; the
   * position after move `at` (default: the last) is shown. The game is switched if need be.
   */
  async openLine(game, line, at = line.moves.length) {
    this.cancel();
    if (game !== this.game.name) await this.setGame(game, false);
    const tree = new GameTree(line.positions[0]);
    let node = tree.root;
    const nodes = [node];
    line.moves.forEach((move, i) => {
      node = node.child(move, line.seats[i], line.positions[i + 1]);
      nodes.push(node);
    });
    nodes.forEach((n, i) => {
      n.comment = line.comments?.[i] ?? '';
      if (line.values?.[i]) n.values = line.values[i];
      if (line.netValues?.[i]) n.netValues = line.netValues[i];
    });
    this.tree = tree;
    await this.goto(nodes[Math.max(0, Math.min(at, nodes.length - 1))]);
  }

  /** Shows `node` of the tree (its State fetched the first time). */
  async goto(node) {
    if (!node || !this.tree) return;
    this.cancel();
    this.tree.goto(node);
    if (node.state) {
      this.setState(node.state);
      return;
    }
    await this.request(() => api.state(this.game.name, node.position), (state) => {
      node.state = state;
      if (this.tree.current === node) this.setState(state);
    });
  }

  /** One move back or forward along the line shown. */
  step(delta) {
    if (!this.tree) return;
    const line = this.tree.line();
    const i = line.indexOf(this.tree.current) + delta;
    if (i >= 0 && i < line.length) this.goto(line[i]);
  }

  setState(state) {
    // A short search of the position left behind is of no use any more.
    if (this.evaluation && this.evaluation.position !== state.position) this.stopEvaluation();
    this.state = state;
    this.selected = null;
    // Only a new state rewrites the position line (not a re-render), so what is being typed
    // there stays until it is loaded.
    $('position').value = state.position;
    $('comment').value = this.tree?.current.comment ?? '';
    this.render();
    this.shared.bus.dispatchEvent(new CustomEvent('position', { detail: state }));
    // Once the page settles (the model may be about to answer), a position without values
    // gets a short search of its own.
    setTimeout(() => this.evaluate(), 50);
  }

  /** A server answer {state, completed} of a leg or a reply: a completed move goes on the
   * line (an existing one if it was played here before). */
  apply(state, completed) {
    if (completed) {
      const node = this.tree.play(completed, this.state.to_move, state.position);
      node.state = state;
    }
    this.setState(state);
  }

  /** Records the searched values of the current turn's position (a reply's or an analysis's),
   * unless it already has those of a longer search. */
  valued(position, analysis) {
    const node = this.tree?.current;
    if (!node || node.position !== position || !analysis) return;
    if (analysis.simulations < node.sims) return;
    node.values = analysis.root_values;
    node.netValues = analysis.net_values;
    node.sims = analysis.simulations;
    this.renderValues();
  }

  /** The short search of a position with no values yet (not while a request is in flight). */
  evaluate() {
    const node = this.tree?.current;
    const s = this.state;
    if (this.busy || this.evaluation || !node || !s || s.moving || s.over || node.values) return;
    if (node.position !== s.position) return;
    const stream = api.analyse(this.game.name, s.position, EVAL_SIMS, (a) => {
      if (a.done && this.evaluation === stream) this.valued(s.position, a);
    });
    stream.position = s.position;
    this.evaluation = stream;
    const finished = () => {
      if (this.evaluation === stream) this.evaluation = null;
    };
    stream.done.then(finished, finished);
  }

  stopEvaluation() {
    if (this.evaluation) this.evaluation.abort();
    this.evaluation = null;
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
    // Nothing is sent for an illegal click; the status line says why instead.
    const from = this.state.moving ?? this.selected;
    const hint = (text) => {
      $('status').textContent = text;
      $('status').dataset.hint = '1';
    };
    if (this.state.moving) {
      hint(`${cell} is not a legal next leg of the piece moving on ${from}`);
      return; // the moving piece stays the one that moves
    }
    const hasLegs = this.state.legs.some((l) => l.from === cell);
    const wasSelected = this.selected;
    this.selected = hasLegs && this.selected !== cell ? cell : null;
    this.render();
    if (!hasLegs && wasSelected && wasSelected !== cell) {
      hint(`${cell} is not a legal landing square of the piece on ${wasSelected}`);
    } else if (!hasLegs && this.state.pieces.some((p) => p.cell === cell)) {
      hint(`the piece on ${cell} has no legal move now` + (this.state.legs.some((l) => l.capture) ? ' (a capture is compulsory)' : ''));
    }
  }

  /** The simulations typed in `input` (a whole number from 1 to its max), or null with the
   * reason shown in the page's error line. */
  static sims(input) {
    const n = Number(input.value);
    const max = input.max ? parseInt(input.max, 10) : Infinity;
    if (Number.isInteger(n) && n >= 1 && n <= max) return n;
    const error = $('error');
    error.textContent = `simulations must be a whole number from 1 to ${max === Infinity ? 'the server\'s limit' : max}, not "${input.value}"`;
    error.hidden = false;
    return null;
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
      const sims = PlayView.sims($('sims'));
      if (sims === null) return;
      this.stopEvaluation();
      this.controller = new AbortController();
      const signal = this.controller.signal;
      const position = this.state.position;
      const ok = await this.request(
        () => api.reply(this.game.name, position, sims, signal),
        (answer) => {
          this.valued(position, answer.analysis);
          this.apply(answer.state, answer.move);
        },
      );
      this.controller = null;
      if (!ok) return;
    }
  }

  /** Takes back to the last turn a person plays (before that person's last move), or drops the
   * legs of the move in progress. The moves taken back leave the tree. */
  async undo() {
    this.cancel();
    if (!this.state || !this.tree) return;
    const node = this.tree.current;
    if (this.state.moving) {
      if (node.state) this.setState(node.state);
      else await this.goto(node);
      return;
    }
    for (let c = node; c.parent; c = c.parent) {
      if (!this.isModel(c.seat)) {
        const back = c.parent;
        this.tree.remove(c);
        await this.goto(back);
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
      lastBySeat: this.tree ? this.tree.lastBySeat() : new Map(),
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
    delete $('status').dataset.hint;
    $('status').dataset.seat = String(s.to_move);

    $('end-move').disabled = this.busy || !s.can_end || Boolean(s.over);
    $('model-move').disabled = this.busy || Boolean(s.over);

    this.moveList.render(this.tree, this.game.seat_names);
    $('stop-thinking').disabled = !(this.busy && this.controller);
    this.renderValues();
  }

  /** The evaluation bar and the value graph of the line. */
  renderValues() {
    if (!this.tree) return;
    const node = this.tree.current;
    this.evalBar.render(this.game, node.values, node.sims);
    const line = this.tree.line();
    this.graph.draw(
      this.game,
      line.map((n) => n.values),
      line.map((n) => n.netValues),
      'no position of this line has been searched yet',
    );
    this.graph.mark(node.ply);
  }
}
