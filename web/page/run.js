// The Run view: the served run's charts (Elo with its interval as a band, losses, the value
// probe, self-play speed, generations over time, ...: the report's figures, from
// /api/run/figures), read again every few seconds while the view is shown, so that a run that
// trains is followed without a reload. Runs given with `serve --compare` are drawn over it,
// dashed. A line turned off in a legend stays off across updates.

import * as api from './api.js';
import { LineChart } from './chart.js';

const $ = (id) => document.getElementById(id);

/** How often the charts are read again while the view is shown. */
export const REFRESH_MS = 2000;

export class RunView {
  /** `shared`: the page's common state (app.js): {info}. */
  constructor(shared) {
    this.shared = shared;
    this.timer = null;
    this.charts = new Map(); // stem → LineChart
    this.hidden = new Set(); // keys of the lines turned off
    this.last = null; // the JSON last drawn, to redraw only on a change
    $('run-none').hidden = Boolean(shared.info.run);
  }

  show() {
    if (!this.shared.info.run) return;
    this.refresh();
    this.timer = setInterval(() => this.refresh(), REFRESH_MS);
  }

  hide() {
    clearInterval(this.timer);
    this.timer = null;
  }

  async refresh() {
    let answer;
    try {
      answer = await api.runFigures();
    } catch {
      return; // shown in #error; tried again at the next refresh
    }
    const text = JSON.stringify(answer);
    const [main] = answer.runs;
    $('run-status').textContent =
      `${main.name}: ${main.generations} generations` +
      (answer.runs.length > 1 ? ` (over it, dashed: ${answer.runs.slice(1).map((r) => `${r.name}, ${r.generations}`).join('; ')})` : '') +
      ` · read ${new Date().toLocaleTimeString()}`;
    $('view-run').dataset.generations = String(main.generations);
    if (text === this.last) return;
    this.last = text;
    this.draw(answer.runs);
  }

  /** One chart per figure of the served run, each with the compared runs' lines over it. */
  draw(runs) {
    const box = $('run-charts');
    const several = runs.length > 1;
    for (const figure of runs[0].figures) {
      let chart = this.charts.get(figure.stem);
      if (!chart) {
        const node = document.createElement('figure');
        node.id = `chart-${figure.stem}`;
        node.className = 'run-chart';
        box.append(node);
        chart = new LineChart(node, this.hidden);
        this.charts.set(figure.stem, chart);
      }
      const lines = [];
      runs.forEach((run, r) => {
        const same = run.figures.find((f) => f.stem === figure.stem);
        (same?.series ?? []).forEach((s, i) => {
          lines.push({
            key: `${r}|${s.name}`,
            name: several ? `${run.name}: ${s.name}` : s.name,
            // A number JSON cannot hold (an infinite Elo bound) comes as null: not drawn.
            points: s.points.filter((p) => p.every(Number.isFinite)),
            band: s.band.filter((b) => b.every(Number.isFinite)),
            dashed: r > 0,
            colourIndex: i,
          });
        });
      });
      chart.draw({
        title: figure.title,
        xLabel: figure.x_label,
        yLabel: figure.y_label,
        xScale: figure.x_scale,
        caption: figure.caption,
        lines,
        why: figure.why,
      });
    }
  }
}
