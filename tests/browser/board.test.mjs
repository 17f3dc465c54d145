// The board page of `camelot-zero serve` in a real browser (Debian's Chromium, driven by
// playwright-core): plays a Knight's charge leg by leg against the model, analyses, replays a
// recorded game and plays Tri-Camelot by clicks, checking every board the page draws against
// the rules engine (the server's own /api/state of the position the page shows).
//
// A plain node script: BOARD_URL=http://127.0.0.1:PORT [OUT=dir] node board.test.mjs
// (scripts/test_browser.sh starts the server and runs it). Exit code 1 on the first failure.

import path from 'node:path';
import {
  BASE, OUT, api, assert, assertBoardIsEngines, assertNoError, assertTargets, cellsWith, clickCell,
  enginePieces, engineState, idle, pagePieces, runBrowser, same, sorted, step,
} from './helpers.mjs';

// A White Knight on F6 behind its Man on F7, Black Men on F9 and F11: the Knight's charge
// F6-F8xF10xF12 (canter over F7, jump F9, jump F11). No White piece has a direct jump, so the
// charge is optional, and the strict Knight's-canter rule makes F6-F8 alone illegal (the Knight
// could jump from F8), so the move cannot stop after the canter. Black keeps four pieces far
// away, so the game goes on and the model has moves.
const CHARGE_POSITION = 'camelot W W:KF6,MF7 B:KC11,KJ11,MD11,MF9,MF11,MI11 cm=0,0';
const CHARGE_PATH = ['F6', 'F8', 'F10', 'F12'];
const CHARGE_MOVE = 'F6-F8xF10xF12';
const BAD_POSITION = 'camelot W W:KZ99 B:MF9 cm=0,0';

