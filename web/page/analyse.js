// The Analyse view: the model's search of the Play view's position, streamed. Each NDJSON line
// of /api/analyse replaces the candidate table, the values and the arrows. Only one analysis
// runs at a time, and it is stopped (the stream closed, which stops the server's search) when
// the view is left or the position changes: what is shown is always of the board shown.

import * as api from './api.js';
import { Board, cellsOf } from './board.js';

const $ = (id) => document.getElementById(id);

const fmt = (v) => (v === null || v === undefined ? '–' : v.toFixed(3));

export class AnalyseView {
  /** `shared`: the page's common state (app.js): {info, bus, play}. */
  constructor(shared) {
    this.shared = shared;
    this.board = new Board($('analyse-board'));
    this.stream = null;
    this.gameName = null;
    this.active = false;
    $('analyse-start').addEventListener('click', () => this.start());
    $('analyse-stop').addEventListener('click', () => this.stop());
    // The position changed in the Play view (a leg, a reply, an undo, a load, another game).
    shared.bus.addEventListener('position', () => {
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
    this.board.render({
      pieces: s.pieces,
      selected: s.moving,
      landed: s.landed,
      last: cellsOf(s.last_move),
      arrows,
    });
    if (clear) this.clear();
  }

  clear() {
    $('simulations').textContent = '0';
    $('net-values').textContent = '';
    $('root-values').textContent = '';
    $('pv').textContent = '';
    const head = document.createElement('tr');
    for (const label of ['leg', 'visits', 'prior', ...this.game.seat_names]) {
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
    this.draw(true);
    const input = $('analyse-sims');
    let sims = Math.max(1, parseInt(input.value, 10) || 100000);
    if (input.max) sims = Math.min(sims, parseInt(input.max, 10));
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

  /** One Analysis line. */
  update(a) {
    const seats = this.game.seat_names;
    const values = (vs) => (vs ?? []).map((v, i) => `${seats[i]} ${fmt(v)}`).join('   ');
    $('simulations').textContent = String(a.simulations);
    $('net-values').textContent = values(a.net_values);
    $('root-values').textContent = values(a.root_values);
    $('pv').textContent = a.pv.join('  ');

    const total = a.candidates.reduce((n, c) => n + c.visits, 0) || 1;
    const rows = a.candidates.map((c) => {
      const tr = document.createElement('tr');
      tr.dataset.action = c.action;
      const cells = [
        c.action,
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
      .filter((c) => c.from && c.to)
      .slice(0, 3)
      .map((c, rank) => ({ from: c.from, to: c.to, rank }));
    this.draw(false, arrows);
  }
}
