// The board page as an analysis tool, in a real browser: the evaluation bar and the value graph
// while playing; a replayed game opened in the Play view at move 5, a new line branched from it
// and analysed; hovering the principal variation previews its position; visits and values on
// the arrows, unvisited legs listed only on request, one notation; a game saved as text and
// loaded back to the same position; the board flipped; the model's thinking stopped; each
// seat's last move marked in Tri-Camelot. Every position checked against the rules engine.
//
// A plain node script: BOARD_URL=http://127.0.0.1:PORT [OUT=dir] node analysis.test.mjs
// (scripts/test_browser.sh starts the server, with a run, and runs it after board.test.mjs).

import path from 'node:path';
import {
  BASE, OUT, api, assert, assertBoardIsEngines, assertNoError, clickCell, enginePieces, engineState,
  idle, pagePieces, runBrowser, same, step,
} from './helpers.mjs';

/** The first leg of `state` that completes a move by itself, with that move. */
async function oneLegMove(game, state, not = null) {
  for (const leg of state.legs) {
    const r = await api('/api/play', { game, position: state.position, action: leg.action });
    assert(r.status === 200, `POST /api/play ${leg.action}: ${r.status} ${JSON.stringify(r.json)}`);
    if (r.json.completed && r.json.completed !== not) return { leg, move: r.json.completed };
  }
  throw new Error(`no one-leg move in ${state.position}`);
}

/** The list's moves as the page shows them. */
const listed = (page) => page.$$eval('#moves li', (els) => els.map((e) => e.textContent));

