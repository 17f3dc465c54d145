// The boards as SVG, built from /api/info's cells (nothing about either board is hard-coded
// here but how a cell's file and rank become a point): Camelot's squares and Tri-Camelot's
// flat-topped hexagons in doubled coordinates. The board only draws and reports clicks on cells;
// which cells are highlighted, and what a click means, is the views' business.

const SVG = 'http://www.w3.org/2000/svg';

/** Seat colours, by game: Camelot White, Black; Tri-Camelot Blue, Red, Green. */
const SEAT_COLOURS = {
  camelot: ['#f7f4ec', '#28241f'],
  tricamelot: ['#2f6fd0', '#cf3f32', '#2e9a4b'],
};

/** The colour of `seat` in `game` (a game name). */
export function seatColour(game, seat) {
  const colours = SEAT_COLOURS[game] ?? SEAT_COLOURS.tricamelot;
  return colours[seat % colours.length];
}

/** Whether a seat's colour is too light for a line on a light background. */
export function isLight(colour) {
  const n = parseInt(colour.slice(1), 16);
  const [r, g, b] = [(n >> 16) & 255, (n >> 8) & 255, n & 255];
  return 0.299 * r + 0.587 * g + 0.114 * b > 200;
}

/** The cells a move's official notation names ("F6-F8xF10xF12" → F6, F8, F10, F12). */
export function cellsOf(move) {
  return move ? move.match(/[A-Z][0-9]+/g) ?? [] : [];
}

/** A new SVG element `name` with `attrs`, appended to `parent` when given (the boards', the value
 * graph's and the run charts' one way to make SVG). */
export function el(name, attrs = {}, parent = null) {
  const node = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (parent) parent.appendChild(node);
  return node;
}

/** Square side (Camelot) and hexagon circumradius (Tri-Camelot), in SVG units. */
const SQUARE = 40;
const HEX = 25;

/** Gives every board's arrowhead marker its own id (ids are global to the document). */
let boards = 0;

export class Board {
  /** A board drawn into `container`; `onCell(name)` is called when a cell is clicked. */
  constructor(container, onCell = () => {}) {
    this.container = container;
    this.onCell = onCell;
    this.id = ++boards;
    this.game = null;
    this.flipped = false;
    this.lastView = null;
  }

  /** Turns the board half a turn (or back) and draws what it showed. */
  setFlipped(flipped) {
    if (flipped === this.flipped) return;
    this.flipped = flipped;
    if (!this.game) return;
    const view = this.lastView;
    this.setGame(this.game);
    if (view) this.render(view);
  }

