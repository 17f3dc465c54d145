// The live run page in a real browser: `serve --run <a run that is training> --compare <a
// finished run>`; the Run view's charts (the report's figures) update while the run trains, a
// new generation appearing without a reload; the Elo chart's interval is a band; a legend
// entry turns its line off and on; hovering a chart gives its values; the compared run is drawn
// over it, dashed; the compute chart spaces doublings of core-minutes evenly.
//
// A plain node script: BOARD_URL=http://127.0.0.1:PORT [OUT=dir] node run.test.mjs
// (scripts/test_browser.sh starts the run and the server, and runs it after the board tests).

import path from 'node:path';
import { BASE, OUT, assert, assertNoError, runBrowser, step } from './helpers.mjs';

const generations = (page) => page.$eval('#view-run', (v) => parseInt(v.dataset.generations ?? '-1', 10));

await runBrowser(async (page) => {
  await page.goto(`${BASE}/`);
  await page.waitForSelector('body[data-ready="1"]');

  let first = -1;
  await step('the Run view charts the run and the one compared with it', async () => {
    await page.click('#tab-run');
    await page.waitForSelector('#view-run:not([hidden])');
    await page.waitForFunction(() => document.querySelector('#view-run').dataset.generations !== undefined);
    first = await generations(page);
    assert((await page.textContent('#run-status')).includes('generations'), 'the status names the generations');
    await page.waitForSelector('#chart-elo svg.chart');
    const bands = await page.$$eval('#chart-elo polygon.band', (ps) => ps.length);
    assert(bands >= 1, `the Elo chart draws ${bands} bands`);
    for (const stem of ['losses', 'speed', 'pace', 'probe']) {
      assert(await page.$(`#chart-${stem}`), `a ${stem} chart`);
    }
    const dashed = await page.$$eval('#chart-losses polyline.line.dashed', (ls) => ls.length);
    assert(dashed >= 1, 'the compared run\'s losses are drawn dashed');
    // Strength against compute (the compared run's curve.csv) on a log axis: ticks at the
    // powers of two, and 10 → 20 → 40 core-minutes evenly spaced.
    await page.waitForSelector('#chart-compute svg.chart');
    const ticks = await page.$$eval('#chart-compute text.axis:not(.label)', (ts) => ts.map((t) => t.textContent));
    for (const t of ['16', '32']) assert(ticks.includes(t), `a ${t} tick on the compute chart: ${ticks}`);
    const xs = await page.$$eval('#chart-compute circle.point', (cs) => cs.map((c) => +c.getAttribute('cx')));
    assert(xs.length >= 3 && Math.abs((xs[1] - xs[0]) - (xs[2] - xs[1])) < 1.5, `doublings evenly spaced: ${xs}`);
  });

  await step('a new generation appears without a reload', async () => {
    await page.waitForFunction((g) => parseInt(document.querySelector('#view-run').dataset.generations, 10) > g, first, { timeout: 120000 });
    const now = await generations(page);
    assert(now > first, `generations went from ${first} to ${now}`);
    const points = await page.$eval('#chart-pace polyline.line:not(.dashed)', (l) => l.getAttribute('points').trim().split(/\s+/).length);
    assert(points === now, `the pace chart has ${points} models saved, the run ${now}`);
    await page.screenshot({ path: path.join(OUT, 'run.png'), fullPage: true });
  });

  await step('legend entries turn lines off and on; hover gives the values', async () => {
    const count = () => page.$$eval('#chart-losses polyline.line', (ls) => ls.length);
    const before = await count();
    const entry = '#chart-losses .legend-entry >> nth=0';
    await page.click(entry);
    assert((await count()) === before - 1, 'a line turned off');
    assert(await page.getAttribute(entry, 'aria-pressed') === 'false', 'its entry says off');
    // It stays off when the charts are read again.
    await page.waitForTimeout(2500);
    assert((await count()) === before - 1, 'still off after a refresh');
    await page.click(entry);
    assert((await count()) === before, 'the line is back');
    // Over the chart (scrolled into view), at 60% of its width.
    const size = await page.$eval('#chart-pace svg.chart', (s) => [s.clientWidth, s.clientHeight]);
    await page.hover('#chart-pace svg.chart', { position: { x: size[0] * 0.6, y: size[1] * 0.4 } });
    await page.waitForFunction(() => document.querySelector('#chart-pace .chart-tip').textContent.includes('models saved'));
    await assertNoError(page, 'on the Run view');
  });
});
