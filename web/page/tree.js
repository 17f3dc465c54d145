// The game tree of the Play view: every line played, loaded or branched is kept. A node is a
// position at the start of a turn; its children are the complete moves tried from it. The line
// shown is the path from the root to the current node, continued through each node's `next`
// child (the one last visited), so stepping back and forward again finds the same moves.

export class Node {
  /** `position`: the position string; `move`/`seat`: the move that led here and who played it. */
  constructor(position, parent = null, move = null, seat = null) {
    this.position = position;
    this.parent = parent;
    this.move = move;
    this.seat = seat;
    this.children = [];
    this.next = null; // the child the line continues through
    this.state = null; // the State of `position`, once fetched
    this.values = null; // searched values per seat of this position, once known
    this.netValues = null; // the network's own values of it
    this.sims = 0; // the simulations behind `values`
    this.comment = '';
  }

  /** The child reached by `move`, made (with `position`) if it is new; it becomes `next`. */
  child(move, seat, position) {
    let c = this.children.find((n) => n.move === move);
    if (!c) {
      c = new Node(position, this, move, seat);
      this.children.push(c);
    }
    this.next = c;
    return c;
  }

  /** The nodes from the root to this one, the root first. */
  path() {
    const nodes = [];
    for (let n = this; n; n = n.parent) nodes.push(n);
    return nodes.reverse();
  }

  /** How many moves from the root. */
  get ply() {
    let k = 0;
    for (let n = this.parent; n; n = n.parent) k += 1;
    return k;
  }
}

export class GameTree {
  /** A tree whose root is `position` (with its State, when known). */
  constructor(position, state = null) {
    this.root = new Node(position);
    this.root.state = state;
    this.current = this.root;
  }

  /** The line shown: the root, the path to the current node, then its `next` continuation. */
  line() {
    const nodes = this.current.path();
    for (let n = this.current.next; n; n = n.next) nodes.push(n);
    return nodes;
  }

  /** Makes `node` current, and the line through it the one that continues from its ancestors. */
  goto(node) {
    for (let n = node; n.parent; n = n.parent) n.parent.next = n;
    this.current = node;
  }

  /** Plays `move` from the current node: the existing child or a new branch. */
  play(move, seat, position) {
    this.current = this.current.child(move, seat, position);
    return this.current;
  }

  /** Takes `node` and everything below it out of the tree (Undo). */
  remove(node) {
    const parent = node.parent;
    if (!parent) return;
    parent.children = parent.children.filter((c) => c !== node);
    if (parent.next === node) parent.next = parent.children[0] ?? null;
  }

  /** The last move of each seat on the path to the current node: {seat: [cells...]}. */
  lastBySeat() {
    const last = new Map();
    for (const n of this.current.path()) if (n.move !== null) last.set(n.seat, n.move);
    return last;
  }
}
