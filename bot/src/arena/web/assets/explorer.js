// The opening explorer: from any position of the self-play statistics, the moves played, their
// games, White / draw / Black bars, White's score with its 95% interval and the mean evaluation;
// a click on a move goes on.
'use strict';

(() => {
  const $ = (id) => document.getElementById(id);
  let line = [];
  let data = null;
  const board = new Board($('board'), () => {});
  board.interactive = false;

  function bar(m) {
    const total = m.white + m.draws + m.black;
    const pct = (n) => (total ? (100 * n) / total : 0);
    const seg = (cls, n) => Arena.el('span', { class: `seg ${cls}`, 'data-width': pct(n).toFixed(1) }, pct(n) >= 12 ? `${Math.round(pct(n))}%` : '');
    const b = Arena.el('div', { class: 'bar' }, seg('w', m.white), seg('d', m.draws), seg('b', m.black));
    return b;
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

  async function go(next) {
    const variant = $('variant').value;
    const q = new URLSearchParams({ variant, play: next.join(',') });
    let d;
    try { d = await Arena.get(`/api/arena/explorer?${q}`); } catch (e) { $('summary').textContent = e.message; return; }
    line = next;
    data = d;
    history.replaceState(null, '', `?variant=${encodeURIComponent(variant)}&play=${encodeURIComponent(line.join(','))}`);
    board.set(d.board);
    $('line').replaceChildren(...(d.line.length ? d.line.map((san, i) => Arena.el('button', { type: 'button', class: 'ply', onclick: () => go(line.slice(0, i + 1)) }, `${i % 2 === 0 ? `${i / 2 + 1}.` : ''}${san}`)) : [Arena.el('span', { class: 'hint' }, 'Start position')]));
    const p = d.position;
    $('summary').textContent = `${p.games} games · White ${p.white} · draws ${p.draws} · Black ${p.black}${p.score === null || p.score === undefined ? '' : ` · White's score ${score(p)}`}${p.evalCp === null || p.evalCp === undefined ? '' : ` · eval ${(p.evalCp / 100).toFixed(2)}`}`;
    const body = $('moves').querySelector('tbody');
    body.replaceChildren(...d.moves.map((m) => Arena.el('tr', { class: 'move', 'data-uci': m.uci, onclick: () => go([...line, m.uci]) },
      Arena.el('td', {}, Arena.el('a', { href: '#', onclick: (e) => e.preventDefault() }, m.san)),
      Arena.el('td', {}, String(m.games)),
      Arena.el('td', {}, bar(m)),
      Arena.el('td', {}, score(m)),
      Arena.el('td', {}, m.evalCp === null || m.evalCp === undefined ? '–' : (m.evalCp / 100).toFixed(2)))));
    if (!d.moves.length) body.append(Arena.el('tr', {}, Arena.el('td', { colspan: 5 }, 'No game went on from here.')));
    sizeBars();
  }

  async function init() {
    let list;
    try { list = await Arena.get('/api/arena/explorer'); } catch (e) { $('summary').textContent = e.message; return; }
    const select = $('variant');
    select.replaceChildren(...list.variants.map((v) => Arena.el('option', { value: v.key }, v.name)));
    if (!list.variants.length) {
      $('summary').textContent = 'This arena has no opening statistics: start it with --openings DIR (the output of trainer openings).';
      return;
    }
    const params = new URLSearchParams(location.search);
    if (params.get('variant') && list.variants.some((v) => v.key === params.get('variant'))) select.value = params.get('variant');
    select.addEventListener('change', () => go([]));
    $('start').addEventListener('click', () => go([]));
    $('back').addEventListener('click', () => go(line.slice(0, -1)));
    $('flip').addEventListener('click', () => board.flip());
    go((params.get('play') || '').split(',').filter(Boolean));
  }

  init();
})();
