// The Play view's move list: the line shown (the path to the current position, then the moves
// that follow it), each move a button that goes to the position after it; the moves past the
// current position dimmed; a mark on moves that have other moves beside them; and under the
// list the other moves tried at the current position and the continuations from it, so that
// any line of the tree is two clicks away.

const $ = (id) => document.getElementById(id);

export class MoveList {
  /** `onPick(node)`: a move (or the start) was clicked. */
  constructor(onPick) {
    this.onPick = onPick;
  }

  /** Draws `tree`'s line (a GameTree) for a game whose seat names are `seatNames`. */
  render(tree, seatNames) {
    const line = tree.line();
    const current = tree.current;
    const past = new Set(current.path());
    const list = $('moves');
    list.replaceChildren(
      ...line.slice(1).map((node) => {
        const li = document.createElement('li');
        li.textContent = node.move;
        li.dataset.seat = String(node.seat);
        li.dataset.ply = String(node.ply);
        li.title = `${seatNames[node.seat] ?? ''}${node.comment ? `: ${node.comment}` : ''}`;
        li.classList.toggle('current', node === current);
        li.classList.toggle('future', !past.has(node));
        li.classList.toggle('has-variations', node.parent.children.length > 1);
        li.classList.toggle('commented', Boolean(node.comment));
        li.addEventListener('click', () => this.onPick(node));
        return li;
      }),
    );
    list.querySelector('li.current')?.scrollIntoView({ block: 'nearest' });
    $('line-start').classList.toggle('current', current === tree.root);

    // The moves tried beside the current one, and the continuations from here.
    const box = $('variations');
    box.replaceChildren();
    const group = (label, nodes, kind) => {
      if (nodes.length === 0) return;
      const p = document.createElement('p');
      p.className = `variation-group ${kind}`;
      p.append(`${label}: `);
      for (const node of nodes) {
        const b = document.createElement('button');
        b.type = 'button';
        b.className = 'variation';
        b.textContent = node.move;
        b.dataset.ply = String(node.ply);
        b.dataset.move = node.move;
        b.addEventListener('click', () => this.onPick(node));
        p.append(b, ' ');
      }
      box.append(p);
    };
    if (current.parent) {
      group(`instead of ${current.move}`, current.parent.children.filter((n) => n !== current), 'siblings');
    }
    if (current.children.length > 1) group('lines from here', current.children, 'children');
  }
}
