// One interactive line chart of the Run view: the lines of a figure (the report's own, from
// /api/run/figures), each 95% interval as a shaded band, axes with ticks, a legend whose entries
// turn their line on and off, and on hover the values of every line shown at the nearest x.

import { el } from './board.js';

const PALETTE = ['#3a6ea5', '#c8553d', '#2e9a4b', '#8e5ea2', '#d49a2a', '#4a9fb5', '#7a6a58', '#c2417a'];
const FRAME = { width: 560, height: 250, left: 56, right: 12, top: 10, bottom: 40 };

/** About `n` round tick values spanning `lo..hi`. */
function ticks(lo, hi, n = 5) {
  const span = hi - lo || 1;
  const raw = span / n;
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * power).find((s) => s >= raw) ?? raw;
  const out = [];
  for (let v = Math.ceil(lo / step) * step; v <= hi + step * 1e-9; v += step) out.push(+v.toFixed(10));
  return out;
}

/** A number as a tick or a tooltip writes it. */
function num(v) {
  const a = Math.abs(v);
  if (a >= 1000 || Number.isInteger(v)) return String(Math.round(v));
  if (a >= 10) return v.toFixed(1);
  return v.toFixed(3);
}

export class LineChart {
  /** A chart in `container` (a <figure>); `hidden`: the keys of the lines turned off, shared
   * with the caller so that they stay off across redraws. */
  constructor(container, hidden) {
    this.container = container;
    this.hidden = hidden;
    this.lines = [];
  }

  /**
   * Draws `lines`: [{key, name, points: [[x, y]], band: [[x, lo, hi]], dashed}] under `title`
   * with axis labels; `why` is shown when there is no line. `xScale` 'log2' spaces each
   * doubling of x evenly (points at x <= 0 left out) with ticks at the powers of two.
   */
  draw({ title, xLabel, yLabel, caption, lines, why, xScale = 'linear' }) {
    this.log2 = xScale === 'log2';
    const drawable = (x) => !this.log2 || x > 0;
    this.lines = lines.map((l, i) => ({
      ...l,
      points: l.points.filter((p) => drawable(p[0])),
      band: l.band.filter((b) => drawable(b[0])),
      colour: PALETTE[(l.colourIndex ?? i) % PALETTE.length],
    }));
    const box = this.container;
    box.replaceChildren();
    const heading = document.createElement('figcaption');
    heading.className = 'chart-title';
    heading.textContent = title;
    box.append(heading);
    if (this.lines.length === 0) {
      const p = document.createElement('p');
      p.className = 'muted chart-why';
      p.textContent = why ?? 'nothing to draw yet';
      box.append(p);
      return;
    }
    this.svg = el('svg', { viewBox: `0 0 ${FRAME.width} ${FRAME.height}`, class: 'chart', role: 'img', 'aria-label': title });
    box.append(this.svg);
    this.tip = document.createElement('p');
    this.tip.className = 'chart-tip small';
    const legend = document.createElement('div');
    legend.className = 'chart-legend';
    for (const line of this.lines) {
      const b = document.createElement('button');
      b.type = 'button';
      b.className = 'legend-entry';
      b.dataset.key = line.key;
      b.setAttribute('aria-pressed', String(!this.hidden.has(line.key)));
      const swatch = document.createElement('span');
      swatch.className = `swatch${line.dashed ? ' dashed' : ''}`;
      swatch.style.borderColor = line.colour;
      b.append(swatch, line.name);
      b.addEventListener('click', () => {
        if (this.hidden.has(line.key)) this.hidden.delete(line.key);
        else this.hidden.add(line.key);
        b.setAttribute('aria-pressed', String(!this.hidden.has(line.key)));
        this.plot(xLabel, yLabel);
      });
      legend.append(b);
    }
    box.append(legend, this.tip);
    if (caption) {
      const p = document.createElement('p');
      p.className = 'muted small';
      p.textContent = caption;
      box.append(p);
    }
    this.plot(xLabel, yLabel);
    this.svg.addEventListener('mousemove', (e) => {
      this.pointer = e.clientX;
      this.hover(e);
    });
    this.svg.addEventListener('mouseleave', () => {
      this.pointer = null;
      this.tip.textContent = '';
      this.cursor?.setAttribute('visibility', 'hidden');
    });
    // Redrawn under a resting mouse (the run moved on): the values under it again.
    if (this.pointer !== null && this.pointer !== undefined) this.hover({ clientX: this.pointer });
  }

  /** The lines turned on. */
  shown() {
    return this.lines.filter((l) => !this.hidden.has(l.key));
  }

