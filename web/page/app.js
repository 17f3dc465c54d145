// Start-up: reads /api/info, makes the three views, switches tabs and keeps the one #error line.
// The views share `shared`: the games the server plays, its run, the Play view (whose position
// the Analyse view searches) and `bus`, on which the Play view announces every new position.

import * as api from './api.js';
import { AnalyseView } from './analyse.js';
import { PlayView } from './play.js';
import { ReplayView } from './replay.js';

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

const TABS = ['play', 'analyse', 'replay'];

async function main() {
  const info = await api.info();
  const shared = {
    info,
    games: new Map(info.games.map((g) => [g.name, g])),
    bus: new EventTarget(),
    play: null,
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

  await shared.play.setGame(info.games[0].name);
  show('play');
  document.body.dataset.ready = '1';
}

main().catch((e) => {
  $('error').textContent = `the page could not start: ${e.message}`;
  $('error').hidden = false;
});
