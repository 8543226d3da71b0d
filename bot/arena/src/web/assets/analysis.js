// The analysis board: a position set up from a FEN or a pasted PGN, a line of moves played on
// the board with a cursor (a click on a move, the arrow keys, Home and End move it; the line is
// kept until another move is played from an earlier position, which starts a new line from
// there), and the engine's evaluation and best line of the position shown, computed by the
// arena with bounded nodes.
'use strict';

(() => {
  const $ = (id) => document.getElementById(id);
  let variant = $('variant').value;
  let fen = '';
  let line = []; // the moves of the line, UCI
  let cursor = 0; // how many of them the board shows
  let sans = []; // the SAN of each move of the line
  let valid = false; // the set-up position is one (a bad FEN: no board, no analysis)
  let boards = new Map(); // cursor -> the position's answer, for the current line
  let lineKey = '';
  let shown = 0; // the latest show() (answers of earlier ones are dropped)
  const board = new Board($('board'), (uci) => play(uci));
  // Cells that take the focus and are named, played with the arrow keys and Enter.
  board.keyboard = true;

  function status(text, kind) {
    const s = $('status');
    s.textContent = text;
    s.className = `status${kind ? ` ${kind}` : ''}`;
  }

  const position = (moves) => Arena.get(`/api/arena/position?${new URLSearchParams({ variant, fen, moves: moves.join(',') })}`);

  function setValid(ok) {
    valid = ok;
    $('analyse').disabled = !ok;
    if (!ok) {
      board.clear();
      $('moves').replaceChildren();
      $('analysis').replaceChildren();
    }
  }

  // Shows the position at the cursor (reading the line's SAN when the line changed). A line
  // the arena refuses: `onRefused` says what to do (a bad set-up, or a move to undo).
  async function show(onRefused) {
    const seq = ++shown;
    const key = `${variant}|${fen}|${line.join(',')}`;
    let d;
    try {
      if (key !== lineKey) {
        const all = await position(line);
        if (seq !== shown) return;
        lineKey = key;
        sans = all.san;
        boards = new Map([[line.length, all]]);
      }
      d = boards.get(cursor);
      if (!d) {
        d = await position(line.slice(0, cursor));
        if (seq !== shown) return;
        boards.set(cursor, d);
      }
    } catch (e) {
      if (seq !== shown) return;
      if (onRefused) onRefused(e);
      else { setValid(false); status(Arena.plain(e), 'error'); }
      return;
    }
    setValid(true);
    status(d.outcome || '');
    board.set(d.board);
    renderMoves();
    $('analysis').replaceChildren();
    const params = new URLSearchParams({ variant, fen, moves: line.join(',') });
    if (cursor < line.length) params.set('ply', String(cursor));
    history.replaceState(null, '', `?${params}`);
  }

  function renderMoves() {
    const list = $('moves');
    list.replaceChildren();
    sans.forEach((san, i) => {
      if (i % 2 === 0) list.append(Arena.el('span', { class: 'no' }, `${i / 2 + 1}.`));
      list.append(Arena.el('span', { class: `mv${i + 1 === cursor ? ' current' : ''}`, 'data-ply': i + 1, onclick: () => go(i + 1) }, san));
    });
    const cur = list.querySelector('.mv.current');
    if (!cur) list.scrollTop = 0;
    else if (cur.offsetTop < list.scrollTop) list.scrollTop = Math.max(0, cur.offsetTop - 4);
    else if (cur.offsetTop + cur.offsetHeight > list.scrollTop + list.clientHeight) list.scrollTop = cur.offsetTop + cur.offsetHeight - list.clientHeight + 4;
  }

  function go(ply) {
    if (!valid) return;
    const next = Math.max(0, Math.min(line.length, ply));
    if (next === cursor) return;
    cursor = next;
    show();
  }

  // A move on the board: the line's own next move moves the cursor on; another one starts a
  // new line from here.
  function play(uci) {
    if (line[cursor] === uci) { cursor++; show(); return; }
    const before = { line, cursor };
    line = line.slice(0, cursor).concat(uci);
    cursor = line.length;
    show((e) => { line = before.line; cursor = before.cursor; status(Arena.plain(e), 'error'); show(); });
  }

  function setUp(newVariant, newFen, newLine, ply) {
    variant = newVariant;
    fen = newFen;
    line = newLine;
    cursor = Math.max(0, Math.min(line.length, ply === undefined ? line.length : ply));
    lineKey = '';
    show();
  }

  $('setup').addEventListener('submit', (e) => {
    e.preventDefault();
    setUp($('variant').value, $('fen').value.trim(), []);
  });

  $('pgn-form').addEventListener('submit', async (e) => {
    e.preventDefault();
    try {
      const d = await Arena.post('/api/arena/pgn', { pgn: $('pgn').value, variant: $('variant').value });
      $('variant').value = d.variant.key;
      $('fen').value = d.fen;
      setUp(d.variant.key, d.fen, d.moves);
    } catch (err) { status(Arena.plain(err), 'error'); }
  });

  $('first').addEventListener('click', () => go(0));
  $('prev').addEventListener('click', () => go(cursor - 1));
  $('next').addEventListener('click', () => go(cursor + 1));
  $('last').addEventListener('click', () => go(line.length));
  $('flip').addEventListener('click', () => board.flip());
  document.addEventListener('keydown', (e) => {
    if (e.target.closest('input, textarea, select, [role=dialog]') || e.altKey || e.ctrlKey || e.metaKey) return;
    const to = { ArrowLeft: cursor - 1, ArrowRight: cursor + 1, Home: 0, End: line.length }[e.key];
    if (to === undefined) return;
    e.preventDefault();
    go(to);
  });

  $('analyse').addEventListener('click', async () => {
    if (!valid) return;
    const out = $('analysis');
    out.replaceChildren(Arena.el('span', { class: 'hint' }, 'Thinking…'));
    try {
      const a = await Arena.post('/api/arena/analyse', { variant, fen, moves: line.slice(0, cursor).join(','), nodes: $('nodes').value });
      const score = a.mate !== null && a.mate !== undefined ? `#${a.mate}` : `${a.cp >= 0 ? '+' : ''}${(a.cp / 100).toFixed(2)}`;
      out.replaceChildren(
        Arena.el('div', { class: 'eval', id: 'eval' }, score),
        Arena.el('div', { id: 'best' }, `Best: ${a.best.san}`),
        Arena.el('div', { class: 'pv', id: 'pv' }, a.pv.join(' ')),
        Arena.el('div', { class: 'hint' }, `depth ${a.depth} · ${a.nodes} nodes (White's view)`),
      );
    } catch (err) {
      out.replaceChildren(Arena.el('span', { class: 'error', role: 'alert' }, Arena.plain(err)));
    }
  });

  const p = new URLSearchParams(location.search);
  if (p.get('variant')) $('variant').value = p.get('variant');
  if (p.get('fen')) $('fen').value = p.get('fen');
  const ply = p.get('ply') === null ? undefined : Number(p.get('ply')) || 0;
  setUp(p.get('variant') || $('variant').value, p.get('fen') || '', (p.get('moves') || '').split(',').filter(Boolean), ply);
})();