await runBrowser(async (page) => {
  const info = (await api('/api/info')).json;
  assert(info.run !== null, 'the server was started without --run: a replayed game is needed');
  await page.goto(`${BASE}/`);
  await page.waitForSelector('body[data-ready="1"]');

  await step('Play: the evaluation bar and the value graph follow the game', async () => {
    await page.fill('#sims', '16');
    const bar = '#play-eval';
    // Before any search, the start's bar is unknown, then a short search values it.
    await page.waitForFunction((sel) => document.querySelector(sel).dataset.values, bar, { timeout: 60000 });
    const start = await engineState('camelot', 'start');
    const { leg, move } = await oneLegMove('camelot', start);
    await clickCell(page, leg.from);
    await clickCell(page, leg.to);
    // The model (Black) answers; its search values the position it moved from.
    await page.waitForFunction(() => document.querySelectorAll('#moves li').length === 2, null, { timeout: 120000 });
    await idle(page);
    const moves = await listed(page);
    assert(moves[0] === move, `the list starts with ${moves[0]}, not ${move}`);
    await page.waitForFunction((sel) => document.querySelector(sel).dataset.values, bar, { timeout: 60000 });
    const values = (await page.$eval(bar, (e) => e.dataset.values)).split(',').map(Number);
    assert(values.length === 2 && values.every((v) => v >= -1 && v <= 1), `the bar's values ${values}`);
    const segments = await page.$$eval(`${bar} .eval-seg`, (els) => els.map((e) => [e.dataset.seat, parseFloat(e.style.height)]));
    assert(segments.length === 2, `${segments.length} segments in the bar`);
    const total = segments.reduce((a, [, h]) => a + h, 0);
    assert(Math.abs(total - 100) < 0.5, `the segments fill the bar: ${JSON.stringify(segments)}`);
    // The graph has a point for the Black reply's position (the model's search) at least.
    const marks = await page.$$eval('#play-graph .seat-line, #play-graph .seat-dot', (els) => els.length);
    assert(marks >= 2, `the value graph draws ${marks} series`);
    assert(await page.$('#play-graph .legend'), 'the value graph has a legend');
    await assertNoError(page, 'after the model\'s reply');
    await page.screenshot({ path: path.join(OUT, 'eval-bar.png') });
  });

  let branch = null;
  await step('Replay → Play at move 5: a new line branched there, the old one kept', async () => {
    await page.click('#tab-replay');
    await page.waitForSelector('#replay-game option', { state: 'attached' });
    // A recorded game of at least 7 moves where the mover at move 5 had another move than the
    // one played (a move that completes in one leg, to click).
    const collections = await page.$$eval('#replay-collection option', (os) => os.map((o) => o.value));
    let found = null;
    search: for (const collection of collections) {
      const { json } = await api(`/api/run/games?collection=${encodeURIComponent(collection)}`);
      for (const g of json.games.filter((x) => x.plies >= 7 && x.variant === 'camelot')) {
        const { json: r } = await api(
          `/api/run/game?collection=${encodeURIComponent(collection)}&shard=${g.shard}&game_id=${g.game_id}`,
        );
        const at5 = await engineState('camelot', r.positions[5]);
        if (await oneLegMove('camelot', at5, r.moves[5]).catch(() => null)) {
          found = { collection, game: g };
          break search;
        }
      }
    }
    assert(found, 'the smoke run recorded a Camelot game of 7 moves or more with a choice at move 5');
    await page.selectOption('#replay-collection', found.collection);
    await page.waitForSelector(`#replay-game option[value="${found.game.shard}:${found.game.game_id}"]`, { state: 'attached' });
    await page.selectOption('#replay-game', `${found.game.shard}:${found.game.game_id}`);
    const { json: replay } = await api(
      `/api/run/game?collection=${encodeURIComponent(found.collection)}&shard=${found.game.shard}&game_id=${found.game.game_id}`,
    );
    const n = replay.moves.length;
    await page.waitForFunction((t) => document.getElementById('replay-move').textContent === t, `move 0 / ${n}: start`);
    for (let i = 0; i < 5; i++) await page.click('#replay-next');
    await page.waitForSelector('#view-replay[data-shown="5"]');
    await page.click('#replay-open');
    await page.waitForSelector('#view-play:not([hidden])');
    await page.waitForFunction((p) => document.getElementById('position').value === p, replay.positions[5]);
    await idle(page);
    assert(same(await listed(page), replay.moves), 'the Play list is the replayed game');
    const current = await page.$eval('#moves li.current', (e) => e.dataset.ply);
    assert(current === '5', `the current move is ${current}, not the 5th`);
    const future = await page.$$eval('#moves li.future', (els) => els.length);
    assert(future === n - 5, `${future} moves after the current one, not ${n - 5}`);
    await assertBoardIsEngines(page, 'camelot', 'at move 5 of the replayed game');

    // A move other than the game's 6th, played from here: a new line.
    const here = await engineState('camelot', replay.positions[5]);
    const { leg, move } = await oneLegMove('camelot', here, replay.moves[5]);
    for (const seat of [0, 1]) await page.setChecked(`#model-seat-${seat}`, false);
    await clickCell(page, leg.from);
    await clickCell(page, leg.to);
    await page.waitForFunction((m) => document.querySelector('#moves li.current')?.textContent === m, move);
    await idle(page);
    const lines = await listed(page);
    assert(same(lines, [...replay.moves.slice(0, 5), move]), `the new line: ${lines}`);
    const siblings = await page.$$eval('#variations .siblings .variation', (bs) => bs.map((b) => b.textContent));
    assert(same(siblings, [replay.moves[5]]), `the game's own 6th move is offered beside it: ${siblings}`);
    branch = await assertBoardIsEngines(page, 'camelot', 'after the branching move');
    // The game's line is still there: one click goes back to it, one more to the branch.
    await page.click(`#variations .siblings .variation[data-move="${replay.moves[5]}"]`);
    await page.waitForFunction((p) => document.getElementById('position').value === p, replay.positions[6]);
    assert(same(await listed(page), replay.moves), 'back on the game\'s line, to its end');
    await page.click(`#variations .siblings .variation[data-move="${move}"]`);
    await page.waitForFunction((p) => document.getElementById('position').value === p, branch.position);
    // A click in the list goes to any move; the arrow keys step.
    await page.click('#moves li[data-ply="2"]');
    await page.waitForFunction((p) => document.getElementById('position').value === p, replay.positions[2]);
    await page.keyboard.press('ArrowRight');
    await page.waitForFunction((p) => document.getElementById('position').value === p, replay.positions[3]);
    await page.click('#line-end');
    await page.waitForFunction((p) => document.getElementById('position').value === p, branch.position);
    await assertNoError(page, 'after moving along the lines');
    await page.screenshot({ path: path.join(OUT, 'variations.png') });
  });

  await step('Analyse the branch: arrows with visits and values, one notation, PV preview', async () => {
    await page.click('#tab-analyse');
    await page.waitForSelector('#view-analyse:not([hidden])');
    assert(same(await pagePieces(page, 'analyse'), enginePieces(branch)), 'the Analyse board is the branch');
    await page.fill('#analyse-sims', '100000');
    await page.click('#analyse-start');
    await page.waitForSelector('#candidates tbody tr');
    await page.waitForFunction(() => parseInt(document.getElementById('simulations').textContent, 10) >= 200, null, { timeout: 60000 });
    await page.waitForFunction(() => document.querySelectorAll('#pv .pv-move[data-index]').length >= 2, null, { timeout: 60000 });
    await page.click('#analyse-stop');
    await page.waitForSelector('#analyse-stop:disabled');
    // Only visited legs are listed; every leg is written as moves are.
    const rows = await page.$$eval('#candidates tbody tr', (trs) => trs.map((t) => [...t.children].map((td) => td.textContent)));
    assert(rows.every((r) => parseInt(r[1], 10) > 0), `an unvisited leg is listed: ${JSON.stringify(rows)}`);
    assert(rows.every((r) => /^[A-L][0-9]+[-x][A-L][0-9]+$|^end$/.test(r[0])), `a leg not in move notation: ${rows.map((r) => r[0])}`);
    await page.check('#analyse-all');
    const all = await page.$$eval('#candidates tbody tr', (trs) => trs.length);
    const legs = branch.legs.length + (branch.can_end ? 1 : 0);
    assert(all === legs, `with unvisited legs the table lists ${all}, the position has ${legs}`);
    await page.uncheck('#analyse-all');
    const labels = await page.$$eval('#view-analyse .arrow-label text', (ts) => ts.map((t) => t.textContent));
    assert(labels.length >= 1 && labels.every((l) => /^\d+ · \d\.\d\d$/.test(l)), `arrow labels ${labels}`);
    assert(parseInt(labels[0], 10) === parseInt(rows[0][1], 10), `the best arrow says ${labels[0]} visits, the table ${rows[0][1]}`);
    // The Play view kept the analysis's values for this position.
    const bar = await page.$eval('#analyse-eval', (e) => e.dataset.values);
    assert(bar && bar.split(',').length === 2, `the Analyse bar's values ${bar}`);

    // Hovering the second move of the principal variation shows the position after two moves.
    const pv = await page.$$eval('#pv .pv-move[data-index]', (ss) => ss.map((s) => s.textContent));
    await page.hover('#pv .pv-move[data-index="1"]');
    await page.waitForSelector('#view-analyse[data-preview="1"]');
    const line = await api('/api/line', { game: 'camelot', position: branch.position, moves: pv.slice(0, 2) });
    assert(line.status === 200, `the PV is legal: ${JSON.stringify(line.json)}`);
    const after = await engineState('camelot', line.json.positions[2]);
    assert(same(await pagePieces(page, 'analyse'), enginePieces(after)), 'the preview is the position after two PV moves');
    await page.screenshot({ path: path.join(OUT, 'pv-preview.png') });
    await page.mouse.move(5, 5);
    await page.waitForSelector('#view-analyse:not([data-preview])');
    assert(same(await pagePieces(page, 'analyse'), enginePieces(branch)), 'the analysed position is back');
    await page.screenshot({ path: path.join(OUT, 'analyse-branch.png') });
    await assertNoError(page, 'after the analysis');
  });

  await step('Save the game as text and load it back: the same position', async () => {
    await page.click('#tab-play');
    await page.click('#game-text-box summary');
    await page.fill('#comment', 'my own line');
    await page.click('#save-game');
    await page.waitForFunction(() => document.getElementById('game-text').value.startsWith('[Game "camelot"]'));
    const text = await page.inputValue('#game-text');
    const saved = await api('/api/game/read', { text });
    assert(saved.status === 200, `the saved text reads: ${JSON.stringify(saved.json)}`);
    assert(saved.json.positions.at(-1) === branch.position, 'the saved line ends at the branch');
    assert(saved.json.comments.at(-1) === 'my own line', `the comment is saved: ${saved.json.comments}`);
    const download = page.waitForEvent('download');
    await page.click('#save-link');
    assert((await download).suggestedFilename().endsWith('.txt'), 'the download is a .txt file');
    await page.click('#new');
    await idle(page);
    assert((await listed(page)).length === 0, 'a new game');
    await page.click('#load-game');
    await page.waitForFunction((p) => document.getElementById('position').value === p, branch.position);
    await idle(page);
    assert((await listed(page)).length === saved.json.moves.length, 'every saved move is back');
    assert(await page.inputValue('#comment') === 'my own line', 'the comment is back');
    await assertBoardIsEngines(page, 'camelot', 'after loading the saved game');
  });

  await step('Flip turns the board; Stop ends the model\'s thinking', async () => {
    const y = (cell) => page.$eval(`#view-play g.cell[data-cell="${cell}"]`, (g) => g.getBoundingClientRect().y);
    assert((await y('F6')) > (await y('F11')), 'White\'s side is at the bottom');
    await page.click('#flip');
    await page.waitForSelector('#view-play svg[data-flipped="true"]');
    assert((await y('F6')) < (await y('F11')), 'flipped, Black\'s side is at the bottom');
    await assertBoardIsEngines(page, 'camelot', 'flipped');
    await page.screenshot({ path: path.join(OUT, 'flipped.png') });
    await page.click('#flip');
    await page.waitForSelector('#view-play svg[data-flipped="false"]');

    const before = await page.inputValue('#position');
    const count = (await listed(page)).length;
    // Long enough to be stopped, short enough that the server's search ends soon after.
    await page.fill('#sims', '3000');
    await page.click('#model-move');
    await page.waitForSelector('#stop-thinking:enabled');
    await page.click('#stop-thinking');
    await idle(page, 1000);
    await page.waitForTimeout(300);
    assert(await page.inputValue('#position') === before, 'Stop: no move was played');
    assert((await listed(page)).length === count, 'Stop: the list is as it was');
    assert((await page.textContent('#status')).includes('stopped'), 'the status says the thinking stopped');
    // No simulation count is made up: 0 is refused with a message, and nothing is asked.
    await page.fill('#sims', '0');
    await page.click('#model-move');
    await page.waitForSelector('#error:not([hidden])');
    assert((await page.textContent('#error')).includes('simulations must be a whole number from 1'), 'the message says why');
    assert(await page.inputValue('#position') === before, 'no move with 0 simulations');
    await page.fill('#sims', '16');
    // An illegal click says why in the status line (and sends nothing).
    const state = await engineState('camelot', before);
    const from = state.legs[0].from;
    const targets = new Set(state.legs.filter((l) => l.from === from).map((l) => l.to));
    const occupied = new Set(state.pieces.map((p) => p.cell));
    const info = (await api('/api/info')).json.games.find((g) => g.name === 'camelot');
    const empty = info.cells.map((c) => c.name).find((c) => !targets.has(c) && !occupied.has(c));
    await clickCell(page, from);
    await clickCell(page, empty);
    const hint = await page.textContent('#status');
    assert(hint.includes(`${empty} is not a legal landing square of the piece on ${from}`), `the status says ${hint}`);
  });

  await step('Tri-Camelot: each seat\'s last move marked, saved and loaded', async () => {
    await page.selectOption('#game', 'tricamelot');
    await page.waitForSelector('#view-play svg[data-game="tricamelot"]');
    await idle(page);
    for (const seat of [0, 1, 2]) await page.setChecked(`#model-seat-${seat}`, false);
    let state = await engineState('tricamelot', 'start');
    for (let k = 0; k < 3; k++) {
      const { leg } = await oneLegMove('tricamelot', state);
      await clickCell(page, leg.from);
      await clickCell(page, leg.to);
      await page.waitForFunction((n) => document.querySelectorAll('#moves li').length === n, k + 1);
      await idle(page);
      state = await assertBoardIsEngines(page, 'tricamelot', `after seat ${k}'s move`);
    }
    const marked = await page.$$eval('#view-play g.cell.last', (gs) => [...new Set(gs.map((g) => g.dataset.lastSeat))].sort());
    assert(same(marked, ['0', '1', '2']), `the last moves of seats ${marked} are marked`);
    await page.waitForFunction(() => document.getElementById('play-eval').dataset.values?.split(',').length === 3, null, { timeout: 60000 });
    await page.click('#save-game');
    await page.waitForFunction(() => document.getElementById('game-text').value.startsWith('[Game "tricamelot"]'));
    const position = await page.inputValue('#position');
    await page.click('#new');
    await idle(page);
    await page.click('#load-game');
    await page.waitForFunction((p) => document.getElementById('position').value === p, position);
    await assertBoardIsEngines(page, 'tricamelot', 'after loading the saved Tri-Camelot game');
    await page.screenshot({ path: path.join(OUT, 'tricamelot-last-moves.png') });
    await assertNoError(page, 'at the end');
  });
});
