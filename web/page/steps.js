// The four buttons that step through a line of moves, made the same way for the Play view's
// line and the Replay view's game: to the start, one move back, one move on, to the end.

const STEPS = [
  ['start', '|\u25C0', 'the start'],
  ['prev', '\u25C0', 'one move back (\u2190)'],
  ['next', '\u25B6', 'one move on (\u2192)'],
  ['end', '\u25B6|', 'the end'],
];

/** Fills `container` with buttons `<prefix>-start`, `-prev`, `-next` and `-end`; a click calls
 * `step(kind)` with the button's kind. */
export function stepButtons(container, prefix, step) {
  container.replaceChildren(
    ...STEPS.map(([kind, label, title]) => {
      const b = document.createElement('button');
      b.type = 'button';
      b.id = `${prefix}-${kind}`;
      b.textContent = label;
      b.title = title;
      b.addEventListener('click', () => step(kind));
      return b;
    }),
  );
}
