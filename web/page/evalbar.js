// The evaluation bar beside a board: each seat's expected score share of the position shown, as
// stacked segments in the seats' colours (the first seat at the bottom, as it sits on the board),
// grey with "?" until a search has valued the position.

import { isLight, seatColour } from './board.js';

export class EvalBar {
  constructor(container) {
    this.container = container;
    this.container.classList.add('eval-bar');
  }

  /**
   * Shows `values` (per seat, or null when unknown) of a position of `game` (a Game of
   * /api/info); `sims`: the simulations behind them, for the tooltip.
   */
  render(game, values, sims = 0) {
    const bar = this.container;
    bar.replaceChildren();
    if (!values || !game) {
      bar.dataset.values = '';
      bar.title = 'not valued yet';
      const unknown = document.createElement('div');
      unknown.className = 'eval-unknown';
      unknown.textContent = '?';
      bar.append(unknown);
      return;
    }
    // Score shares sum to 1; a -1..1 value is mapped onto 0..1 first.
    const shares = values.map((v) => (values.some((x) => x < 0) ? (v + 1) / 2 : v));
    const total = shares.reduce((a, b) => a + b, 0) || 1;
    bar.dataset.values = values.map((v) => v.toFixed(3)).join(',');
    bar.title =
      game.seat_names.map((name, i) => `${name} ${(shares[i] / total).toFixed(3)}`).join(', ') +
      (sims ? ` (${sims} simulations)` : '');
    // The first seat's segment last: the column stacks from the top, so it ends at the bottom.
    for (let seat = shares.length - 1; seat >= 0; seat--) {
      const segment = document.createElement('div');
      const colour = seatColour(game.name, seat);
      segment.className = 'eval-seg';
      segment.dataset.seat = String(seat);
      segment.style.height = `${((100 * shares[seat]) / total).toFixed(1)}%`;
      segment.style.background = colour;
      segment.style.color = isLight(colour) ? '#28241f' : '#f7f4ec';
      const share = shares[seat] / total;
      if (share >= 0.12) segment.textContent = (100 * share).toFixed(0);
      bar.append(segment);
    }
  }
}
