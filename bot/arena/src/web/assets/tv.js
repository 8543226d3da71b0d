// Watch: every bot game in progress as a small live board with both clocks (ticking) and the
// number of people watching; new games appear, finished ones go.
'use strict';

(() => {
  const grid = document.getElementById('tv');
  const cards = new Map(); // game id -> { card, board, stop }

  async function show(id) {
    const v = await Arena.get(`/api/arena/game/${encodeURIComponent(id)}/view`);
    const c = cards.get(id);
    if (!c) return;
    c.board.set(v.board);
    c.view = v;
    c.fetchedAt = performance.now();
    const side = (color) => Arena.el('span', { class: `tv-player ${color}` }, Arena.playerName(v[color]), Arena.el('span', { class: 'clock', 'data-color': color }));
    c.names.replaceChildren(side('white'), side('black'));
    c.info.replaceChildren(
      `${v.variant.name} · ${v.san.length} plies${v.status === 'started' ? '' : ' · ' + Arena.resultText(v)}`,
      Arena.el('span', { class: 'watching', title: 'people watching' }, `${v.spectators} watching`));
    c.card.dataset.plies = v.san.length;
    tick(c);
  }

  // The clocks of a card, counting down on the side to move.
  function tick(c) {
    const v = c.view;
    if (!v) return;
    for (const el of c.names.querySelectorAll('.clock')) {
      const color = el.dataset.color;
      if (!v.clock) { el.textContent = v.days ? `${v.days} d` : ''; continue; }
      let ms = v.clocks[color];
      const running = v.status === 'started' && v.clocks.running === color;
      if (running) ms -= performance.now() - c.fetchedAt;
      el.textContent = Arena.clock(ms);
      el.classList.toggle('running', running);
    }
  }

  function add(g) {
    const boardEl = Arena.el('div', { class: 'board' });
    const names = Arena.el('div', { class: 'names' });
    const info = Arena.el('div', { class: 'hint' });
    const card = Arena.el('a', { href: `/${g.id}`, class: 'tv-card', 'data-game': g.id }, names, boardEl, info);
    grid.append(card);
    const board = new Board(boardEl, () => {});
    board.interactive = false;
    const entry = { card, board, names, info, stop: null, view: null, fetchedAt: 0 };
    cards.set(g.id, entry);
    entry.stop = Arena.stream(`/api/stream/game/${encodeURIComponent(g.id)}`, () => show(g.id).catch(() => {}), () => {});
    show(g.id).catch(() => {});
  }

  async function refresh() {
    let lobby;
    try { lobby = await Arena.get('/api/arena/lobby'); } catch (e) { return; }
    const bots = lobby.playing.filter((g) => g.white.bot || g.black.bot);
    const live = new Set(bots.map((g) => g.id));
    for (const g of bots) if (!cards.has(g.id)) add(g);
    for (const [id, c] of cards) {
      if (!live.has(id) && c.card.dataset.finishedAt && Date.now() - c.card.dataset.finishedAt > 15000) {
        c.stop();
        c.card.remove();
        cards.delete(id);
      } else if (!live.has(id) && !c.card.dataset.finishedAt) {
        c.card.dataset.finishedAt = Date.now();
      }
    }
    if (!cards.size && !grid.querySelector('.hint')) grid.append(Arena.el('p', { class: 'hint empty' }, 'No bot game in progress.'));
    if (cards.size) grid.querySelectorAll('.empty').forEach((e) => e.remove());
  }

  refresh();
  setInterval(refresh, 4000);
  // The number watching changes without a move: read again now and then.
  setInterval(() => { for (const id of cards.keys()) show(id).catch(() => {}); }, 10000);
  setInterval(() => { for (const c of cards.values()) tick(c); }, 200);
})();