  /** Builds the cells of `game` (a Game of /api/info); pieces come with `render`. */
  setGame(game) {
    this.game = game;
    this.container.replaceChildren();
    const hex = game.board === 'hex';
    // Where each cell's centre lies; y grows downwards, so rank 1 (White's, Blue's side) is at
    // the bottom.
    // Flipped, the board turns half a turn: the last seat's side at the bottom.
    const turn = this.flipped ? -1 : 1;
    const centre = hex
      ? (c) => [turn * c.file * 1.5 * HEX, -turn * c.rank * (Math.sqrt(3) / 2) * HEX]
      : (c) => [turn * c.file * SQUARE, -turn * c.rank * SQUARE];
    this.unit = hex ? HEX : SQUARE / 2; // the distance from a centre to a cell's edge, about
    const [halfW, halfH] = hex ? [HEX, (Math.sqrt(3) / 2) * HEX] : [SQUARE / 2, SQUARE / 2];
    this.centres = new Map(game.cells.map((c) => [c.name, centre(c)]));

    const xs = [...this.centres.values()].map((p) => p[0]);
    const ys = [...this.centres.values()].map((p) => p[1]);
    const margin = hex ? 6 : 24; // room for the file letters and rank numbers
    const minX = Math.min(...xs) - halfW - margin;
    const minY = Math.min(...ys) - halfH - 6;
    const width = Math.max(...xs) + halfW + 6 - minX;
    const height = Math.max(...ys) + halfH + margin - minY;
    const svg = el('svg', {
      viewBox: `${minX} ${minY} ${width} ${height}`,
      class: `board-svg ${game.board}`,
      'data-game': game.name,
      'data-flipped': String(this.flipped),
    });
    this.svg = svg;

    const defs = el('defs', {}, svg);
    const marker = el('marker', {
      id: `arrowhead-${this.id}`,
      viewBox: '0 0 10 10',
      refX: '6',
      refY: '5',
      markerWidth: '4',
      markerHeight: '4',
      orient: 'auto-start-reverse',
    }, defs);
    el('path', { d: 'M 0 0 L 10 5 L 0 10 z', class: 'arrowhead' }, marker);

    const cellLayer = el('g', { class: 'cells' }, svg);
    this.cells = new Map();
    const hexPoints = Array.from({ length: 6 }, (_, i) => {
      const a = (Math.PI / 3) * i;
      return `${(HEX * Math.cos(a)).toFixed(2)},${(HEX * Math.sin(a)).toFixed(2)}`;
    }).join(' ');
    for (const c of game.cells) {
      const [x, y] = this.centres.get(c.name);
      const g = el('g', { class: 'cell', 'data-cell': c.name, transform: `translate(${x} ${y})` }, cellLayer);
      // Alternating tones: by file + rank on squares, by rank mod 3 on hexes (a hex's six
      // neighbours differ from it by 1 or 2 ranks, so they never share its tone).
      const tone = hex ? ((c.rank % 3) + 3) % 3 : (c.file + c.rank) % 2;
      const shape = hex
        ? el('polygon', { points: hexPoints }, g)
        : el('rect', { x: -halfW, y: -halfH, width: 2 * halfW, height: 2 * halfH }, g);
      shape.setAttribute('class', `shape tone-${tone}`);
      if (c.castle !== null && c.castle !== undefined) {
        g.classList.add('castle');
        g.dataset.castle = String(c.castle);
        shape.style.fill = seatColour(game.name, c.castle);
        // An inner outline says "castle" even where the fill is close to the board's tone.
        const inset = hex
          ? el('polygon', { points: hexPoints, transform: 'scale(0.78)' }, g)
          : el('rect', { x: -halfW + 4, y: -halfH + 4, width: 2 * halfW - 8, height: 2 * halfH - 8 }, g);
        inset.setAttribute('class', 'castle-mark');
      }
      // The highlight overlay (selected, landed, last) and the target dot, styled by the
      // cell's classes.
      const overlay = hex
        ? el('polygon', { points: hexPoints }, g)
        : el('rect', { x: -halfW, y: -halfH, width: 2 * halfW, height: 2 * halfH }, g);
      overlay.setAttribute('class', 'hl');
      el('circle', { class: 'dot', r: this.unit * 0.28 }, g);
      if (hex) {
        const name = el('text', { class: 'name', y: HEX * 0.62 }, g);
        name.textContent = c.name;
      }
      this.cells.set(c.name, g);
    }

    if (!hex) this.drawLabels(game.cells, svg, halfW);
    this.pieceLayer = el('g', { class: 'pieces' }, svg);
    this.arrowLayer = el('g', { class: 'arrows' }, svg);
    svg.addEventListener('click', (e) => {
      const g = e.target.closest('g.cell');
      if (g && svg.contains(g)) this.onCell(g.dataset.cell);
    });
    this.container.appendChild(svg);
  }

  /** File letters under the board and rank numbers left of it (Camelot), where the cells of
   * that file and rank are drawn (the board may be flipped). */
  drawLabels(cells, svg, half) {
    const layer = el('g', { class: 'labels' }, svg);
    const fileX = new Map();
    const rankY = new Map();
    for (const c of cells) {
      const [x, y] = this.centres.get(c.name);
      fileX.set(c.name.replace(/[0-9]+$/, ''), x);
      rankY.set(String(c.rank), y);
    }
    const ys = [...this.centres.values()].map((p) => p[1]);
    const xs = [...this.centres.values()].map((p) => p[0]);
    const bottom = Math.max(...ys) + half + 15;
    const left = Math.min(...xs) - half - 12;
    for (const [letter, x] of fileX) {
      const t = el('text', { x, y: bottom }, layer);
      t.textContent = letter;
    }
    for (const [label, y] of rankY) {
      const t = el('text', { x: left, y: y + 4 }, layer);
      t.textContent = label;
    }
  }

