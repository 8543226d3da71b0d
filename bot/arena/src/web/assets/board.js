// The board of every variant: a grid of cells (holes left empty), citadels, the centre square
// and the All-Seeing Eye marked, pieces from the arena's SVG set, the last move and checks
// highlighted. Moves by click-click or drag, among the legal moves the server listed; where
// several moves share the two squares (promotions), a chooser lists them. The player's move is
// drawn at once (before the server has it; undone if refused), the others' slide in. While
// the opponent thinks, a premove (among the server's `premoves`) is kept and shown; a click
// beside it, a right click or Esc cancels it.
'use strict';

const SVG_NS = 'http://www.w3.org/2000/svg';
const SPRITE = '/assets/pieces.svg';
const DRAWN = new Set(['pawn', 'knight', 'bishop', 'rook', 'queen', 'king', 'princess', 'fortress', 'wizard', 'champion']);

function pieceSvg(p) {
  const svg = document.createElementNS(SVG_NS, 'svg');
  svg.setAttribute('viewBox', '0 0 100 100');
  svg.setAttribute('class', `piece ${p.color} ${p.kind}`);
  svg.setAttribute('data-piece', `${p.color} ${p.kind}`);
  const title = document.createElementNS(SVG_NS, 'title');
  title.textContent = `${p.color} ${p.name}`;
  svg.append(title);
  if (DRAWN.has(p.kind)) {
    const use = document.createElementNS(SVG_NS, 'use');
    use.setAttribute('href', `${SPRITE}#${p.kind}`);
    svg.append(use);
  } else {
    const c = document.createElementNS(SVG_NS, 'circle');
    c.setAttribute('cx', '50'); c.setAttribute('cy', '50'); c.setAttribute('r', '36'); c.setAttribute('stroke-width', '3');
    const t = document.createElementNS(SVG_NS, 'text');
    t.setAttribute('x', '50'); t.setAttribute('y', '66'); t.setAttribute('text-anchor', 'middle');
    t.textContent = p.letter;
    svg.append(c, t);
  }
  return svg;
}

class Board {
  constructor(root, onMove) {
    this.root = root;
    this.onMove = onMove;
    this.orientation = 'white';
    this.view = null;
    this.selected = null;
    this.drag = null;
    this.interactive = true;
    this.premove = null; // { from, to, uci }: played when the opponent's move comes, if legal
    this.onPremove = null; // told of a premove set or canceled
    this.optimisticMoves = false; // whether the player's moves are drawn before the server has them
    this.optimistic = null; // { fen, m }: such a move
    // Cells that take the focus and have names ("e4, white princess"), for the keyboard and
    // screen readers (the game page turns it on; see keyboardCells).
    this.keyboard = false;
    this.focusSq = null;
    root.addEventListener('keydown', (e) => this.key(e));
    root.addEventListener('pointerdown', (e) => this.down(e));
    root.addEventListener('contextmenu', (e) => { if (this.cancelPremove()) e.preventDefault(); });
    document.addEventListener('keydown', (e) => { if (e.key === 'Escape') this.cancelPremove(); });
    document.addEventListener('pointermove', (e) => this.move(e));
    document.addEventListener('pointerup', (e) => this.up(e));
    document.addEventListener('pointercancel', () => this.cancelDrag());
  }

  set(view, orientation) {
    this.view = view;
    if (orientation) this.orientation = orientation;
    if (this.selected && !this.targets(this.selected).length) this.selected = null;
    this.render();
  }

  // Cancels the premove (and a selection); whether there was one.
  cancelPremove() {
    if (!this.premove && !(this.selected && this.premovesOf().length)) return false;
    const had = !!this.premove;
    this.premove = null;
    this.selected = null;
    this.render();
    if (had && this.onPremove) this.onPremove(null);
    return true;
  }

  setPremove(from, to, uci) {
    this.premove = { from, to, uci: uci || null };
    this.render();
    if (this.onPremove) this.onPremove(this.premove);
  }

  // The player's move `m` (of the listed moves) drawn now; kept over redraws of the position
  // it was played in, until the server's next position comes (or undoMove).
  showMove(m) {
    if (!this.view) return;
    this.optimistic = { fen: this.view.fen, m };
    this.selected = null;
    this.placePiece(m);
    this.highlight();
  }

