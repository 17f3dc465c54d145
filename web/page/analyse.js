// The Analyse view: the model's search of the Play view's position, streamed. Each NDJSON line
// of /api/analyse replaces the candidate table, the values, the evaluation bar and the arrows
// (visits and the mover's value written on each). Only one analysis runs at a time, and it is
// stopped (the stream closed, which stops the server's search) when the view is left or the
// position changes: what is shown is always of the board shown. Hovering a move of the
// principal variation shows the position it leads to; the Play view keeps the values found.

import * as api from './api.js';
import { Board, cellsOf } from './board.js';
import { EvalBar } from './evalbar.js';
import { PlayView } from './play.js';

const $ = (id) => document.getElementById(id);

const fmt = (v) => (v === null || v === undefined ? '–' : v.toFixed(3));

export class AnalyseView {
  /** `shared`: the page's common state (app.js): {info, bus, play}. */
  constructor(shared) {
    this.shared = shared;
    this.board = new Board($('analyse-board'));
    this.evalBar = new EvalBar($('analyse-eval'));
    this.stream = null;
    this.last = null; // the latest Analysis line, and the position it is of
    this.position = null;
    this.hovered = null; // the principal variation's move being previewed
    this.previews = new Map(); // "position|moves" → the State they lead to
    this.gameName = null;
    this.active = false;
    $('analyse-start').addEventListener('click', () => this.start());
    $('analyse-stop').addEventListener('click', () => this.stop());
    $('analyse-all').addEventListener('change', () => {
      if (this.last) this.update(this.last);
    });
    $('pv').addEventListener('mouseover', (e) => {
      const span = e.target.closest('.pv-move');
      if (span && span.dataset.index !== undefined) this.preview(parseInt(span.dataset.index, 10));
    });
    $('pv').addEventListener('mouseleave', () => this.endPreview());
    // The position changed in the Play view (a leg, a reply, an undo, a load, another game).
    shared.bus.addEventListener('position', () => {
      this.endPreview();
      this.stop();
      if (this.active) this.draw(true);
    });
    const max = shared.info.max_sims;
    if (Number.isInteger(max)) {
      const input = $('analyse-sims');
      input.max = String(max);
      if (parseInt(input.value, 10) > max) input.value = String(max);
    }
  }

  get state() {
    return this.shared.play.state;
  }

  get game() {
    return this.shared.play.game;
  }

  /** The view is shown: the Play view's position on the board. */
  show() {
    this.active = true;
    this.draw(true);
  }

  /** The view is left: no analysis goes on unseen. */
  hide() {
    this.active = false;
    this.stop();
  }

  /** Draws the position (with `arrows`); `clear`: the previous analysis is forgotten. */
  draw(clear, arrows = []) {
    const s = this.state;
    if (!s) return;
    if (this.gameName !== this.game.name) {
      this.board.setGame(this.game);
      this.gameName = this.game.name;
    }
    this.arrows = arrows;
    if (this.hovered !== null) return; // a preview is shown; the position comes back after it
    this.board.render({
      pieces: s.pieces,
      selected: s.moving,
      landed: s.landed,
      lastBySeat: this.shared.play.tree?.lastBySeat() ?? new Map(),
      arrows,
    });
    if (clear) this.clear();
  }

  clear() {
    this.last = null;
    const node = this.shared.play.tree?.current;
    this.evalBar.render(this.game, node && !this.state?.moving ? node.values : null, node?.sims);
    $('simulations').textContent = '0';
    $('net-values').textContent = '';
    $('root-values').textContent = '';
    $('pv').textContent = '';
    const head = document.createElement('tr');
    for (const label of ['move', 'visits', 'prior', ...this.game.seat_names]) {
      const th = document.createElement('th');
      th.textContent = label;
      head.append(th);
    }
    $('candidates').tHead.replaceChildren(head);
    $('candidates').tBodies[0].replaceChildren();
  }

  start() {
    this.stop();
    const s = this.state;
    if (!s) return;
    this.endPreview();
    this.draw(true);
    this.position = s.position;
    const sims = PlayView.sims($('analyse-sims'));
    if (sims === null) return;
    const stream = api.analyse(this.game.name, s.position, sims, (a) => {
      if (this.stream === stream) this.update(a);
    });
    this.stream = stream;
    this.buttons();
    const finished = () => {
      if (this.stream === stream) {
        this.stream = null;
        this.buttons();
      }
    };
    stream.done.then(finished, finished); // a refusal is already shown by app.js
  }

