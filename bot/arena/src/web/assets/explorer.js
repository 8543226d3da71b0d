// The opening explorer: from any position, the arena's finished games through it (by position,
// so that move orders meet; filtered by speed and mean rating; the newest games linked) and,
// where the arena has them, the self-play statistics of the line; a click on a move goes on.
'use strict';

(() => {
  const $ = (id) => document.getElementById(id);
  let fen = '';
  let line = [];
  let trees = new Set();
  const board = new Board($('board'), () => {});
  board.interactive = false;

  function bar(m) {
    const total = m.white + m.draws + m.black;
    const pct = (n) => (total ? (100 * n) / total : 0);
    const seg = (cls, n, who) => Arena.el('span', { class: `seg ${cls}`, 'data-width': pct(n).toFixed(1), title: `${who} ${Math.round(pct(n))}%` }, pct(n) >= 12 ? `${Math.round(pct(n))}%` : '');
    return Arena.el('div', { class: 'bar', role: 'img', 'aria-label': `White wins ${m.white}, draws ${m.draws}, Black wins ${m.black}` },
      seg('w', m.white, 'White'), seg('d', m.draws, 'draws'), seg('b', m.black, 'Black'));
  }

  function score(m) {
    if (m.score === null || m.score === undefined) return '–';
    const ci = m.scoreLow === null || m.scoreLow === undefined ? '' : ` (${m.scoreLow.toFixed(1)}–${m.scoreHigh.toFixed(1)})`;
    return `${m.score.toFixed(1)}%${ci}`;
  }

  function sizeBars() {
    // Widths set from script (a style attribute would need 'unsafe-inline' in the CSP).
    document.querySelectorAll('.bar .seg').forEach((s) => { s.style.width = `${s.dataset.width}%`; });
  }

  // The query of the games filter: the speeds ticked (all: no filter) and the rating bounds.
  function filterQuery() {
    const boxes = [...document.querySelectorAll('#games-filter input[name=speed]')];
    const ticked = boxes.filter((b) => b.checked).map((b) => b.value);
    const q = {};
    if (!ticked.length) return null;
    if (ticked.length !== boxes.length) q.speeds = ticked.join(',');
    if ($('min-rating').value) q.minRating = $('min-rating').value;
    if ($('max-rating').value) q.maxRating = $('max-rating').value;
    return q;
  }

  const moveButton = (san, uci) => Arena.el('button', { type: 'button', class: 'link', 'data-uci': uci, onclick: (e) => { e.stopPropagation(); go([...line, uci]); } }, san);

  function showGames(d) {
    $('games-summary').textContent = d.games
      ? `${d.games} game${d.games === 1 ? '' : 's'} reached this position · White ${d.white} · draws ${d.draws} · Black ${d.black}`
      : 'No game of the arena (with this filter) reached this position.';
    const body = $('games-moves').querySelector('tbody');
    body.replaceChildren(...d.moves.map((m) => Arena.el('tr', { class: 'move', 'data-uci': m.uci, onclick: () => go([...line, m.uci]) },
      Arena.el('td', {}, moveButton(m.san, m.uci)),
      Arena.el('td', {}, String(m.games)),
      Arena.el('td', {}, bar(m)),
      Arena.el('td', {}, m.averageRating === null || m.averageRating === undefined ? '–' : String(m.averageRating)))));
    if (!d.moves.length) body.append(Arena.el('tr', {}, Arena.el('td', { colspan: 4 }, 'No game went on from here.')));
    const result = (g) => (g.winner === 'white' ? '1-0' : g.winner === 'black' ? '0-1' : '½-½');
    const who = (p) => `${p.name}${p.rating ? ` (${p.rating})` : ''}`;
    $('recent-games').replaceChildren(...d.recentGames.map((g) => Arena.el('li', { 'data-game': g.id },
      Arena.el('a', { href: g.url }, `${who(g.white)} – ${who(g.black)}`),
      ` ${result(g)} · ${Arena.speedNames[g.speed] || g.speed}${g.san ? ` · played ${g.san} here` : ' · ended here'}`)));
    if (!d.recentGames.length) $('recent-games').append(Arena.el('li', { class: 'hint' }, 'None.'));
  }

  async function showTree(variant) {
    const section = $('selfplay');
    if (!trees.has(variant) || fen) {
      section.hidden = true;
      return;
    }
    section.hidden = false;
    let d;
    try { d = await Arena.get(`/api/arena/explorer?${new URLSearchParams({ variant, play: line.join(',') })}`); } catch (e) { $('summary').textContent = Arena.plain(e); return; }
    const p = d.position;
    $('summary').textContent = `${p.games} games · White ${p.white} · draws ${p.draws} · Black ${p.black}${p.score === null || p.score === undefined ? '' : ` · White's score ${score(p)}`}${p.evalCp === null || p.evalCp === undefined ? '' : ` · eval ${(p.evalCp / 100).toFixed(2)}`}`;
    const body = $('moves').querySelector('tbody');
    body.replaceChildren(...d.moves.map((m) => Arena.el('tr', { class: 'move', 'data-uci': m.uci, onclick: () => go([...line, m.uci]) },
      Arena.el('td', {}, moveButton(m.san, m.uci)),
      Arena.el('td', {}, String(m.games)),
      Arena.el('td', {}, bar(m)),
      Arena.el('td', {}, score(m)),
      Arena.el('td', {}, m.evalCp === null || m.evalCp === undefined ? '–' : (m.evalCp / 100).toFixed(2)))));
    if (!d.moves.length) body.append(Arena.el('tr', {}, Arena.el('td', { colspan: 5 }, 'No game went on from here.')));
  }

  async function go(next) {
    const variant = $('variant').value;
    // No speed ticked: no game counts (the board is still looked up).
    const filter = filterQuery();
    const q = new URLSearchParams({ variant, fen, play: next.join(','), ...(filter || {}) });
    let d;
    try { d = await Arena.get(`/api/arena/explorer/games?${q}`); } catch (e) {
      $('fen-error').hidden = false;
      $('fen-error').textContent = Arena.plain(e);
      return;
    }
    $('fen-error').hidden = true;
    line = next;
    const url = new URLSearchParams({ variant });
    if (fen) url.set('fen', fen);
    if (line.length) url.set('play', line.join(','));
    history.replaceState(null, '', `?${url}`);
    board.set(d.board);
    const first = fen ? '' : 'Start position';
    $('line').replaceChildren(...(d.line.length ? d.line.map((san, i) => Arena.el('button', { type: 'button', class: 'ply', onclick: () => go(line.slice(0, i + 1)) }, `${i % 2 === 0 && !fen ? `${i / 2 + 1}.` : ''}${san}`)) : [Arena.el('span', { class: 'hint' }, first || 'The position of the FEN')]));
    $('board').dataset.fen = d.fen;
    showGames(filter ? d : { games: 0, white: 0, draws: 0, black: 0, moves: [], recentGames: [] });
    await showTree(variant);
    sizeBars();
  }

  async function init() {
    let list;
    try { list = await Arena.get('/api/arena/explorer'); } catch (e) { $('games-summary').textContent = Arena.plain(e); return; }
    trees = new Set(list.variants.map((v) => v.key));
    const select = $('variant');
    select.replaceChildren(...list.arena.map((v) => Arena.el('option', { value: v.key }, `${v.name}${v.games ? ` (${v.games})` : ''}`)));
    const params = new URLSearchParams(location.search);
    const wanted = params.get('variant') || (list.variants[0] && list.variants[0].key);
    if (wanted && list.arena.some((v) => v.key === wanted)) select.value = wanted;
    fen = params.get('fen') || '';
    $('fen').value = fen;
    select.addEventListener('change', () => { fen = ''; $('fen').value = ''; go([]); });
    $('start').addEventListener('click', () => go([]));
    $('back').addEventListener('click', () => go(line.slice(0, -1)));
    $('flip').addEventListener('click', () => board.flip());
    $('fen-form').addEventListener('submit', (e) => {
      e.preventDefault();
      const before = fen;
      fen = $('fen').value.trim();
      go([]).then(() => { if ($('fen-error').hidden === false) fen = before; });
    });
    $('games-filter').addEventListener('change', () => go(line));
    $('games-filter').addEventListener('submit', (e) => { e.preventDefault(); go(line); });
    go((params.get('play') || '').split(',').filter(Boolean));
  }

  init();
})();