  undoMove() {
    if (!this.optimistic) return;
    this.optimistic = null;
    this.drawn = null;
    this.render();
  }

  placePiece(m) {
    const at = (sq) => this.root.querySelector(`[data-sq="${CSS.escape(sq)}"]`);
    const from = at(m.from);
    const to = at(m.to);
    const piece = from && from.querySelector('.piece');
    if (!piece || !to) return;
    to.querySelectorAll('.piece').forEach((p) => p.remove());
    if (m.promotion) { piece.remove(); to.append(pieceSvg(m.promotion)); } else to.append(piece);
    this.root.querySelectorAll('.cell.last, .cell.check').forEach((c) => c.classList.remove('last', 'check'));
    from.classList.remove('occupied');
    from.classList.add('last');
    to.classList.add('last', 'occupied');
  }

  // The last move's piece slides from its square to the new one (not the player's own move,
  // already drawn; not with reduced motion).
  animate(last) {
    if (!last || (window.matchMedia && matchMedia('(prefers-reduced-motion: reduce)').matches)) return;
    const at = (sq) => this.root.querySelector(`[data-sq="${CSS.escape(sq)}"]`);
    const from = at(last.from);
    const to = at(last.to);
    const piece = to && to.querySelector('.piece');
    if (!from || !piece) return;
    const a = from.getBoundingClientRect();
    const b = to.getBoundingClientRect();
    piece.style.transform = `translate(${a.left - b.left}px, ${a.top - b.top}px)`;
    piece.classList.add('anim');
    piece.getBoundingClientRect();
    requestAnimationFrame(() => { piece.style.transform = ''; });
    piece.addEventListener('transitionend', () => piece.classList.remove('anim'), { once: true });
  }
  // No board (a position that could not be set up).
  clear() {
    this.view = null;
    this.selected = null;
    this.drawn = null;
    this.root.replaceChildren();
  }

  flip() {
    this.orientation = this.orientation === 'white' ? 'black' : 'white';
    this.render();
  }

  movesOf() { return (!this.optimistic && this.interactive && this.view && this.view.moves) || []; }
  destsFrom(sq) { return this.movesOf().filter((m) => m.from === sq).map((m) => m.to); }
  premovesOf() { return (!this.optimistic && this.interactive && this.view && this.view.premoves) || []; }
  // Where the piece on `sq` may go: a move on the player's turn, else a premove.
  targets(sq) {
    const list = this.movesOf().length ? this.movesOf() : this.premovesOf();
    return list.filter((m) => m.from === sq).map((m) => m.to);
  }

  // Redraws the cells when the position or the orientation changed; otherwise only marks the
  // selection and its destinations on the cells already there (so a click never replaces the
  // element it lands on).
  render() {
    const v = this.view;
    if (!v) return;
    const key = `${this.orientation}|${v.fen}|${JSON.stringify(v.lastMove)}|${v.moves.length}`;
    if (key === this.drawn && this.root.childElementCount) { this.highlight(); return; }
    const mine = this.optimistic && this.optimistic.fen !== v.fen ? this.optimistic.m : null;
    if (this.optimistic && this.optimistic.fen !== v.fen) this.optimistic = null;
    const moved = this.drawnFen && this.drawnFen !== v.fen && this.drawnOrientation === this.orientation;
    this.drawn = key;
    this.drawnFen = v.fen;
    this.drawnOrientation = this.orientation;
    this.draw();
    if (this.optimistic) this.placePiece(this.optimistic.m);
    else if (moved && v.lastMove && !(mine && mine.from === v.lastMove.from && mine.to === v.lastMove.to)) this.animate(v.lastMove);
    this.highlight();
  }

  highlight() {
    const dests = new Set(this.selected ? this.targets(this.selected) : []);
    const pre = this.premove ? [this.premove.from, this.premove.to] : [];
    for (const cell of this.root.children) {
      const sq = cell.dataset.sq;
      cell.classList.toggle('selected', sq === this.selected);
      cell.classList.toggle('dest', dests.has(sq));
      cell.classList.toggle('premove', pre.includes(sq));
    }
    if (this.keyboard) this.nameCells(dests);
  }