  stop() {
    if (this.stream) {
      this.stream.abort();
      this.stream = null;
    }
    this.buttons();
  }

  buttons() {
    $('analyse-start').disabled = Boolean(this.stream);
    $('analyse-stop').disabled = !this.stream;
    $('view-analyse').dataset.running = this.stream ? '1' : '0';
  }

  /** A candidate's leg in the notation of moves: `E4-C6`, a jump `E4xC6`, or `end`. */
  notation(c) {
    if (!c.from || !c.to) return c.action;
    const leg = this.state?.legs.find((l) => l.action === c.action);
    return `${c.from}${leg?.capture ? 'x' : '-'}${c.to}`;
  }

  /** One Analysis line. */
  update(a) {
    this.last = a;
    const seats = this.game.seat_names;
    const mover = this.state.to_move;
    const values = (vs) => (vs ?? []).map((v, i) => `${seats[i]} ${fmt(v)}`).join('   ');
    $('simulations').textContent = String(a.simulations);
    $('net-values').textContent = values(a.net_values);
    $('root-values').textContent = values(a.root_values);
    this.evalBar.render(this.game, a.root_values, a.simulations);
    if (!this.state.moving) this.shared.play.valued(this.position, a);
    this.drawPv(a.pv);

    // Unvisited legs only on request: at a start position they are most of the list.
    const all = $('analyse-all').checked;
    const shown = a.candidates.filter((c) => all || c.visits > 0);
    const hidden = a.candidates.length - shown.length;
    $('analyse-hidden').textContent = hidden ? `${hidden} unvisited legs not listed` : '';
    const total = a.candidates.reduce((n, c) => n + c.visits, 0) || 1;
    const rows = shown.map((c) => {
      const tr = document.createElement('tr');
      tr.dataset.action = c.action;
      const cells = [
        this.notation(c),
        String(c.visits),
        fmt(c.prior),
        ...seats.map((_, i) => fmt(c.values ? c.values[i] : null)),
      ];
      for (const text of cells) {
        const td = document.createElement('td');
        td.textContent = text;
        tr.append(td);
      }
      // The share of visits, as a bar behind the row.
      tr.style.setProperty('--share', `${((100 * c.visits) / total).toFixed(1)}%`);
      return tr;
    });
    $('candidates').tBodies[0].replaceChildren(...rows);

    const arrows = a.candidates
      .filter((c) => c.from && c.to && c.visits > 0)
      .slice(0, 3)
      .map((c, rank) => ({
        from: c.from,
        to: c.to,
        rank,
        label: `${c.visits}${c.values ? ` · ${c.values[mover].toFixed(2)}` : ''}`,
      }));
    this.draw(false, arrows);
  }

  /** The principal variation, one span a move (hovered: its position on the board). */
  drawPv(pv) {
    const box = $('pv');
    const same = box.children.length === pv.length && pv.every((m, i) => box.children[i].textContent === m);
    if (same) return;
    box.replaceChildren(
      ...pv.map((m, i) => {
        const span = document.createElement('span');
        span.className = 'pv-move';
        span.textContent = m;
        // A move still in progress at the end ("(F6>F8 ...)") leads to no position.
        if (!m.startsWith('(')) span.dataset.index = String(i);
        return span;
      }),
    );
  }

  /** Shows the position after the principal variation's first `k + 1` moves. */
  async preview(k) {
    const s = this.state;
    const pv = this.last?.pv;
    if (!s || !pv || k >= pv.length) return;
    this.hovered = k;
    const moves = pv.slice(0, k + 1);
    const key = `${s.position}|${moves.join(' ')}`;
    let state = this.previews.get(key);
    if (!state) {
      try {
        const line = await api.line(this.game.name, s.position, moves);
        state = await api.state(this.game.name, line.positions[k + 1]);
      } catch {
        return; // shown in #error
      }
      this.previews.set(key, state);
    }
    if (this.hovered !== k || this.state !== s) return;
    for (const span of $('pv').children) span.classList.toggle('previewed', span.dataset.index === String(k));
    this.board.render({ pieces: state.pieces, last: cellsOf(pv[k]) });
    $('view-analyse').dataset.preview = String(k);
    $('analyse-preview').textContent = `after ${moves.join('  ')}`;
  }

  /** Back to the analysed position. */
  endPreview() {
    if (this.hovered === null) return;
    this.hovered = null;
    delete $('view-analyse').dataset.preview;
    $('analyse-preview').textContent = '';
    for (const span of $('pv').children) span.classList.remove('previewed');
    this.draw(false, this.arrows ?? []);
  }
}
