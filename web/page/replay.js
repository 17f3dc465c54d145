// The Replay view: the games a run recorded (--run), stepped through move by move, with the
// value graph of the searches that chose them. The server replays each game by the rules and
// sends the position string before every move; the board draws the State of the one shown,
// which is asked for only when it is shown (and kept).

import * as api from './api.js';
import { Board, cellsOf, isLight, seatColour } from './board.js';

const $ = (id) => document.getElementById(id);
const SVG = 'http://www.w3.org/2000/svg';

function el(name, attrs = {}, parent = null) {
  const node = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (parent) parent.appendChild(node);
  return node;
}

/** A result share as people write it: 1, 0, ½, ⅓. */
function share(v) {
  if (Math.abs(v - 0.5) < 1e-3) return '½';
  if (Math.abs(v - 1 / 3) < 1e-3) return '⅓';
  return Number.isInteger(v) ? String(v) : v.toFixed(2);
}

export function resultText(result) {
  return result.map(share).join('–');
}

/** The graph's frame, in SVG units (the element's own pixel size). */
const GRAPH = { width: 460, height: 220, left: 34, right: 10, top: 10, bottom: 24 };

export class ReplayView {
  /** `shared`: the page's common state (app.js): {info, games}. */
  constructor(shared) {
    this.shared = shared;
    this.board = new Board($('replay-board'));
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
    $('replay-start').addEventListener('click', () => this.goto(0));
    $('replay-prev').addEventListener('click', () => this.goto(this.index - 1));
    $('replay-next').addEventListener('click', () => this.goto(this.index + 1));
    $('replay-end').addEventListener('click', () => this.goto(Infinity));
    document.addEventListener('keydown', (e) => this.key(e));
    $('value-graph').addEventListener('click', (e) => this.graphClick(e));
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
        ...run.collections.map((c) => new Option(`${c.id} (${c.kind})`, c.id)),
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
    const game = this.shared.games.get(this.replay.variant);
    if (game && this.gameName !== game.name) {
      this.board.setGame(game);
      this.gameName = game.name;
    }
    $('replay-info').textContent =
      `${this.replay.model} · ${resultText(this.replay.result)} (${this.replay.termination})`;
    this.drawGraph();
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
    this.moveMarker();
    if (!this.states[i]) {
      try {
        this.states[i] = await api.state(r.variant, r.positions[i]);
      } catch {
        return;
      }
    }
    if (token !== this.token) return;
    this.board.render({
      pieces: this.states[i].pieces,
      last: i > 0 ? cellsOf(r.moves[i - 1]) : [],
    });
    $('view-replay').dataset.shown = String(i);
  }

  x(i) {
    const n = Math.max(1, this.replay.positions.length - 1);
    return GRAPH.left + ((GRAPH.width - GRAPH.left - GRAPH.right) * i) / n;
  }

  /** One polyline per seat of the searched values (solid) and the network's (dashed). */
  drawGraph() {
    const svg = $('value-graph');
    svg.replaceChildren();
    svg.setAttribute('viewBox', `0 0 ${GRAPH.width} ${GRAPH.height}`);
    const r = this.replay;
    const all = [...r.values, ...r.net_values].filter(Boolean).flat();
    const lo = all.some((v) => v < 0) ? -1 : 0; // score shares are 0..1; allow -1..1 too
    const y = (v) =>
      GRAPH.top + (GRAPH.height - GRAPH.top - GRAPH.bottom) * (1 - (v - lo) / (1 - lo));
    el('rect', {
      class: 'frame',
      x: GRAPH.left,
      y: GRAPH.top,
      width: GRAPH.width - GRAPH.left - GRAPH.right,
      height: GRAPH.height - GRAPH.top - GRAPH.bottom,
    }, svg);
    for (const v of [lo, (lo + 1) / 2, 1]) {
      el('line', { class: 'grid', x1: GRAPH.left, x2: GRAPH.width - GRAPH.right, y1: y(v), y2: y(v) }, svg);
      const t = el('text', { class: 'axis', x: GRAPH.left - 4, y: y(v) + 4, 'text-anchor': 'end' }, svg);
      t.textContent = String(v);
    }
    const n = r.moves.length;
    const axis = el('text', { class: 'axis', x: GRAPH.width - GRAPH.right, y: GRAPH.height - 6, 'text-anchor': 'end' }, svg);
    axis.textContent = `${n} moves`;

    const seats = r.values.find(Boolean)?.length ?? r.net_values.find(Boolean)?.length ?? 0;
    for (const [series, dashed] of [[r.net_values, true], [r.values, false]]) {
      for (let seat = 0; seat < seats; seat++) {
        const points = series
          .map((vs, i) => (vs ? `${this.x(i).toFixed(1)},${y(vs[seat]).toFixed(1)}` : null))
          .filter(Boolean)
          .join(' ');
        if (!points) continue;
        const colour = seatColour(r.variant, seat);
        const cls = dashed ? 'net' : 'searched';
        // A light seat colour (Camelot's White) gets a dark halo to show on the light frame.
        if (isLight(colour)) el('polyline', { class: `${cls} halo`, points }, svg);
        el('polyline', {
          class: `${cls} seat-line`,
          points,
          stroke: colour,
          'data-seat': String(seat),
        }, svg);
      }
    }
    this.marker = el('line', { class: 'marker', y1: GRAPH.top, y2: GRAPH.height - GRAPH.bottom }, svg);
    this.moveMarker();
  }

  moveMarker() {
    if (!this.marker) return;
    const x = this.x(this.index).toFixed(1);
    this.marker.setAttribute('x1', x);
    this.marker.setAttribute('x2', x);
  }

  /** A click on the graph shows the move under it. */
  graphClick(e) {
    if (!this.replay) return;
    const box = $('value-graph').getBoundingClientRect();
    const x = ((e.clientX - box.left) / box.width) * GRAPH.width;
    const n = Math.max(1, this.replay.positions.length - 1);
    const i = Math.round(((x - GRAPH.left) / (GRAPH.width - GRAPH.left - GRAPH.right)) * n);
    this.goto(i);
  }
}