  /** Draws the axes and the lines turned on. */
  plot(xLabel, yLabel) {
    const svg = this.svg;
    svg.replaceChildren();
    const shown = this.shown();
    // Positions along x: log2 of the value on a log axis.
    const fx = this.log2 ? Math.log2 : (x) => x;
    this.fx = fx;
    const xs = shown.flatMap((l) => [...l.points.map((p) => fx(p[0])), ...l.band.map((b) => fx(b[0]))]);
    const ys = shown.flatMap((l) => [...l.points.map((p) => p[1]), ...l.band.flatMap((b) => [b[1], b[2]])]);
    let [x0, x1] = xs.length ? [Math.min(...xs), Math.max(...xs)] : [0, 1];
    let [y0, y1] = ys.length ? [Math.min(...ys), Math.max(...ys)] : [0, 1];
    if (x0 === x1) [x0, x1] = [x0 - 1, x1 + 1];
    const pad = (y1 - y0) * 0.05 || 1;
    [y0, y1] = [y0 - pad, y1 + pad];
    const w = FRAME.width - FRAME.left - FRAME.right;
    const h = FRAME.height - FRAME.top - FRAME.bottom;
    this.sx = (x) => FRAME.left + ((fx(x) - x0) / (x1 - x0)) * w;
    this.sy = (y) => FRAME.top + (1 - (y - y0) / (y1 - y0)) * h;
    this.xRange = [x0, x1];
    el('rect', { class: 'frame', x: FRAME.left, y: FRAME.top, width: w, height: h }, svg);
    for (const v of ticks(y0, y1)) {
      el('line', { class: 'grid', x1: FRAME.left, x2: FRAME.left + w, y1: this.sy(v), y2: this.sy(v) }, svg);
      el('text', { class: 'axis', x: FRAME.left - 4, y: this.sy(v) + 4, 'text-anchor': 'end' }, svg).textContent = num(v);
    }
    // A log axis: the powers of two in range (every one, or every second, ... when crowded).
    const whole = [];
    for (let v = Math.ceil(x0); v <= x1; v += 1) whole.push(v);
    const xTicks = this.log2
      ? whole.filter((_, i) => i % Math.ceil(whole.length / 8) === 0).map((v) => 2 ** v)
      : ticks(x0, x1);
    for (const v of xTicks) {
      el('text', { class: 'axis', x: this.sx(v), y: FRAME.top + h + 14, 'text-anchor': 'middle' }, svg).textContent = num(v);
    }
    el('text', { class: 'axis label', x: FRAME.left + w / 2, y: FRAME.height - 6, 'text-anchor': 'middle' }, svg).textContent = xLabel;
    el('text', { class: 'axis label', x: 12, y: FRAME.top + h / 2, 'text-anchor': 'middle', transform: `rotate(-90 12 ${FRAME.top + h / 2})` }, svg).textContent = yLabel;
    for (const line of shown) {
      if (line.band.length) {
        const upper = line.band.map((b) => `${this.sx(b[0]).toFixed(1)},${this.sy(b[2]).toFixed(1)}`);
        const lower = line.band.map((b) => `${this.sx(b[0]).toFixed(1)},${this.sy(b[1]).toFixed(1)}`).reverse();
        el('polygon', { class: 'band', points: [...upper, ...lower].join(' '), fill: line.colour, 'data-key': line.key }, svg);
      }
      const points = line.points.map((p) => `${this.sx(p[0]).toFixed(1)},${this.sy(p[1]).toFixed(1)}`).join(' ');
      el('polyline', { class: `line${line.dashed ? ' dashed' : ''}`, points, stroke: line.colour, 'data-key': line.key }, svg);
      if (line.points.length <= 60) {
        for (const p of line.points) el('circle', { class: 'point', cx: this.sx(p[0]), cy: this.sy(p[1]), r: 2.2, fill: line.colour }, svg);
      }
    }
    this.cursor = el('line', { class: 'cursor', y1: FRAME.top, y2: FRAME.top + h, visibility: 'hidden' }, svg);
  }

  /** The values of every line shown at the x nearest the mouse. */
  hover(e) {
    const shown = this.shown();
    if (!shown.length || !this.sx) return;
    const box = this.svg.getBoundingClientRect();
    const px = ((e.clientX - box.left) / box.width) * FRAME.width;
    const [x0, x1] = this.xRange;
    const x = x0 + ((px - FRAME.left) / (FRAME.width - FRAME.left - FRAME.right)) * (x1 - x0);
    const all = shown.flatMap((l) => l.points.map((p) => p[0]));
    const away = (v) => Math.abs(this.fx(v) - x);
    const nearest = all.reduce((a, b) => (away(b) < away(a) ? b : a), all[0]);
    this.cursor.setAttribute('x1', this.sx(nearest));
    this.cursor.setAttribute('x2', this.sx(nearest));
    this.cursor.setAttribute('visibility', 'visible');
    const parts = [];
    for (const line of shown) {
      const p = line.points.find((q) => q[0] === nearest);
      if (!p) continue;
      const b = line.band.find((q) => q[0] === nearest);
      parts.push(`${line.name}: ${num(p[1])}${b ? ` [${num(b[1])}, ${num(b[2])}]` : ''}`);
    }
    this.tip.textContent = `${num(nearest)} · ${parts.join(' · ')}`;
  }
}
