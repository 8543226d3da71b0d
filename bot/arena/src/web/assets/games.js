// The game list: finished games (or games in progress), by player and variant; each opens the
// game page, where a finished game replays move by move.
'use strict';

(() => {
  const form = document.getElementById('filters');
  const body = document.getElementById('games').querySelector('tbody');

  async function load() {
    const f = new FormData(form);
    const q = new URLSearchParams();
    for (const k of ['user', 'variant', 'state']) if (f.get(k)) q.set(k, f.get(k));
    history.replaceState(null, '', `?${q}`);
    let list;
    try { list = await Arena.get(`/api/arena/games?${q}`); } catch (e) { body.replaceChildren(Arena.el('tr', {}, Arena.el('td', { colspan: 6, class: 'error' }, e.message))); return; }
    body.replaceChildren(...list.map((g) => Arena.el('tr', { 'data-game': g.id },
      Arena.el('td', {}, Arena.el('a', { href: `/${g.id}` }, g.id)),
      Arena.el('td', {}, Arena.playerName(g.white)), Arena.el('td', {}, Arena.playerName(g.black)),
      Arena.el('td', {}, g.variant.name), Arena.el('td', {}, Arena.resultText(g) || 'playing'), Arena.el('td', {}, String(g.plies)))));
    if (!list.length) body.append(Arena.el('tr', {}, Arena.el('td', { colspan: 6 }, 'No game.')));
  }

  const params = new URLSearchParams(location.search);
  for (const k of ['user', 'variant', 'state']) if (params.get(k) && form.elements[k]) form.elements[k].value = params.get(k);
  form.addEventListener('submit', (e) => { e.preventDefault(); load(); });
  load();
})();