await runBrowser(async (page) => {
  // Requests the page sends that change a game (a leg, a reply): an illegal click sends none.
  const sent = [];
  page.on('request', (r) => sent.push(`${r.method()} ${new URL(r.url()).pathname}`));

  const info = (await api('/api/info')).json;

  await step('the page opens and lists both games', async () => {
    await page.goto(BASE + '/');
    await page.waitForSelector('body[data-ready="1"]');
    const games = await page.$$eval('#game option', (os) => os.map((o) => o.value));
    assert(same(sorted(games), ['camelot', 'tricamelot']), `#game lists ${JSON.stringify(games)}`);
    const cells = await page.$$eval('#view-play g.cell', (els) => els.length);
    const camelot = info.games.find((g) => g.name === 'camelot');
    assert(cells === camelot.cells.length, `the Camelot board has ${cells} cells, /api/info ${camelot.cells.length}`);
    const castles = await page.$$eval('#view-play g.cell.castle', (els) => els.map((e) => `${e.dataset.cell}:${e.dataset.castle}`));
    const expected = camelot.cells.filter((c) => c.castle !== null).map((c) => `${c.name}:${c.castle}`);
    assert(same(sorted(castles), sorted(expected)), `castles ${castles} != ${expected}`);
    const model = await page.textContent('#model-name');
    assert(model === (camelot.model ?? 'no model: uniform priors'), `#model-name says ${model}`);
    assert(await page.isChecked('#model-seat-1'), 'the model plays Black by default');
    assert(!(await page.isChecked('#model-seat-0')), 'the model does not play White by default');
    await assertBoardIsEngines(page, 'camelot', 'the start');
    await assertNoError(page, 'at start');
  });

  await step('Camelot: a Knight\'s charge clicked leg by leg, then the model answers', async () => {
    const start = await engineState('camelot', CHARGE_POSITION);
    assert(start.over === null, 'the charge position is not over');
    // The engine agrees: the three legs make the charge, which captures F9 and F11 and
    // leaves a game that goes on.
    let probe = start;
    for (let i = 1; i < CHARGE_PATH.length; i++) {
      const action = `${CHARGE_PATH[i - 1]}>${CHARGE_PATH[i]}`;
      const r = await api('/api/play', { game: 'camelot', position: probe.position, action });
      assert(r.status === 200, `POST /api/play ${action}: ${r.status} ${JSON.stringify(r.json)}`);
      const last = i === CHARGE_PATH.length - 1;
      assert((r.json.completed === CHARGE_MOVE) === last, `after ${action} completed is ${r.json.completed}`);
      probe = r.json.state;
    }
    assert(probe.over === null && probe.to_move === 1, `after the charge: ${JSON.stringify(probe.over)}, seat ${probe.to_move} to move`);
    assert(!probe.pieces.some((p) => p.cell === 'F9' || p.cell === 'F11'), 'the charge captures F9 and F11');
    await page.fill('#sims', '32');
    await page.fill('#position', CHARGE_POSITION);
    await page.click('#load');
    await idle(page);
    await page.waitForFunction((p) => document.getElementById('position').value === p, start.position);
    await assertBoardIsEngines(page, 'camelot', 'after loading the charge position');
    let state = start;
    await clickCell(page, CHARGE_PATH[0]);
    const selected = await cellsWith(page, 'selected');
    assert(same(selected, [CHARGE_PATH[0]]), `selected ${JSON.stringify(selected)} after clicking ${CHARGE_PATH[0]}`);
    await assertTargets(page, state, CHARGE_PATH[0], 'the Knight selected');
    for (let i = 1; i < CHARGE_PATH.length; i++) {
      const [from, to] = [CHARGE_PATH[i - 1], CHARGE_PATH[i]];
      const leg = state.legs.find((l) => l.from === from && l.to === to);
      assert(leg, `the engine has no leg ${from}>${to} in ${state.position}: ${JSON.stringify(state.legs)}`);
      if (i > 1) assert(leg.capture, `the leg ${from}>${to} is a jump`);
      const before = state.position;
      await clickCell(page, to);
      const last = i === CHARGE_PATH.length - 1;
      await idle(page, last ? 120000 : 30000); // after the last leg, the model answers too
      await page.waitForFunction((p) => document.getElementById('position').value !== p, before);
      if (!last) {
        state = await assertBoardIsEngines(page, 'camelot', `after the leg ${from}>${to}`);
        assert(state.moving === to, `the moving piece is on ${state.moving}, not ${to}`);
        assert(!state.can_end, `the charge may not stop on ${to}`);
        await assertTargets(page, state, to, `after the leg ${from}>${to}`);
        const landed = await cellsWith(page, 'landed');
        assert(same(landed, sorted(state.landed)), `landed ${landed} != ${state.landed}`);
        assert(await page.isDisabled('#end-move'), '#end-move is disabled while the move may not end');
      }
    }
    // The charge is one complete move; the model (Black) answers.
    const first = await page.textContent('#moves li:first-child');
    assert(first === CHARGE_MOVE, `the move list starts with ${first}, not ${CHARGE_MOVE}`);
    await page.waitForFunction(
      () => document.querySelectorAll('#moves li').length >= 2 && !document.getElementById('view-play').dataset.busy,
      null,
      { timeout: 120000 },
    );
    await assertNoError(page, 'after the model\'s reply');
    const after = await assertBoardIsEngines(page, 'camelot', 'after the model\'s reply');
    assert(after.to_move === 0, `White is to move after Black's reply, not seat ${after.to_move}`);
    const lis = await page.$$eval('#moves li', (els) => els.map((e) => e.textContent));
    assert(lis.length === 2, `#moves has ${lis.length} entries: ${lis}`);
    assert(after.last_move === null || after.last_move === lis[1], `last_move ${after.last_move} is the list's ${lis[1]}`);
    await page.screenshot({ path: path.join(OUT, 'play.png') });
  });

  await step('an illegal click sends nothing; a bad position shows the parser\'s message', async () => {
    const position = await page.inputValue('#position');
    const state = await engineState('camelot', position);
    const froms = new Set(state.legs.map((l) => l.from));
    const occupied = new Set(state.pieces.map((p) => p.cell));
    const camelot = info.games.find((g) => g.name === 'camelot');
    const from = [...froms][0];
    const targets = new Set(state.legs.filter((l) => l.from === from).map((l) => l.to));
    const empty = camelot.cells.map((c) => c.name).find((c) => !occupied.has(c) && !targets.has(c) && !froms.has(c));
    sent.length = 0;
    await clickCell(page, empty); // nothing selected: an empty cell
    await clickCell(page, from); // select a piece with legs
    assert(same(await cellsWith(page, 'selected'), [from]), `${from} is selected`);
    await clickCell(page, empty); // not one of its targets
    await page.waitForTimeout(300);
    const played = sent.filter((r) => r.startsWith('POST /api/play') || r.startsWith('POST /api/reply'));
    assert(played.length === 0, `an illegal click sent ${played}`);
    assert(await page.inputValue('#position') === position, 'an illegal click changed #position');
    assert(same(await cellsWith(page, 'target'), []), 'no targets after clicking a non-target');
    await assertNoError(page, 'after an illegal click');

    const refused = await api('/api/state', { game: 'camelot', position: BAD_POSITION });
    assert(refused.status >= 400 && refused.status < 500, `the bad position is refused: ${refused.status}`);
    await page.fill('#position', BAD_POSITION);
    await page.click('#load');
    await page.waitForSelector('#error:not([hidden])');
    const shown = await page.textContent('#error');
    assert(shown.includes(refused.json.error), `#error says ${JSON.stringify(shown)}, the server ${JSON.stringify(refused.json.error)}`);
    await idle(page);
    const pieces = await pagePieces(page, 'play');
    assert(same(pieces, enginePieces(state)), 'a refused position left the board as it was');

    // Undo takes back the model's reply and White's charge: the loaded position again.
    await page.click('#undo');
    await idle(page);
    const loaded = await engineState('camelot', CHARGE_POSITION);
    assert(await page.inputValue('#position') === loaded.position, `Undo shows ${await page.inputValue('#position')}`);
    assert((await page.$$eval('#moves li', (e) => e.length)) === 0, 'Undo empties the move list');
    await assertBoardIsEngines(page, 'camelot', 'after Undo');
    assert(await page.isEnabled('#end-move') === false, '#end-move is disabled at a turn start');
    // Undo in the middle of a move drops its legs.
    await clickCell(page, CHARGE_PATH[0]);
    await clickCell(page, CHARGE_PATH[1]);
    await idle(page);
    const moving = await assertBoardIsEngines(page, 'camelot', 'in the middle of the charge');
    assert(moving.moving === CHARGE_PATH[1], `the Knight is moving on ${moving.moving}`);
    assert(same(await cellsWith(page, 'landed'), sorted(moving.landed)), 'the landed cells are the engine\'s');
    await page.click('#undo');
    await idle(page);
    assert(await page.inputValue('#position') === loaded.position, 'Undo in a move goes back to its start');
    assert(same(await cellsWith(page, 'landed'), []), 'no landed cells after Undo');
    await assertNoError(page, 'after Undo');
  });

  await step('Analyse: the search streams candidates, then stops', async () => {
    await page.click('#tab-analyse');
    await page.waitForSelector('#view-analyse:not([hidden])');
    await page.click('#analyse-start');
    await page.waitForSelector('#candidates tbody tr');
    const sims = async () => parseInt(await page.textContent('#simulations'), 10);
    const first = await sims();
    await page.waitForFunction((n) => parseInt(document.getElementById('simulations').textContent, 10) > n, first, { timeout: 30000 });
    await page.waitForSelector('#view-analyse .arrow', { state: 'attached' });
    await assertNoError(page, 'while analysing');
    const rows = await page.$$eval('#candidates tbody tr', (trs) => trs.map((t) => t.dataset.action));
    assert(rows.length > 0 && rows.every(Boolean), `candidate rows ${rows}`);
    const values = await page.$$eval('#candidates tbody tr:first-child td', (tds) => tds.map((t) => t.textContent));
    assert(values.length === 5 && /^\d+\.\d{3}$/.test(values[2]), `a candidate row: ${values}`);
    assert((await page.textContent('#pv')).length > 0, '#pv is empty');
    assert((await page.textContent('#net-values')).length > 0, '#net-values is empty');
    assert((await page.textContent('#root-values')).length > 0, '#root-values is empty');
    const arrows = await page.$$eval('#view-analyse .arrow', (a) => a.length);
    assert(arrows >= 1 && arrows <= 3, `${arrows} arrows`);
    const pieces = await pagePieces(page, 'analyse');
    assert(same(pieces, await pagePieces(page, 'play')), 'the Analyse board is the Play position');
    await page.screenshot({ path: path.join(OUT, 'analyse.png') });
    await page.click('#analyse-stop');
    await page.waitForSelector('#analyse-stop:disabled');
    assert(await page.isEnabled('#analyse-start'), '#analyse-start is enabled after Stop');
    await page.waitForTimeout(300);
    const stopped = await sims();
    await page.waitForTimeout(700);
    assert((await sims()) === stopped, 'the simulations still grow after Stop');
  });

  await step('Replay: the last position of a recorded game', async () => {
    await page.click('#tab-replay');
    await page.waitForSelector('#view-replay:not([hidden])');
    if (info.run === null) {
      assert(await page.isVisible('#replay-none'), 'the page says there is no run');
      throw new Error('the server was started without --run: the Replay view cannot be tested');
    }
    await page.waitForSelector('#replay-game option', { state: 'attached' });
    const collection = await page.$eval('#replay-collection option', (o) => o.value);
    await page.selectOption('#replay-collection', collection);
    await page.waitForSelector('#replay-game option', { state: 'attached' });
    const game = await page.$eval('#replay-game option', (o) => o.value);
    await page.selectOption('#replay-game', game);
    const [shard, gameId] = game.split(':');
    const { status, json: replay } = await api(
      `/api/run/game?collection=${encodeURIComponent(collection)}&shard=${shard}&game_id=${gameId}`,
    );
    assert(status === 200, `GET /api/run/game: ${status} ${JSON.stringify(replay)}`);
    const n = replay.moves.length;
    await page.waitForFunction((t) => document.getElementById('replay-move').textContent === t, `move 0 / ${n}: start`);
    await page.click('#replay-end');
    const expected = `move ${n} / ${n}: ${replay.moves[n - 1]}`;
    await page.waitForFunction((t) => document.getElementById('replay-move').textContent === t, expected)
      .catch(async () => {
        throw new Error(`#replay-move says ${await page.textContent('#replay-move')}, not ${expected}`);
      });
    await page.waitForSelector(`#view-replay[data-shown="${n}"]`);
    const last = await engineState(replay.variant, replay.positions[n]);
    const pieces = await pagePieces(page, 'replay');
    assert(same(pieces, enginePieces(last)), `the last replayed board ${pieces} is not the engine's ${enginePieces(last)}`);
    // The arrow keys step too.
    await page.keyboard.press('ArrowLeft');
    await page.waitForFunction((t) => document.getElementById('replay-move').textContent.startsWith(t), `move ${n - 1} / ${n}`);
    await page.keyboard.press('ArrowRight');
    await page.waitForFunction((t) => document.getElementById('replay-move').textContent === t, expected);
    await page.waitForSelector(`#view-replay[data-shown="${n}"]`);
    const lines = await page.$$eval('#value-graph polyline.seat-line', (ls) => ls.length);
    const recorded = replay.values.some(Boolean);
    assert(!recorded || lines >= 2, `the value graph has ${lines} lines`);
    assert(await page.$('#value-graph .marker'), 'the value graph has a marker');
    await page.screenshot({ path: path.join(OUT, 'replay.png') });
  });

  await step('Tri-Camelot: one move per seat by clicks, no model seat', async () => {
    await page.click('#tab-play');
    await page.selectOption('#game', 'tricamelot');
    await page.waitForSelector('#view-play svg[data-game="tricamelot"]');
    await page.waitForSelector('#model-seat-2');
    await idle(page);
    for (const seat of [0, 1, 2]) await page.setChecked(`#model-seat-${seat}`, false);
    const tri = info.games.find((g) => g.name === 'tricamelot');
    assert((await page.$$eval('#view-play g.cell', (e) => e.length)) === tri.cells.length, 'the hex board has every cell');
    assert((await page.$$eval('#view-play #moves li', (e) => e.length)) === 0, 'a new game has no moves');
    let state = await assertBoardIsEngines(page, 'tricamelot', 'the Tri-Camelot start');
    assert(state.position === (await engineState('tricamelot', 'start')).position, 'switching game starts the game');
    for (let k = 0; k < 3; k++) {
      // A leg that completes a move by itself, as the engine says.
      let chosen = null;
      for (const leg of state.legs) {
        const r = await api('/api/play', { game: 'tricamelot', position: state.position, action: leg.action });
        assert(r.status === 200, `POST /api/play ${leg.action}: ${r.status} ${JSON.stringify(r.json)}`);
        if (r.json.completed) {
          chosen = { leg, completed: r.json.completed };
          break;
        }
      }
      assert(chosen, `no one-leg move in ${state.position}`);
      await clickCell(page, chosen.leg.from);
      await assertTargets(page, state, chosen.leg.from, `seat ${k} selects ${chosen.leg.from}`);
      await clickCell(page, chosen.leg.to);
      await page.waitForFunction((n) => document.querySelectorAll('#moves li').length === n, k + 1);
      await idle(page);
      await assertNoError(page, `after seat ${k}'s move`);
      const lis = await page.$$eval('#moves li', (els) => els.map((e) => e.textContent));
      assert(lis[k] === chosen.completed, `move ${k + 1} is listed as ${lis[k]}, not ${chosen.completed}`);
      state = await assertBoardIsEngines(page, 'tricamelot', `after seat ${k}'s move`);
      assert(state.to_move === (k + 1) % 3, `seat ${state.to_move} is to move after ${k + 1} moves`);
    }
    await page.screenshot({ path: path.join(OUT, 'tricamelot.png') });
  });

});
