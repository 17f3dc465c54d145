// The server's JSON API (docs/board.md, "The HTTP interface"), one function per endpoint.
// Every refusal is a non-2xx answer with {"error": msg}; it is thrown as an Error carrying that
// message, so the views only catch and show. Every request's outcome is also announced on
// `requests` ("ok" / "fail"), which is how the page's single #error line is shown and cleared
// without each caller doing it.

/** Fires "ok" after any request that succeeded and "fail" (detail: message) after one that
 * failed. An aborted request fires neither: stopping is not an error. */
export const requests = new EventTarget();

function announce(type, detail) {
  requests.dispatchEvent(new CustomEvent(type, { detail }));
}

/** Is `e` the rejection of a fetch that we aborted ourselves? */
export function isAbort(e) {
  return e && e.name === 'AbortError';
}

/** The Error for a non-2xx `response`: the server's own message when it sent one. */
async function refusal(response) {
  let message = `${response.status} ${response.statusText}`;
  try {
    const body = await response.json();
    if (body && typeof body.error === 'string') message = body.error;
  } catch {
    // Not JSON (a proxy's page, a cut connection): the status line is all there is.
  }
  const error = new Error(message);
  error.status = response.status;
  return error;
}

/** fetch(path) as JSON; throws the server's message on a refusal. */
async function request(path, { body, signal } = {}) {
  const init = { signal, headers: { Accept: 'application/json' } };
  if (body !== undefined) {
    init.method = 'POST';
    init.headers['Content-Type'] = 'application/json';
    init.body = JSON.stringify(body);
  }
  try {
    const response = await fetch(path, init);
    if (!response.ok) throw await refusal(response);
    const json = await response.json();
    announce('ok');
    return json;
  } catch (e) {
    if (!isAbort(e)) announce('fail', e.message);
    throw e;
  }
}

/** {games: [Game], run: null or {name}} */
export const info = () => request('/api/info');

/** The State of `position` ("start" for the start position). */
export const state = (game, position) => request('/api/state', { body: { game, position } });

/** {state, completed}: `action` ("F6>F8" or "end") played from `position`. */
export const play = (game, position, action) =>
  request('/api/play', { body: { game, position, action } });

/** {move, state, analysis}: the model's complete move from `position`. */
export const reply = (game, position, sims, signal) =>
  request('/api/reply', { body: { game, position, sims }, signal });

/** {positions, seats}: the positions along complete `moves` from `position` (the first
 * included) and the seat that plays each move. */
export const line = (game, position, moves, signal) =>
  request('/api/line', { body: { game, position, moves }, signal });

/** A saved game's text read: {game, start, moves, comments, result, termination, positions,
 * seats}. */
export const readGame = (text) => request('/api/game/read', { body: { text } });

/** {text}: the saved game of {game, start, moves, comments, result?, termination?}. */
export const writeGame = (game) => request('/api/game/write', { body: game });

/** {name, collections: [{id, kind, generation}]} */
export const run = () => request('/api/run');

/** {runs: [{name, generations, figures: [{stem, title, x_label, y_label, caption, series:
 * [{name, points, band}], why}]}]}: the served run's charts (then --compare's), read now. */
export const runFigures = () => request('/api/run/figures');

/** {games: [{shard, game_id, variant, model, plies, result, termination}]} */
export const runGames = (collection) =>
  request(`/api/run/games?collection=${encodeURIComponent(collection)}`);

/** Replay: {variant, model, start, moves, positions, values, net_values, result, termination} */
export const runGame = (collection, shard, gameId) =>
  request(
    `/api/run/game?collection=${encodeURIComponent(collection)}` +
      `&shard=${encodeURIComponent(shard)}&game_id=${encodeURIComponent(gameId)}`,
  );

/**
 * Streams POST /api/analyse: calls `onAnalysis` with each Analysis line (NDJSON) as it arrives.
 * Returns {done, abort}: `done` resolves when the stream ends (or was aborted) and rejects with
 * the server's message on a refusal or a broken stream; `abort()` closes the connection, which
 * is what tells the server to stop searching.
 */
export function analyse(game, position, sims, onAnalysis) {
  const controller = new AbortController();
  const done = (async () => {
    try {
      const response = await fetch('/api/analyse', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Accept: 'application/x-ndjson' },
        body: JSON.stringify({ game, position, sims }),
        signal: controller.signal,
      });
      if (!response.ok) throw await refusal(response);
      announce('ok');
      const reader = response.body.getReader();
      const decoder = new TextDecoder();
      let buffer = '';
      // A chunk may hold several lines or part of one: only complete lines are parsed.
      for (;;) {
        const { value, done: ended } = await reader.read();
        buffer += decoder.decode(value ?? new Uint8Array(), { stream: !ended });
        let newline;
        while ((newline = buffer.indexOf('\n')) >= 0) {
          const line = buffer.slice(0, newline).trim();
          buffer = buffer.slice(newline + 1);
          if (line) onAnalysis(JSON.parse(line));
        }
        if (ended) break;
      }
      if (buffer.trim()) onAnalysis(JSON.parse(buffer));
    } catch (e) {
      if (isAbort(e)) return;
      announce('fail', e.message);
      throw e;
    }
  })();
  return { done, abort: () => controller.abort() };
}
