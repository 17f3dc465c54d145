// The value graph: for each position of a line, each seat's searched value (solid) and the
// network's own (dashed), with a legend, both axes, a marker at the position shown, and a
// click that picks a position. Used by the Play view (the line being played) and the Replay
// view (a recorded game).

import { el, isLight, seatColour } from './board.js';

/** The frame, in SVG units (the element's own pixel size). */
const FRAME = { width: 460, height: 220, left: 34, right: 10, top: 22, bottom: 28 };

export class ValueGraph {
  /** A graph drawn into `svg`; `onPick(i)` is called with the position clicked. */
  constructor(svg, onPick = () => {}) {
    this.svg = svg;
    this.count = 0;
    this.marker = null;
    svg.addEventListener('click', (e) => {
      if (this.count === 0) return;
      const box = svg.getBoundingClientRect();
      const x = ((e.clientX - box.left) / box.width) * FRAME.width;
      const i = Math.round(((x - FRAME.left) / (FRAME.width - FRAME.left - FRAME.right)) * this.span());
      onPick(Math.max(0, Math.min(this.count - 1, i)));
    });
  }

  span() {
    return Math.max(1, this.count - 1);
  }

  x(i) {
    return FRAME.left + ((FRAME.width - FRAME.left - FRAME.right) * i) / this.span();
  }

  /**
   * Draws `values[i]` and `netValues[i]` (per seat, or null where unknown) for positions
   * 0..count-1 of a game of `game` (a Game of /api/info); `empty`: what to say when no
   * position has values.
   */
  draw(game, values, netValues, empty = 'no values yet') {
    const svg = this.svg;
    svg.replaceChildren();
    svg.setAttribute('viewBox', `0 0 ${FRAME.width} ${FRAME.height}`);
    this.count = Math.max(values.length, netValues.length);
    const all = [...values, ...netValues].filter(Boolean).flat();
    const lo = all.some((v) => v < 0) ? -1 : 0; // score shares are 0..1; allow -1..1 too
    const y = (v) => FRAME.top + (FRAME.height - FRAME.top - FRAME.bottom) * (1 - (v - lo) / (1 - lo));
    el('rect', {
      class: 'frame',
      x: FRAME.left,
      y: FRAME.top,
      width: FRAME.width - FRAME.left - FRAME.right,
      height: FRAME.height - FRAME.top - FRAME.bottom,
    }, svg);
    for (const v of [lo, (lo + 1) / 2, 1]) {
      el('line', { class: 'grid', x1: FRAME.left, x2: FRAME.width - FRAME.right, y1: y(v), y2: y(v) }, svg);
      const t = el('text', { class: 'axis', x: FRAME.left - 4, y: y(v) + 4, 'text-anchor': 'end' }, svg);
      t.textContent = String(v);
    }
    // Move numbers along the bottom: about five ticks.
    const moves = Math.max(0, this.count - 1);
    const every = Math.max(1, Math.ceil(moves / 5));
    for (let i = 0; i <= moves; i += every) {
      const t = el('text', { class: 'axis', x: this.x(i), y: FRAME.height - 12, 'text-anchor': 'middle' }, svg);
      t.textContent = String(i);
    }
    const label = el('text', { class: 'axis', x: FRAME.width - FRAME.right, y: FRAME.height - 1, 'text-anchor': 'end' }, svg);
    label.textContent = 'move';

    const seats = game.seats.length;
    let drawn = 0;
    for (const [series, dashed] of [[netValues, true], [values, false]]) {
      for (let seat = 0; seat < seats; seat++) {
        const points = series
          .map((vs, i) => (vs ? `${this.x(i).toFixed(1)},${y(vs[seat]).toFixed(1)}` : null))
          .filter(Boolean)
          .join(' ');
        if (!points) continue;
        drawn += 1;
        const colour = seatColour(game.name, seat);
        const cls = dashed ? 'net' : 'searched';
        // A light seat colour (Camelot's White) gets a dark halo to show on the light frame.
        if (isLight(colour)) el('polyline', { class: `${cls} halo`, points }, svg);
        el('polyline', { class: `${cls} seat-line`, points, stroke: colour, 'data-seat': String(seat) }, svg);
        // A lone point draws no line: a dot shows it.
        if (!points.includes(' ')) {
          const [cx, cy] = points.split(',');
          el('circle', { class: `${cls} seat-dot`, cx, cy, r: 3, fill: colour, 'data-seat': String(seat) }, svg);
        }
      }
    }
    this.legend(game);
    if (drawn === 0) {
      const t = el('text', { class: 'axis empty', x: FRAME.width / 2, y: FRAME.height / 2, 'text-anchor': 'middle' }, svg);
      t.textContent = empty;
    }
    this.marker = el('line', { class: 'marker', y1: FRAME.top, y2: FRAME.height - FRAME.bottom }, svg);
  }

  /** Each seat's colour and name, and which line is searched and which the network's. */
  legend(game) {
    const g = el('g', { class: 'legend' }, this.svg);
    let x = FRAME.left;
    game.seat_names.forEach((name, seat) => {
      const colour = seatColour(game.name, seat);
      el('rect', { x, y: 6, width: 10, height: 10, fill: colour, class: isLight(colour) ? 'light' : '' }, g);
      const t = el('text', { class: 'axis', x: x + 14, y: 15 }, g);
      t.textContent = name;
      x += 22 + name.length * 7;
    });
    el('line', { class: 'key searched', x1: x + 6, x2: x + 24, y1: 11, y2: 11 }, g);
    el('text', { class: 'axis', x: x + 28, y: 15 }, g).textContent = 'searched';
    el('line', { class: 'key net', x1: x + 96, x2: x + 114, y1: 11, y2: 11 }, g);
    el('text', { class: 'axis', x: x + 118, y: 15 }, g).textContent = 'network';
  }

  /** Moves the marker to position `i`. */
  mark(i) {
    if (!this.marker) return;
    const x = this.x(i).toFixed(1);
    this.marker.setAttribute('x1', x);
    this.marker.setAttribute('x2', x);
  }
}