  draw() {
    const v = this.view;
    const root = this.root;
    root.style.setProperty('--cols', v.width);
    root.style.setProperty('--rows', v.height);
    root.dataset.variant = v.variant;
    root.dataset.turn = v.turn;
    root.dataset.orientation = this.orientation;
    const holes = new Set(v.holes);
    const marks = new Map(v.marks.map((m) => [m.sq, m.mark]));
    const pieces = new Map(v.pieces.map((p) => [p.sq, p]));
    const check = new Set(v.check);
    const last = v.lastMove ? [v.lastMove.from, v.lastMove.to] : [];
    const frag = document.createDocumentFragment();
    const white = this.orientation === 'white';
    // The coordinates: a file's letter on its lowest cell, a rank's number on its leftmost,
    // passing over citadels (a letter there would cover the citadel's piece).
    const sqAt = (row, col) => v.files[white ? col : v.width - 1 - col] + ((white ? v.height - 1 - row : row) + 1);
    const citadel = (row, col) => marks.get(sqAt(row, col)) === 'citadel';
    const fileRow = [];
    for (let col = 0; col < v.width; col++) {
      let row = v.height - 1;
      while (row > 0 && citadel(row, col)) row--;
      fileRow.push(row);
    }
    const rankCol = [];
    for (let row = 0; row < v.height; row++) {
      let col = 0;
      while (col < v.width - 1 && citadel(row, col)) col++;
      rankCol.push(col);
    }
    for (let row = 0; row < v.height; row++) {
      const rank = white ? v.height - 1 - row : row;
      for (let col = 0; col < v.width; col++) {
        const file = white ? col : v.width - 1 - col;
        const sq = v.files[file] + (rank + 1);
        const cell = document.createElement('div');
        const cls = ['cell'];
        if (holes.has(sq)) cls.push('hole');
        else {
          cls.push((file + rank) % 2 === 0 ? 'dark' : 'light');
          const mark = marks.get(sq);
          if (mark) cls.push(mark);
          if (last.includes(sq)) cls.push('last');
          if (check.has(sq)) cls.push('check');
          if (pieces.has(sq)) cls.push('occupied');
        }
        cell.className = cls.join(' ');
        cell.dataset.sq = sq;
        if (row === fileRow[col]) cell.append(Arena.el('span', { class: 'coord file' }, v.files[file]));
        if (col === rankCol[row]) cell.append(Arena.el('span', { class: 'coord rank' }, String(rank + 1)));
        if (marks.get(sq) === 'eye') {
          const eye = document.createElementNS(SVG_NS, 'svg');
          eye.setAttribute('viewBox', '0 0 100 100');
          eye.setAttribute('class', 'eye-mark');
          const use = document.createElementNS(SVG_NS, 'use');
          use.setAttribute('href', `${SPRITE}#eye`);
          eye.append(use);
          cell.append(eye);
        }
        const p = pieces.get(sq);
        if (p) cell.append(pieceSvg(p));
        frag.append(cell);
      }
    }
    const hadFocus = root.contains(document.activeElement);
    root.replaceChildren(frag);
    if (this.keyboard) this.keyboardCells(hadFocus);
  }

  // Keyboard and screen readers: the board is a group of cells that are buttons, each named by
  // its square and piece; one takes the Tab (the last focused, else the first), the arrow keys
  // move between them as they are drawn, Enter or Space selects a piece and plays it (as a
  // click does). Holes are hidden from them. The focus stays on its square across redraws.
  keyboardCells(hadFocus) {
    const root = this.root;
    root.setAttribute('role', 'group');
    if (!root.getAttribute('aria-label') || root.getAttribute('aria-label') === 'board') root.setAttribute('aria-label', 'Board');
    const cells = [...root.children];
    for (const cell of cells) {
      if (cell.classList.contains('hole')) { cell.setAttribute('aria-hidden', 'true'); continue; }
      cell.setAttribute('role', 'button');
      cell.tabIndex = -1;
    }
    const usable = cells.filter((c) => !c.classList.contains('hole'));
    const keep = usable.find((c) => c.dataset.sq === this.focusSq) || usable[0];
    if (keep) {
      keep.tabIndex = 0;
      if (hadFocus) keep.focus();
    }
  }