  /**
   * Draws `view`: {pieces: State.pieces, selected: cell or null, targets, landed, last,
   * movable: iterables of cell names, lastBySeat: Map seat → a move's notation (each seat's
   * last move, marked in its colour), arrows: [{from, to, rank, label}] (rank 0 is the best;
   * `label`, when given, is written along the arrow)}.
   */
  render(view) {
    if (!this.game) return;
    this.lastView = view;
    // Each seat's last move: its cells, the latest seat's mark on top where two meet.
    const lastSeat = new Map();
    for (const [seat, move] of view.lastBySeat ?? []) {
      for (const cell of move.match(/[A-Z][0-9]+/g) ?? []) lastSeat.set(cell, seat);
    }
    const sets = {
      selected: new Set(view.selected ? [view.selected] : []),
      target: new Set(view.targets ?? []),
      landed: new Set(view.landed ?? []),
      last: new Set([...(view.last ?? []), ...lastSeat.keys()]),
      movable: new Set(view.movable ?? []),
    };
    for (const [name, g] of this.cells) {
      for (const [cls, set] of Object.entries(sets)) g.classList.toggle(cls, set.has(name));
      if (lastSeat.has(name)) g.dataset.lastSeat = String(lastSeat.get(name));
      else delete g.dataset.lastSeat;
    }

    this.pieceLayer.replaceChildren();
    for (const p of view.pieces ?? []) {
      const at = this.centres.get(p.cell);
      if (!at) continue;
      const colour = seatColour(this.game.name, p.seat);
      const g = el('g', {
        class: `piece ${p.kind}${sets.selected.has(p.cell) ? ' selected' : ''}`,
        'data-cell': p.cell,
        'data-seat': String(p.seat),
        'data-kind': p.kind,
        transform: `translate(${at[0]} ${at[1]})`,
        'pointer-events': 'none',
      }, this.pieceLayer);
      const contrast = isLight(colour) ? '#3b3631' : '#f4f1ea';
      const r = this.unit * (this.game.board === 'hex' ? 0.6 : 0.74);
      el('circle', { class: 'disc', r, fill: colour, stroke: isLight(colour) ? '#5a544c' : '#8a8378' }, g);
      if (p.kind === 'knight') {
        // A Knight: an inner ring and a K, so it reads apart from a Man at any size.
        el('circle', { class: 'ring', r: r * 0.7, fill: 'none', stroke: contrast }, g);
        const k = el('text', { class: 'glyph', y: r * 0.36, fill: contrast, 'font-size': r * 1.0 }, g);
        k.textContent = 'K';
      }
    }

    this.arrowLayer.replaceChildren();
    for (const a of view.arrows ?? []) {
      const from = this.centres.get(a.from);
      const to = this.centres.get(a.to);
      if (!from || !to) continue;
      // Stop short of the landing cell's centre so the head does not hide the piece there.
      const [dx, dy] = [to[0] - from[0], to[1] - from[1]];
      const len = Math.hypot(dx, dy) || 1;
      const short = this.unit * 0.45;
      el('line', {
        class: `arrow arrow-${a.rank}`,
        x1: from[0],
        y1: from[1],
        x2: to[0] - (dx / len) * short,
        y2: to[1] - (dy / len) * short,
        'marker-end': `url(#arrowhead-${this.id})`,
        'data-from': a.from,
        'data-to': a.to,
        'pointer-events': 'none',
      }, this.arrowLayer);
      if (a.label) {
        // Written across the arrow's middle, on a plate so that it reads over the pieces.
        const [mx, my] = [from[0] + dx * 0.5, from[1] + dy * 0.5];
        const g = el('g', { class: `arrow-label arrow-label-${a.rank}`, transform: `translate(${mx} ${my})`, 'data-from': a.from, 'data-to': a.to, 'pointer-events': 'none' }, this.arrowLayer);
        const width = a.label.length * this.unit * 0.34 + 4;
        el('rect', { x: -width / 2, y: -this.unit * 0.36, width, height: this.unit * 0.72, rx: 3 }, g);
        const t = el('text', { y: this.unit * 0.2, 'font-size': this.unit * 0.55 }, g);
        t.textContent = a.label;
      }
    }
  }
}
