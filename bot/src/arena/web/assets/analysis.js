// The analysis board: a position set up from a FEN or a pasted PGN, moves played on the board,
// and the engine's evaluation and best line, computed by the arena with bounded nodes.
'use strict';

(() => {
  const $ = (id) => document.getElementById(id);
  let variant = $('variant').value;
  let fen = '';
  let moves = [];
  const board = new Board($('board'), (uci) => { moves.push(uci); show(); });

  const status = (t) => { $('status').textContent = t; };

  async function show() {
    const q = new URLSearchParams({ variant, fen, moves: moves.join(',') });
    let d;
    try { d = await Arena.get(`/api/arena/position?${q}`); } catch (e) { status(e.message); moves.pop(); return; }
    status(d.outcome || '');
    board.set(d.board);
    $('moves').replaceChildren();
    d.san.forEach((san, i) => {
      if (i % 2 === 0) $('moves').append(Arena.el('span', { class: 'no' }, `${i / 2 + 1}.`));
      $('moves').append(Arena.el('span', { class: 'mv', onclick: () => { moves = moves.slice(0, i + 1); show(); } }, san));
    });
    $('analysis').replaceChildren();
    const params = new URLSearchParams({ variant, fen, moves: moves.join(',') });
    history.replaceState(null, '', `?${params}`);
  }

  $('setup').addEventListener('submit', (e) => {
    e.preventDefault();
    variant = $('variant').value;
    fen = $('fen').value.trim();
    moves = [];
    show();
  });

  $('pgn-form').addEventListener('submit', async (e) => {
    e.preventDefault();
    try {
      const d = await Arena.post('/api/arena/pgn', { pgn: $('pgn').value, variant: $('variant').value });
      variant = d.variant.key;
      $('variant').value = variant;
      fen = d.fen;
      $('fen').value = fen;
      moves = d.moves;
      show();
    } catch (err) { status(err.message); }
  });

  $('back').addEventListener('click', () => { moves.pop(); show(); });
  $('flip').addEventListener('click', () => board.flip());
  $('analyse').addEventListener('click', async () => {
    const out = $('analysis');
    out.replaceChildren(Arena.el('span', { class: 'hint' }, 'Thinking…'));
    try {
      const a = await Arena.post('/api/arena/analyse', { variant, fen, moves: moves.join(','), nodes: $('nodes').value });
      const score = a.mate !== null && a.mate !== undefined ? `#${a.mate}` : `${a.cp >= 0 ? '+' : ''}${(a.cp / 100).toFixed(2)}`;
      out.replaceChildren(
        Arena.el('div', { class: 'eval', id: 'eval' }, score),
        Arena.el('div', { id: 'best' }, `Best: ${a.best.san}`),
        Arena.el('div', { class: 'pv', id: 'pv' }, a.pv.join(' ')),
        Arena.el('div', { class: 'hint' }, `depth ${a.depth} · ${a.nodes} nodes (White's view)`),
      );
    } catch (err) {
      out.replaceChildren(Arena.el('span', { class: 'error' }, err.message));
    }
  });

  const p = new URLSearchParams(location.search);
  if (p.get('variant')) { variant = p.get('variant'); $('variant').value = variant; }
  if (p.get('fen')) { fen = p.get('fen'); $('fen').value = fen; }
  if (p.get('moves')) moves = p.get('moves').split(',').filter(Boolean);
  show();
})();