  nameCells(dests) {
    const pieces = new Map(((this.view && this.view.pieces) || []).map((p) => [p.sq, p]));
    for (const cell of this.root.children) {
      if (cell.classList.contains('hole')) continue;
      const sq = cell.dataset.sq;
      const p = pieces.get(sq);
      let name = p ? `${sq}, ${p.color} ${p.name}` : sq;
      if (sq === this.selected) name += ', selected';
      else if (dests.has(sq)) name += ', a move goes here';
      cell.setAttribute('aria-label', name);
    }
  }

  key(e) {
    if (!this.keyboard || !this.view) return;
    const cell = e.target.closest && e.target.closest('.cell');
    if (!cell || !this.root.contains(cell)) return;
    const cells = [...this.root.children];
    const at = cells.indexOf(cell);
    const width = this.view.width;
    const steps = { ArrowLeft: -1, ArrowRight: 1, ArrowUp: -width, ArrowDown: width };
    let next = null;
    if (e.key in steps) {
      // The next cell that is not a hole, that way, on the same row for left and right.
      const row = Math.floor(at / width);
      for (let i = at + steps[e.key]; i >= 0 && i < cells.length; i += steps[e.key]) {
        if (Math.abs(steps[e.key]) === 1 && Math.floor(i / width) !== row) break;
        if (!cells[i].classList.contains('hole')) { next = cells[i]; break; }
      }
      e.preventDefault();
      e.stopPropagation();
    } else if (e.key === 'Home' || e.key === 'End') {
      const usable = cells.filter((c) => !c.classList.contains('hole'));
      next = e.key === 'Home' ? usable[0] : usable[usable.length - 1];
      e.preventDefault();
      e.stopPropagation();
    } else if (e.key === 'Enter' || e.key === ' ') {
      e.preventDefault();
      e.stopPropagation();
      this.pressCell(cell.dataset.sq);
      return;
    }
    if (next) {
      cell.tabIndex = -1;
      next.tabIndex = 0;
      this.focusSq = next.dataset.sq;
      next.focus();
    }
  }

  // A cell chosen from the keyboard: as a click (select a piece, play or premove it to a
  // destination, let it go).
  pressCell(sq) {
    this.focusSq = sq;
    if (this.selected && this.targets(this.selected).includes(sq)) {
      const from = this.selected;
      this.selected = null;
      this.choose(from, sq);
      return;
    }
    if (this.premove) this.cancelPremove();
    this.selected = this.targets(sq).length && this.selected !== sq ? sq : null;
    this.render();
  }

  cellAt(x, y) {
    const t = document.elementFromPoint(x, y);
    return t && t.closest ? t.closest('.board .cell') : null;
  }

  down(e) {
    const cell = e.target.closest('.cell');
    if (!cell || !this.view) return;
    const sq = cell.dataset.sq;
    if (e.button === 2) { this.cancelPremove(); return; }
    if (this.selected && this.targets(this.selected).includes(sq)) {
      const from = this.selected;
      this.selected = null;
      // No mouse events after this pointer press: they would take the focus from the chooser.
      e.preventDefault();
      this.choose(from, sq);
      return;
    }
    if (this.premove) this.cancelPremove();
    if (this.targets(sq).length) {
      this.selected = sq;
      this.drag = { sq, x: e.clientX, y: e.clientY, started: false, ghost: null };
      this.render();
      e.preventDefault();
    } else if (this.selected) {
      this.selected = null;
      this.render();
    }
  }

  move(e) {
    const d = this.drag;
    if (!d) return;
    if (!d.started && Math.hypot(e.clientX - d.x, e.clientY - d.y) < 5) return;
    if (!d.started) {
      d.started = true;
      const cell = this.root.querySelector(`[data-sq="${d.sq}"]`);
      const piece = cell && cell.querySelector('.piece');
      if (!piece) { this.drag = null; return; }
      cell.classList.add('dragging');
      d.ghost = Arena.el('div', { class: 'ghost' });
      d.ghost.append(piece.cloneNode(true));
      const size = cell.getBoundingClientRect().width;
      d.ghost.style.width = d.ghost.style.height = `${size}px`;
      document.body.append(d.ghost);
    }
    d.ghost.style.left = `${e.clientX}px`;
    d.ghost.style.top = `${e.clientY}px`;
  }

