// The game page: plays (the signed-in player's moves through the Board API) and watches (the
// public game stream), with clocks that tick, the SAN move list with navigation (the clocks of
// the ply shown), offers and the result. Every change the streams announce is read back from
// the arena's game view. What happens (a refused move, a declined offer) is said in the notice
// line until the player's next action. The player's move is drawn at once; a premove is played
// when the opponent's move comes, if legal; sounds (sound.js, loaded at the first one) say
// moves, captures, checks, low time, the start and the end, unless muted.
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
  let claimTimer = null;
  const baseTitle = document.title;
  let rematch = null; // the id of our rematch challenge, once sent
  const startedGames = new Set(); // games the event stream said started (maybe before the POST's answer)
  const declinedOnes = new Map(); // challenge id -> the decline reason

  const board = new Board($('board'), (uci, m) => play(uci, m));
  board.optimisticMoves = true;
  board.keyboard = true;

  function base() { return `/api/board/game/${encodeURIComponent(id)}`; }

  // Sounds: sound.js is loaded at the first one; none while muted (kept in this browser).
  const SOUND_KEY = 'arena.sound';
  const muted = () => { try { return localStorage.getItem(SOUND_KEY) === 'off'; } catch (e) { return false; } };
  let soundLoad = null;
  function sfx(kind) {
    if (muted()) return;
    if (window.Sound) { Sound.play(kind); return; }
    if (!soundLoad) {
      soundLoad = new Promise((resolve) => {
        const sc = document.createElement('script');
        sc.src = '/assets/sound.js';
        sc.onload = resolve;
        document.head.append(sc);
      });
    }
    soundLoad.then(() => { if (window.Sound && !muted()) Sound.play(kind); });
  }
  const sanSound = (san) => (/[+#]$/.test(san) ? 'check' : san.includes('x') ? 'capture' : 'move');
  function showSound() {
    const b = $('sound');
    b.textContent = muted() ? 'Sound off' : 'Sound on';
    b.setAttribute('aria-pressed', String(!muted()));
  }
  $('sound').addEventListener('click', () => {
    try { localStorage.setItem(SOUND_KEY, muted() ? 'on' : 'off'); } catch (e) { /* this page only */ }
    showSound();
  });
  showSound();
  let lowSounded = false;

  async function play(uci, m) {
    if (m) sfx(sanSound(m.san));
    try {
      await Arena.post(`${base()}/move/${encodeURIComponent(uci)}`);
    } catch (e) {
      board.undoMove();
      const plain = Arena.plain(e);
      note(/^(Not your turn|Illegal move)/.test(e.message) ? plain : `Your move was not played: ${plain}`, 'error');
    }
    refresh();
  }

  async function act(path) {
    try { await Arena.post(`${base()}/${path}`); } catch (e) { note(Arena.plain(e), 'error'); }
    refresh();
  }

  // The notice line: an error (or news) stays until the player's next action.
  function note(text, kind) {
    const n = $('notice');
    n.textContent = text;
    n.className = `notice-line${kind ? ` ${kind}` : ''}`;
    n.setAttribute('role', kind === 'error' ? 'alert' : 'status');
  }
  const clearNote = () => { if ($('notice').textContent) note(''); };
  // Before the action itself runs (capture), so that what it says is shown.
  document.addEventListener('pointerdown', clearNote, true);
  document.addEventListener('keydown', (e) => { if (!['Shift', 'Control', 'Alt', 'Meta'].includes(e.key)) clearNote(); }, true);

  // Who made ply k (1-based) of the game `v`.
  function moverOf(v, k) {
    const last = v.turn === 'white' ? 'black' : 'white';
    return (v.uci.length - k) % 2 === 0 ? last : v.turn;
  }

  // Offers of ours that went away while the game goes on, not withdrawn by a move of ours:
  // the opponent declined them (a move of theirs declines them too).
  function offersAnswered(prev, v) {
    const me = v.you;
    if (!prev || !me || v.status !== 'started') return;
    let movedByMe = false;
    for (let k = prev.uci.length + 1; k <= v.uci.length; k++) if (moverOf(v, k) === me) movedByMe = true;
    if (movedByMe) return;
    if (prev.drawOffer === me && v.drawOffer !== me) note('Draw offer declined');
    if (prev.takebackOffer === me && v.takebackOffer !== me && v.uci.length >= prev.uci.length) note('Takeback declined');
  }

  async function load() {
    const q = viewing === null ? '' : `?ply=${viewing}`;
    const v = await Arena.get(`/api/arena/game/${encodeURIComponent(id)}/view${q}`);
    offersAnswered(view, v);
    const prev = view;
    announce(prev, v);
    view = v;
    fetchedAt = performance.now();
    gameSounds(prev, v);
    // The claim becomes possible: read the game again then (the button shows when the arena
    // says the claim is accepted).
    clearTimeout(claimTimer);
    if (v.claimWinInSeconds > 0) claimTimer = setTimeout(refresh, v.claimWinInSeconds * 1000 + 50);
    if (!orientation) {
      // For the page's figures (docs/benchmarks.md): when the first board is drawn.
      queueMicrotask(() => performance.mark('first-board'));
      orientation = v.you === 'black' ? 'black' : 'white';
      if (v.you) { $('chat').hidden = false; loadChat(); }
    }
    render();
    playPremove(v);
    renderAccess();
    if (!streamOpened && v.status === 'started') { streamOpened = true; openStream(); }
  }

  // The start, the others' moves (the player's own sounded when played) and the end.
  function gameSounds(prev, v) {
    if (!prev) {
      if (v.you && v.status === 'started' && !v.uci.length) sfx('start');
      return;
    }
    if (prev.status === 'created' && v.status === 'started') sfx('start');
    const n = v.uci.length;
    if (n > prev.uci.length && viewing === null && v.san.length === n && (!v.you || moverOf(v, n) !== v.you)) sfx(sanSound(v.san[n - 1]));
    if (prev.status === 'started' && v.status !== 'started') sfx('end');
  }

  // The premove, now the player's turn: played if legal (a promotion: the one chosen, else a
  // queen, else the first), else dropped.
  function playPremove(v) {
    const pm = board.premove;
    if (!pm || !v.you || v.turn !== v.you || v.status !== 'started' || viewing !== null) return;
    board.premove = null;
    const options = (v.board.moves || []).filter((m) => m.from === pm.from && m.to === pm.to);
    const m = options.find((o) => o.uci === pm.uci) || options.find((o) => o.promotion && o.promotion.kind === 'queen') || options[0];
    if (m) board.play(m);
    else board.render();
  }

  // For screen readers: the heading names the game; the live region says each move played
  // (SAN, by whom) and how the game ended. Moves already there when the page opens are not
  // said again.
  function renderAccess() {
    const v = view;
    $('game-title').textContent = `${Arena.playerName(v.white)} vs ${Arena.playerName(v.black)} · ${v.variant.name}`;
    $('keyboard-move').hidden = !(v.you && v.status === 'started');
  }

  function announce(prev, v) {
    if (!prev) return;
    const who = (c) => `${c === 'white' ? 'White' : 'Black'}${v[c] && v[c].name ? ` (${v[c].name})` : ''}`;
    const said = [];
    if (v.san.length < prev.san.length) said.push('The last move was taken back.');
    for (let k = prev.san.length + 1; k <= v.san.length; k++) said.push(`${who(moverOf(v, k))} played ${v.san[k - 1]}.`);
    if (prev.status === 'started' && v.status !== 'started') said.push(Arena.endText(v));
    if (said.length) $('move-announcer').textContent = said.join(' ');
  }

  // The keyboard move: SAN (Nf3, exd5, e8=Q, O-O; check signs, x and = may be left out, and
  // letters in the wrong case when that leaves one move) or UCI (g1f3, e7e8q), matched against
  // the legal moves the arena listed. Enter plays; what is wrong is said under the input.
  function findMove(text, moves) {
    const t = text.trim();
    if (!t) return { error: 'Type a move: SAN (Nf3, e8=Q, O-O) or UCI (g1f3).' };
    if (!moves.length) return { error: 'It is not your turn: wait for your opponent\'s move.' };
    const plainSan = (x) => x.replace(/[+#!?]/g, '').replace(/^0-0-0/, 'O-O-O').replace(/^0-0/, 'O-O');
    const loose = (x) => plainSan(x).replace(/[x=:-]/g, '');
    const tries = [
      (m) => m.uci.toLowerCase() === t.toLowerCase(),
      (m) => plainSan(m.san) === plainSan(t),
      (m) => loose(m.san) === loose(t),
      (m) => loose(m.san).toLowerCase() === loose(t).toLowerCase(),
      // A promotion without its piece: every piece it may be.
      (m) => m.promotion && loose(m.san).slice(0, -1) === loose(t),
      (m) => t.length >= 4 && m.uci.toLowerCase().startsWith(t.toLowerCase()),
    ];
    for (const test of tries) {
      const found = moves.filter(test);
      // Moves that share their SAN are one move (the list may give a move once per piece).
      const sans = [...new Set(found.map((m) => m.san))];
      if (found.length === 1 || (found.length > 1 && new Set(found.map((m) => m.uci)).size === 1)) return { move: found[0] };
      if (found.length > 1) return { error: `“${t}” could be ${sans.join(', ')}: type one of them.` };
    }
    return { error: `“${t}” is not a legal move in this position.` };
  }

  $('keyboard-move').addEventListener('submit', (e) => {
    e.preventDefault();
    const input = $('move-input');
    const out = $('move-input-error');
    const found = viewing !== null && input.value.trim()
      ? { error: 'You are looking at an earlier move: press End (or >|) to come back to the game, then play.' }
      : findMove(input.value, (view && view.status === 'started' && view.board.moves) || []);
    if (found.error) {
      out.textContent = found.error;
      input.setAttribute('aria-invalid', 'true');
      return;
    }
    out.textContent = '';
    input.removeAttribute('aria-invalid');
    input.value = '';
    board.play(found.move);
  });
  $('move-input').addEventListener('input', () => {
    $('move-input-error').textContent = '';
    $('move-input').removeAttribute('aria-invalid');
  });

  function refresh() {
    if (refreshing) { pending = true; return refreshing; }
    refreshing = load().catch((e) => note(Arena.plain(e), 'error')).finally(() => {
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
        else if (view && view.you) lastWords();
      });
    });
  }

  // The players' chat: text only, never markup. Lines of the stream name the speaker
  // `username`, those read back (`GET .../chat`) `user`.
  function addChat(line) {
    const lines = $('chat-lines');
    lines.append(Arena.el('div', { class: 'line' }, Arena.el('b', { class: 'who' }, line.username || line.user || ''), ' ', Arena.el('span', { class: 'text' }, line.text)));
    lines.scrollTop = lines.scrollHeight;
  }

  // The game stream closes after the final state, but the players (bots: their goodbye) may
  // still write once they have seen the end: the chat is read again, at once and twice more in
  // the next seconds.
  function lastWords() {
    loadChat();
    setTimeout(loadChat, 1500);
    setTimeout(loadChat, 5000);
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
    try { await Arena.post(`${base()}/chat`, { room: 'player', text }); $('chat-text').value = ''; } catch (err) { note(Arena.plain(err), 'error'); }
  });

  // Looking back: the clocks after the ply shown (real-time games); else the clocks now.
  const lookingBack = () => viewing !== null && !!view.plyClocks;

  function clockMs(color) {
    if (lookingBack()) return view.plyClocks[color];
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
      const live = view.status === 'started' && !lookingBack();
      clock.classList.toggle('running', live && view.clocks.running === color);
      clock.classList.toggle('low', live && ms < 10000 && !view.days);
      if (live && color === view.you && view.clock && ms < 10000 && !lowSounded) { lowSounded = true; sfx('lowTime'); }
    }
    const wait = $('claim-wait');
    const left = view.claimWinInSeconds > 0 ? Math.ceil(view.claimWinInSeconds - (performance.now() - fetchedAt) / 1000) : 0;
    wait.hidden = !(view.opponentGone && view.status === 'started');
    wait.textContent = left > 0
      ? `Your opponent left the game. You can claim victory or call it a draw in ${left} s.`
      : 'Your opponent left the game.';
  }

  function render() {
    const v = view;
    const top = orientation === 'white' ? 'black' : 'white';
    const bottom = top === 'white' ? 'black' : 'white';
    $('player-top').querySelector('.name').textContent = Arena.playerName(v[top]);
    $('player-bottom').querySelector('.name').textContent = Arena.playerName(v[bottom]);
    renderPrisoners(top, bottom);
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
    // The move shown stays in sight.
    const cur = moves.querySelector('.mv.current');
    if (viewing === null) moves.scrollTop = moves.scrollHeight;
    else if (!cur) moves.scrollTop = 0;
    else if (cur.offsetTop < moves.scrollTop) moves.scrollTop = Math.max(0, cur.offsetTop - 4);
    else if (cur.offsetTop + cur.offsetHeight > moves.scrollTop + moves.clientHeight) moves.scrollTop = cur.offsetTop + cur.offsetHeight - moves.clientHeight + 4;
    renderActions();
    renderOver();
    // The tab says when it is the player's move.
    const myMove = v.you && v.status === 'started' && v.turn === v.you;
    document.title = `${myMove ? '● Your turn · ' : ''}${baseTitle}`;
  }

  // Citadel's prisoners of each side beside its player's name: the pieces a release brings.
  function renderPrisoners(top, bottom) {
    const held = view.board.prisoners;
    for (const [elId, color] of [['player-top', top], ['player-bottom', bottom]]) {
      const box = $(elId).querySelector('.prisoners');
      const list = held ? held[color] || [] : [];
      const key = JSON.stringify(list);
      if (box.dataset.key === key) continue;
      box.dataset.key = key;
      box.replaceChildren();
      box.hidden = !held;
      if (!held) continue;
      box.append(Arena.el('span', { class: 'label' }, list.length ? 'Prisoners' : 'No prisoners'));
      for (const p of list) {
        const what = `${p.name}, released by a plainsman reaching ${p.squares.join(', ')}`;
        const item = Arena.el('span', { class: 'prisoner', title: what, 'aria-label': what, role: 'img', 'data-kind': p.kind });
        item.append(pieceSvg(p));
        box.append(item);
      }
    }
  }

  // The game is over: why, the rating changes of a rated game, and what next (a rematch, a
  // new opponent, the analysis board with the game).
  function renderOver() {
    const v = view;
    const over = v.status !== 'started' && v.status !== 'created';
    $('over').hidden = !over;
    if (!over) return;
    $('end-reason').textContent = Arena.endText(v);
    const rc = $('rating-change');
    rc.replaceChildren();
    if (v.rated) {
      for (const c of ['white', 'black']) {
        const p = v[c];
        if (!p || p.ratingDiff === null || p.ratingDiff === undefined) continue;
        const d = p.ratingDiff;
        const after = p.rating ? ` ${p.rating} → ${p.rating + d}` : '';
        rc.append(Arena.el('div', { class: 'rating-line', 'data-color': c },
          `${Arena.playerName({ name: p.name, bot: p.bot })}${after} `,
          Arena.el('span', { class: `diff ${d > 0 ? 'up' : d < 0 ? 'down' : ''}` }, `(${d > 0 ? '+' : ''}${d})`)));
      }
    }
    $('rematch').hidden = !v.you;
    $('new-opponent').hidden = !v.you;
    const q = new URLSearchParams({ variant: v.variant.key });
    if (v.initialFen) q.set('fen', v.initialFen);
    q.set('moves', v.uci.join(','));
    $('analyse-game').href = `/analysis?${q}`;
  }

  function rematchStatus(text, kind) {
    const s = $('rematch-status');
    s.textContent = text;
    s.className = `status${kind ? ` ${kind}` : ''}`;
  }

  const declined = (reason) => {
    rematchStatus(`Rematch declined: ${reason || 'no reason given'}`, 'error');
    $('rematch').disabled = false;
  };

  // The event stream (shared with the page's challenge notices): the rematch's game starts
  // (followed), or the rematch is declined.
  function rematchEvents(ev) {
    const c = ev.challenge;
    if (ev.type === 'gameStart' && ev.game) {
      const gid = ev.game.gameId || ev.game.id;
      startedGames.add(gid);
      if (gid === rematch) location.href = `/${gid}`;
    } else if (ev.type === 'challengeDeclined' && c) {
      declinedOnes.set(c.id, c.declineReason);
      if (c.id === rematch) declined(c.declineReason);
    } else if (ev.type === 'challengeCanceled' && c && c.id === rematch) {
      rematchStatus('The rematch was canceled.', 'error');
      $('rematch').disabled = false;
    }
  }

  // Rematch: the same opponent and terms, the colours swapped.
  let listening = false;
  $('rematch').addEventListener('click', async () => {
    const v = view;
    if (!v || !v.you) return;
    const opp = v[v.you === 'white' ? 'black' : 'white'];
    const body = { variant: v.variant.key, rated: v.rated ? 'true' : 'false', color: v.you === 'white' ? 'black' : 'white' };
    if (v.clock) {
      body['clock.limit'] = String(Math.round(v.clock.initial / 1000));
      body['clock.increment'] = String(Math.round(v.clock.increment / 1000));
    } else if (v.days) body.days = String(v.days);
    if (v.initialFen) body.fen = v.initialFen;
    if (!listening) { listening = true; Arena.onEvent(rematchEvents); }
    $('rematch').disabled = true;
    const name = Arena.playerName({ name: opp.name, bot: opp.bot });
    rematchStatus(`Rematch sent to ${name}: waiting for the answer…`);
    try {
      const c = await Arena.post(`/api/challenge/${encodeURIComponent(opp.id)}`, body);
      rematch = c.id || (c.challenge && c.challenge.id);
      // The answer may have come first.
      if (startedGames.has(rematch)) location.href = `/${rematch}`;
      else if (declinedOnes.has(rematch)) declined(declinedOnes.get(rematch));
    } catch (e) {
      rematchStatus(`Rematch refused: ${Arena.plain(e)}`, 'error');
      $('rematch').disabled = false;
    }
  });

  function renderActions() {
    const v = view;
    const mine = v.you;
    const running = v.status === 'started';
    const opp = mine === 'white' ? 'black' : 'white';
    $('actions').hidden = !mine || !running;
    $('abort').disabled = !v.abortable;
    $('resign').disabled = v.abortable;
    // The opponent left: claim the win or call it a draw, once the arena takes the claim.
    const claimable = v.claimWinInSeconds === 0;
    $('claim').hidden = !claimable;
    $('claim-draw').hidden = !claimable;
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
