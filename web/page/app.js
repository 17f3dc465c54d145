// Start-up: reads /api/info, makes the four views, switches tabs and keeps the one #error line.
// The views share `shared`: the games the server plays, its run, the Play view (whose position
// the Analyse view searches), `bus`, on which the Play view announces every new position, and
// `show`, which switches views (Replay's Open in Play and Analyse).

import * as api from './api.js';
import { AnalyseView } from './analyse.js';
import { GameText } from './gametext.js';
import { PlayView } from './play.js';
import { ReplayView } from './replay.js';
import { RunView } from './run.js';

const $ = (id) => document.getElementById(id);

// One error line for the whole page: any failed request shows its message, the next request
// that succeeds clears it.
api.requests.addEventListener('fail', (e) => {
  $('error').textContent = e.detail;
  $('error').hidden = false;
});
api.requests.addEventListener('ok', () => {
  $('error').hidden = true;
  $('error').textContent = '';
});

const TABS = ['play', 'analyse', 'replay', 'run'];

async function main() {
  const info = await api.info();
  const shared = {
    info,
    games: new Map(info.games.map((g) => [g.name, g])),
    bus: new EventTarget(),
    play: null,
    show: null, // show(view name): switches tabs
  };
  $('run-name').textContent = info.run ? `run: ${info.run.name}` : '';
  $('game').replaceChildren(
    ...info.games.map((g) => new Option(g.name === 'tricamelot' ? 'Tri-Camelot' : 'Camelot', g.name)),
  );

  shared.play = new PlayView(shared);
  const views = {
    play: shared.play,
    analyse: new AnalyseView(shared),
    replay: new ReplayView(shared),
    run: new RunView(shared),
  };

  let current = 'play';
  const show = (name) => {
    if (name !== current) views[current].hide?.();
    current = name;
    for (const tab of TABS) {
      $(`view-${tab}`).hidden = tab !== name;
      $(`tab-${tab}`).setAttribute('aria-selected', String(tab === name));
      $(`tab-${tab}`).classList.toggle('active', tab === name);
    }
    views[name].show?.();
  };
  for (const tab of TABS) $(`tab-${tab}`).addEventListener('click', () => show(tab));
  shared.show = show;
  new GameText(shared);
  // Flip turns every board; each keeps what it shows.
  $('flip').addEventListener('click', () => {
    const flipped = $('flip').getAttribute('aria-pressed') !== 'true';
    $('flip').setAttribute('aria-pressed', String(flipped));
    for (const view of Object.values(views)) view.board?.setFlipped(flipped);
  });

  await shared.play.setGame(info.games[0].name);
  show('play');
  document.body.dataset.ready = '1';
}

main().catch((e) => {
  $('error').textContent = `the page could not start: ${e.message}`;
  $('error').hidden = false;
});
