// The game page: plays (the signed-in player's moves through the Board API) and watches (the
// public game stream), with clocks that tick, the SAN move list with navigation, offers and
// the result. Every change the streams announce is read back from the arena's game view.
'use strict';

(() => {
  const root = document.getElementById('game');
  const id = root.dataset.game;
  const $ = (sel) => document.getElementById(sel);
  let view = null;
  let fetchedAt = 0;
  let viewing = null; // a ply number while looking back, null when following the game
  let orientation = null;
  let stopStream = null;
  let streamOpened = false;
  let refreshing = null;
  let pending = false;

  const board = new Board($('board'), (uci) => play(uci));

  function base() { return `/api/board/game/${encodeURIComponent(id)}`; }

  async function play(uci) {
    try {
      await Arena.post(`${base()}/move/${encodeURIComponent(uci)}`);
    } catch (e) {
      flash(`Move refused: ${e.message}`);
    }
    refresh();
  }

  async function act(path) {
    try { await Arena.post(`${base()}/${path}`); } catch (e) { flash(e.message); }
    refresh();
  }

  function flash(text) { $('offer').textContent = text; }

  async function load() {
    const q = viewing === null ? '' : `?ply=${viewing}`;
    const v = await Arena.get(`/api/arena/game/${encodeURIComponent(id)}/view${q}`);
    view = v;
    fetchedAt = performance.now();
    if (!orientation) {
      // For the page's figures (docs/benchmarks.md): when the first board is drawn.
      queueMicrotask(() => performance.mark('first-board'));
      orientation = v.you === 'black' ? 'black' : 'white';
      if (v.you) { $('chat').hidden = false; loadChat(); }
    }
    render();
    if (!streamOpened && v.status === 'started') { streamOpened = true; openStream(); }
  }

  function refresh() {
    if (refreshing) { pending = true; return refreshing; }
    refreshing = load().catch((e) => flash(e.message)).finally(() => {
      refreshing = null;
      if (pending) { pending = false; refresh(); }
    });
    return refreshing;
  }

  function openStream() {
    const mine = view && view.you;
    const path = mine ? `/api/board/game/stream/${encodeURIComponent(id)}` : `/api/stream/game/${encodeURIComponent(id)}`;
    stopStream = Arena.stream(path, (line) => {
      if (line.type === 'chatLine') { addChat(line); return; }
      refresh();
    }, () => {
      stopStream = null;
      // Closed (the game ended, or the connection dropped): read the game again, and come back
      // after a pause while it goes on.
      refresh().then(() => {
        if (view && view.status === 'started') setTimeout(() => { if (!stopStream) openStream(); }, 1500);
      });
    });
  }

  // The players' chat: text only, never markup.
  function addChat(line) {
    const lines = $('chat-lines');
    lines.append(Arena.el('div', { class: 'line' }, Arena.el('b', { class: 'who' }, line.username), ' ', Arena.el('span', { class: 'text' }, line.text)));
    lines.scrollTop = lines.scrollHeight;
  }

  async function loadChat() {
    try {
      const lines = await Arena.get(`${base()}/chat`);
      $('chat-lines').replaceChildren();
      (lines || []).forEach(addChat);
    } catch (e) { /* not a player: no chat */ }
  }

  $('chat-form').addEventListener('submit', async (e) => {
    e.preventDefault();
    const text = $('chat-text').value.trim();
    if (!text) return;
    try { await Arena.post(`${base()}/chat`, { room: 'player', text }); $('chat-text').value = ''; } catch (err) { flash(err.message); }
  });

  function clockMs(color) {
    const c = view.clocks;
    let ms = c[color];
    if (c.running === color && view.status === 'started') ms -= performance.now() - fetchedAt;
    return ms;
  }

  function renderClocks() {
    if (!view) return;
    const top = orientation === 'white' ? 'black' : 'white';
    for (const [elId, color] of [['player-top', top], ['player-bottom', top === 'white' ? 'black' : 'white']]) {
      const clock = $(elId).querySelector('.clock');
      if (!view.clock && !view.days) { clock.textContent = ''; continue; }
      const ms = clockMs(color);
      clock.textContent = view.days ? `${Math.floor(ms / 3600000)} h` : Arena.clock(ms);
      clock.classList.toggle('running', view.clocks.running === color && view.status === 'started');
      clock.classList.toggle('low', view.status === 'started' && ms < 10000 && !view.days);
    }
  }

  function render() {
    const v = view;
    const top = orientation === 'white' ? 'black' : 'white';
    const bottom = top === 'white' ? 'black' : 'white';
    $('player-top').querySelector('.name').textContent = Arena.playerName(v[top]);
    $('player-bottom').querySelector('.name').textContent = Arena.playerName(v[bottom]);
    board.interactive = v.you && viewing === null && v.status === 'started';
    board.set(v.board, orientation);
    renderClocks();
    const clock = v.clock ? `${v.clock.initial / 60000}+${v.clock.increment / 1000}` : v.days ? `${v.days} days` : 'unlimited';
    $('meta').replaceChildren(
      Arena.el('div', {}, `${v.variant.name} · ${clock} · ${v.rated ? 'rated' : 'casual'}`),
      Arena.el('div', { class: 'hint' }, v.status === 'started' ? `${v.turn === 'white' ? 'White' : 'Black'} to move` : ''),
    );
    $('result').textContent = Arena.resultText(v);
    const moves = $('moves');
    moves.replaceChildren();
    const current = viewing === null ? v.san.length : viewing;
    v.san.forEach((san, i) => {
      if (i % 2 === 0) moves.append(Arena.el('span', { class: 'no' }, `${i / 2 + 1}.`));
      moves.append(Arena.el('span', {
        class: `mv${i + 1 === current ? ' current' : ''}`, 'data-ply': i + 1,
        onclick: () => goTo(i + 1),
      }, san));
    });
    if (viewing === null) moves.scrollTop = moves.scrollHeight;
    renderActions();
  }

  function renderActions() {
    const v = view;
    const mine = v.you;
    const running = v.status === 'started';
    const opp = mine === 'white' ? 'black' : 'white';
    $('actions').hidden = !mine || !running;
    $('abort').disabled = !v.abortable;
    $('resign').disabled = v.abortable;
    // The opponent left: claim the win or call it a draw (after the arena's waiting time).
    $('claim').hidden = !v.opponentGone;
    $('claim-draw').hidden = !v.opponentGone;
    const draw = $('draw');
    draw.textContent = v.drawOffer === opp ? 'Accept draw' : v.drawOffer === mine ? 'Draw offered' : 'Offer draw';
    draw.disabled = v.drawOffer === mine;
    const tb = $('takeback');
    tb.textContent = v.takebackOffer === opp ? 'Accept takeback' : v.takebackOffer === mine ? 'Takeback asked' : 'Takeback';
    tb.disabled = v.takebackOffer === mine || v.san.length === 0;
    const offer = $('offer');
    offer.replaceChildren();
    if (mine && running && v.drawOffer === opp) {
      offer.append('Your opponent offers a draw. ', Arena.el('button', { id: 'decline-draw', onclick: () => act('draw/no') }, 'Decline'));
    } else if (mine && running && v.takebackOffer === opp) {
      offer.append('Your opponent asks to take back. ', Arena.el('button', { id: 'decline-takeback', onclick: () => act('takeback/no') }, 'Decline'));
    }
  }

  function goTo(ply) {
    if (!view) return;
    const n = view.uci.length;
    ply = Math.max(0, Math.min(n, ply));
    viewing = ply === n ? null : ply;
    refresh();
  }

  const shown = () => (viewing === null ? (view ? view.uci.length : 0) : viewing);
  $('first').addEventListener('click', () => goTo(0));
  $('prev').addEventListener('click', () => goTo(shown() - 1));
  $('next').addEventListener('click', () => goTo(shown() + 1));
  $('last').addEventListener('click', () => goTo(Infinity));
  $('flip').addEventListener('click', () => { orientation = orientation === 'white' ? 'black' : 'white'; render(); });
  document.addEventListener('keydown', (e) => {
    if (e.target.closest('input, textarea, select')) return;
    if (e.key === 'ArrowLeft') goTo(shown() - 1);
    else if (e.key === 'ArrowRight') goTo(shown() + 1);
    else if (e.key === 'Home') goTo(0);
    else if (e.key === 'End') goTo(Infinity);
  });
  $('draw').addEventListener('click', () => act('draw/yes'));
  $('takeback').addEventListener('click', () => act('takeback/yes'));
  $('abort').addEventListener('click', () => act('abort'));
  $('resign').addEventListener('click', () => { if (confirm('Resign this game?')) act('resign'); });
  $('claim').addEventListener('click', () => act('claim-victory'));
  $('claim-draw').addEventListener('click', () => act('claim-draw'));
  setInterval(renderClocks, 100);
  refresh();
})();
