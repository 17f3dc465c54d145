// What the browser tests of the board page share (board.test.mjs, analysis.test.mjs): the
// server's address, requests to it from the test itself, what the page shows read back, and
// the step and failure reporting. Environment: BOARD_URL (the URL `camelot-zero serve`
// printed), OUT (a folder for screenshots), CHROMIUM (the browser, /usr/bin/chromium).

import { mkdtempSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';

export const BASE = (process.env.BOARD_URL ?? '').replace(/\/$/, '');
if (!BASE) {
  console.error('BOARD_URL is not set (the URL `camelot-zero serve` printed)');
  process.exit(1);
}
export const OUT = process.env.OUT || mkdtempSync(path.join(tmpdir(), 'board-shots-'));
mkdirSync(OUT, { recursive: true });
const CHROMIUM = process.env.CHROMIUM ?? '/usr/bin/chromium';


export function assert(condition, message) {
  if (!condition) throw new Error(message);
}

export function same(a, b) {
  return JSON.stringify(a) === JSON.stringify(b);
}

export const sorted = (xs) => [...xs].sort();

/** A request to the server from the test itself (not through the page). */
export async function api(pathname, body) {
  const init = body === undefined
    ? {}
    : { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) };
  const response = await fetch(BASE + pathname, init);
  const json = await response.json();
  return { status: response.status, json };
}

export async function engineState(game, position) {
  const { status, json } = await api('/api/state', { game, position });
  assert(status === 200, `POST /api/state ${JSON.stringify(position)}: ${status} ${JSON.stringify(json)}`);
  return json;
}

/** The pieces drawn in `view`, as sorted "cell seat kind" strings. */
export async function pagePieces(page, view) {
  const pieces = await page.$$eval(`#view-${view} .piece`, (els) =>
    els.map((e) => `${e.dataset.cell} ${e.dataset.seat} ${e.dataset.kind}`),
  );
  return sorted(pieces);
}

export const enginePieces = (state) => sorted(state.pieces.map((p) => `${p.cell} ${p.seat} ${p.kind}`));

/** The cells of the Play board that have class `cls`. */
export async function cellsWith(page, cls, view = 'play') {
  return sorted(await page.$$eval(`#view-${view} g.cell.${cls}`, (els) => els.map((e) => e.dataset.cell)));
}

/** Waits until the Play view has no request in flight. */
export async function idle(page, timeout = 30000) {
  await page.waitForFunction(() => !document.getElementById('view-play').dataset.busy, null, { timeout });
}

export async function errorShown(page) {
  return page.$eval('#error', (e) => (e.hidden ? null : e.textContent));
}

export async function assertNoError(page, when) {
  const error = await errorShown(page);
  assert(error === null, `${when}: #error shows ${JSON.stringify(error)}`);
}

export async function clickCell(page, cell, view = 'play') {
  await page.click(`#view-${view} g.cell[data-cell="${cell}"]`);
}

/** The board of the Play view equals the engine's State of the position the page shows. */
export async function assertBoardIsEngines(page, game, when) {
  const position = await page.inputValue('#position');
  const state = await engineState(game, position);
  const onPage = await pagePieces(page, 'play');
  assert(
    same(onPage, enginePieces(state)),
    `${when}: the pieces on the page ${JSON.stringify(onPage)} are not the engine's ` +
      `${JSON.stringify(enginePieces(state))} for ${position}`,
  );
  return state;
}

/** The targets on the page are the landing cells of the legs of `from` in `state`. */
export async function assertTargets(page, state, from, when) {
  const expected = sorted(new Set(state.legs.filter((l) => l.from === from).map((l) => l.to)));
  const targets = await cellsWith(page, 'target');
  assert(same(targets, expected), `${when}: targets ${JSON.stringify(targets)}, the engine's legs from ${from} land on ${JSON.stringify(expected)}`);
}

let passed = 0;

/** Runs one named step of a test and reports it. */
export async function step(name, fn) {
  const started = Date.now();
  await fn();
  passed += 1;
  console.log(`ok ${passed} - ${name} (${((Date.now() - started) / 1000).toFixed(1)}s)`);
}

/**
 * Opens Chromium with one page (1280×800) and runs `body(page, pageErrors)`; on a failure,
 * a screenshot and the page's status lines go with the message. Exits 1 on the first failure.
 */
export async function runBrowser(body) {
  let page = null;
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  try {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, acceptDownloads: true });
    page = await context.newPage();
    page.setDefaultTimeout(30000);
    const pageErrors = [];
    page.on('pageerror', (e) => pageErrors.push(e.message));
    await body(page, pageErrors);
    assert(pageErrors.length === 0, `errors in the page: ${pageErrors.join('; ')}`);
    console.log(`screenshots: ${OUT}`);
    console.log(`${passed} passed, 0 failed`);
  } catch (e) {
    // What the page showed when it failed: a screenshot and its status lines.
    if (page) {
      await page.screenshot({ path: path.join(OUT, 'failure.png') }).catch(() => {});
      const shown = await page.evaluate(() => ({
        status: document.getElementById('status')?.textContent,
        error: document.getElementById('error')?.hidden ? null : document.getElementById('error')?.textContent,
        position: document.getElementById('position')?.value,
        busy: Boolean(document.getElementById('view-play')?.dataset.busy),
      })).catch(() => null);
      e.message += `\n  the page: ${JSON.stringify(shown)}\n  screenshot: ${path.join(OUT, 'failure.png')}`;
    }
    console.error(`not ok ${passed + 1} - ${e.message}`);
    console.log(`${passed} passed, 1 failed`);
    process.exitCode = 1;
  } finally {
    await browser.close();
  }
}