  up(e) {
    const d = this.drag;
    if (!d) return;
    this.drag = null;
    if (!d.started) return;
    if (d.ghost) d.ghost.remove();
    this.root.querySelectorAll('.dragging').forEach((c) => c.classList.remove('dragging'));
    const cell = this.cellAt(e.clientX, e.clientY);
    const to = cell && cell.dataset.sq;
    if (to && to !== d.sq && this.targets(d.sq).includes(to)) {
      this.selected = null;
      this.choose(d.sq, to);
    } else {
      this.render();
    }
  }

  cancelDrag() {
    if (this.drag && this.drag.ghost) this.drag.ghost.remove();
    this.root.querySelectorAll('.dragging').forEach((c) => c.classList.remove('dragging'));
    this.drag = null;
    this.render();
  }

  // The move from `from` to `to`: played at once when it is the only one, else chosen in a
  // dialog: the pieces of a promotion (else the moves' SAN), one button each, the first
  // focused; arrow keys move between them, Enter or Space chooses, Esc or a click beside
  // closes it.
  choose(from, to) {
    if (!this.movesOf().length && this.premovesOf().some((m) => m.from === from && m.to === to)) {
      this.setPremove(from, to);
      return;
    }
    const options = this.movesOf().filter((m) => m.from === from && m.to === to);
    this.render();
    if (options.length === 1) { this.play(options[0]); return; }
    if (!options.length) return;
    const box = Arena.el('div', { class: 'box', role: 'dialog', 'aria-modal': 'true', 'aria-label': 'Choose the move' });
    const overlay = Arena.el('div', { class: 'chooser', id: 'move-chooser' }, box);
    const back = document.activeElement;
    const close = () => {
      overlay.remove();
      document.removeEventListener('keydown', keys, true);
      if (back && back.focus) back.focus();
    };
    const buttons = options.map((m) => {
      const label = m.promotion ? `${m.promotion.name} (${m.san})` : m.san;
      const b = Arena.el('button', {
        type: 'button', class: m.promotion ? 'piece-choice' : 'san-choice', 'data-uci': m.uci, title: label, 'aria-label': label,
        onclick: () => { close(); this.play(m); },
      });
      if (m.promotion) b.append(pieceSvg(m.promotion));
      else b.append(m.san);
      return b;
    });
    const cancel = Arena.el('button', { type: 'button', class: 'cancel', onclick: close }, 'Cancel');
    box.append(...buttons, cancel);
    const all = [...buttons, cancel];
    const keys = (e) => {
      const i = all.indexOf(document.activeElement);
      let next = null;
      if (e.key === 'Escape') { e.preventDefault(); e.stopPropagation(); close(); return; }
      if (e.key === 'ArrowRight' || e.key === 'ArrowDown') next = all[(i + 1) % all.length];
      else if (e.key === 'ArrowLeft' || e.key === 'ArrowUp') next = all[(i - 1 + all.length) % all.length];
      else if (e.key === 'Home') next = all[0];
      else if (e.key === 'End') next = all[all.length - 1];
      else if (e.key === 'Tab') next = all[(i + (e.shiftKey ? all.length - 1 : 1)) % all.length];
      if (next) { e.preventDefault(); e.stopPropagation(); next.focus(); }
    };
    document.addEventListener('keydown', keys, true);
    overlay.addEventListener('pointerdown', (e) => { if (e.target === overlay) close(); });
    document.body.append(overlay);
    buttons[0].focus();
    // A drag ends with a pointer release whose default action may move the focus: again after it.
    setTimeout(() => { if (overlay.isConnected && !box.contains(document.activeElement)) buttons[0].focus(); }, 0);
  }

  // A move of the list: drawn at once, then handed to the page.
  play(m) {
    if (this.optimisticMoves) this.showMove(m);
    this.onMove(m.uci, m);
  }
}
