// The lobby: bots online with their ratings, a form that challenges one (or seeks any human),
// the challenges sent to you, your games in progress, the open seeks, every game in progress.
// A game that starts while the lobby is open (a challenge accepted, a seek met) opens its page;
// the games that were already running when the lobby was opened are listed, not followed.
'use strict';

(() => {
  const $ = (id) => document.getElementById(id);
  const signedIn = !!Arena.me();
  const form = $('new-game');
  let variantNames = {};
  let bots = [];
  let opponentChosen = false; // the player picked an opponent (or a seek): refreshes keep it
  let known = new Set(); // the player's games running when the lobby was opened
  let outgoing = null; // what this page is waiting for: { id, name } (a challenge) or { seek: true }
  const settledOnes = new Map(); // challenge id -> its final state, even if it came before the POST's answer
  let seekCtrl = null;

  // The line under the form: a final state (declined, canceled, refused) stays until the
  // player does something else; a "waiting" line never replaces one (see `sent`).
  function status(text, kind) {
    const s = $('new-game-status');
    s.textContent = text;
    s.className = `status${kind ? ` ${kind}` : ''}`;
  }

  function waitingFor(what) {
    outgoing = what;
    $('cancel-challenge').hidden = !what;
    $('cancel-challenge').textContent = what && what.seek ? 'Cancel the seek' : 'Cancel the challenge';
  }

  const perfName = (k) => Arena.speedNames[k] || variantNames[k] || k;
  const botName = (id) => {
    const b = bots.find((x) => x.id === id);
    return `BOT ${b ? b.username : id}`;
  };

  // The perfs a bot has played, most played first, by name.
  function ratings(perfs) {
    const played = Object.entries(perfs || {}).filter(([, p]) => p.games > 0).sort((a, b) => b[1].games - a[1].games);
    return played.map(([k, p]) => `${perfName(k)} ${p.rating}${p.prov ? ' (provisional)' : ''}`).join(', ') || 'no rated game yet';
  }

  function clockText(c, days) {
    if (c) return `${c.initial / 60000}+${c.increment / 1000}`;
    return days ? `${days} days` : 'unlimited';
  }

  function showTitle() {
    const opp = $('opponent').value;
    $('new-game-title').textContent = opp ? `Challenge ${botName(opp)}` : 'New game: an open seek';
    $('create-game').textContent = opp ? 'Challenge' : 'Seek an opponent';
    warnDeclined();
  }

  // The declines of bot `b` (from the lobby's `plays`) that the terms `t` meet again.
  function declinedBefore(b, t) {
    const p = b && b.plays;
    if (!p || !p.declined) return [];
    const limit = Math.round(t.minutes * 60);
    const clocked = limit > 0 || t.inc > 0;
    const length = (c) => (c ? c.limit + 40 * c.increment : Infinity);
    const mine = clocked ? length({ limit, increment: t.inc }) : Infinity;
    return p.declined.filter((d) => {
      if (d.variant) return d.variant.key === t.variant;
      if ('timeControl' in d) {
        if (d.reason === 'tooFast') return mine <= length(d.clock);
        if (d.reason === 'tooSlow') return mine >= length(d.clock);
        return d.clock ? clocked && d.clock.limit === limit && d.clock.increment === t.inc : !clocked;
      }
      return d.rated === (t.rated === 'true');
    });
  }

  // Under the form: the chosen bot declined these terms before.
  function warnDeclined() {
    const w = $('new-game-warning');
    const opp = $('opponent').value;
    const b = opp && bots.find((x) => x.id === opp);
    const seen = b ? declinedBefore(b, terms()) : [];
    w.textContent = seen.length ? `${botName(opp)} declined ${seen.map((d) => d.text).join(', ')} before: it may decline this challenge.` : '';
    w.hidden = !seen.length;
  }

  // Challenge: the form, for that bot, with the variant to choose first.
  function challenge(b) {
    opponentChosen = true;
    $('opponent').value = b.id;
    showTitle();
    $('new-game-panel').scrollIntoView({ block: 'nearest' });
    form.elements.variant.focus();
  }

  async function refresh() {
    let lobby;
    try { lobby = await Arena.get('/api/arena/lobby'); } catch (e) { return; }
    variantNames = Object.fromEntries((lobby.variants || []).map((v) => [v.key, v.name]));
    bots = lobby.bots;
    const rows = $('bots').querySelector('tbody');
    rows.replaceChildren(...bots.map((b) => Arena.el('tr', { 'data-bot': b.id },
      Arena.el('td', {}, `BOT ${b.username}`),
      Arena.el('td', { class: 'hint' }, ratings(b.perfs)),
      // What it is seen to play (nothing for a bot never seen).
      Arena.el('td', { class: 'hint plays' }, b.plays ? b.plays.summary : ''),
      Arena.el('td', {}, Arena.el('button', { type: 'button', class: 'challenge', 'data-bot': b.id, onclick: () => challenge(b) }, 'Challenge')))));
    if (!bots.length) rows.append(Arena.el('tr', {}, Arena.el('td', { colspan: 4 }, 'No bot is online.')));
    // The opponent: the player's choice, else the first bot online, else an open seek.
    const select = $('opponent');
    const chosen = select.value;
    select.replaceChildren(Arena.el('option', { value: '' }, '(an open seek)'),
      ...bots.map((b) => Arena.el('option', { value: b.id }, `BOT ${b.username}`)));
    const present = (v) => [...select.options].some((o) => o.value === v);
    if (opponentChosen && present(chosen)) select.value = chosen;
    else if (!opponentChosen && bots.length) select.value = bots[0].id;
    else select.value = '';
    showTitle();
    const seeks = $('seeks').querySelector('tbody');
    seeks.replaceChildren(...lobby.seeks.map((s) => Arena.el('tr', {},
      Arena.el('td', {}, s.user), Arena.el('td', {}, variantNames[s.variant] || s.variant), Arena.el('td', {}, clockText(s.clock, s.days)),
      Arena.el('td', {}, s.rated ? 'rated' : 'casual'),
      Arena.el('td', {}, s.user.toLowerCase() === Arena.me() ? '(yours)' : Arena.el('button', { type: 'button', onclick: () => join(s) }, 'Join')))));
    if (!lobby.seeks.length) seeks.append(Arena.el('tr', {}, Arena.el('td', {}, 'No open seek.')));
    const playing = $('playing').querySelector('tbody');
    playing.replaceChildren(...lobby.playing.map((g) => Arena.el('tr', {},
      Arena.el('td', {}, Arena.el('a', { href: `/${g.id}` }, `${Arena.playerName(g.white)} – ${Arena.playerName(g.black)}`)),
      Arena.el('td', { class: 'hint' }, `${g.variant.name} · ${g.plies} plies`))));
    if (!lobby.playing.length) playing.append(Arena.el('tr', {}, Arena.el('td', {}, 'No game in progress.')));
    if (signedIn) refreshMine();
  }

  // The player's own games in progress; null when they could not be read.
  async function refreshMine() {
    let list;
    try { list = (await Arena.get('/api/account/playing')).nowPlaying || []; } catch (e) { return null; }
    const body = $('my-games').querySelector('tbody');
    body.replaceChildren(...list.map((g) => Arena.el('tr', { 'data-game': g.gameId },
      Arena.el('td', {}, Arena.el('a', { href: `/${g.gameId}` }, `vs ${g.opponent ? g.opponent.username : '?'}`)),
      Arena.el('td', { class: 'hint' }, `${g.variant ? g.variant.name : ''} · ${g.color || ''}`),
      Arena.el('td', {}, g.isMyTurn ? Arena.el('b', {}, 'your turn') : 'their turn'))));
    if (!list.length) body.append(Arena.el('tr', {}, Arena.el('td', {}, 'None.')));
    return list;
  }

  const incoming = new Map();

  function showChallenges() {
    const body = $('challenges').querySelector('tbody');
    body.replaceChildren(...[...incoming.values()].map((c) => Arena.el('tr', { 'data-challenge': c.id },
      Arena.el('td', {}, Arena.playerName({ name: c.challenger.name, bot: c.challenger.title === 'BOT', rating: c.challenger.rating })),
      Arena.el('td', {}, `${c.variant.name} · ${c.timeControl && c.timeControl.show ? c.timeControl.show : 'unlimited'} · ${c.rated ? 'rated' : 'casual'}`),
      Arena.el('td', {},
        Arena.el('button', { type: 'button', class: 'accept', onclick: () => answer(c.id, 'accept') }, 'Accept'), ' ',
        Arena.el('button', { type: 'button', class: 'decline', onclick: () => answer(c.id, 'decline') }, 'Decline')))));
    if (!incoming.size) body.append(Arena.el('tr', {}, Arena.el('td', {}, 'None.')));
  }

  async function answer(id, verb) {
    try { await Arena.post(`/api/challenge/${encodeURIComponent(id)}/${verb}`); } catch (e) { status(Arena.plain(e), 'error'); }
    incoming.delete(id);
    showChallenges();
  }

  // A challenge of ours reached its end (declined, canceled, expired): said once and for all.
  function settle(id, text, kind) {
    settledOnes.set(id, { text, kind });
    if (outgoing && outgoing.id === id) {
      waitingFor(null);
      status(text, kind);
    }
  }

  // The page's shared event stream (common.js): one per account.
  function watchEvents() {
    Arena.onEvent((ev) => {
      const c = ev.challenge;
      if (ev.type === 'challenge' && c) {
        if (c.destUser && c.destUser.id === Arena.me()) { incoming.set(c.id, c); showChallenges(); }
      } else if ((ev.type === 'challengeCanceled' || ev.type === 'challengeDeclined') && c) {
        if (incoming.delete(c.id)) showChallenges();
        if (c.challenger && c.challenger.id === Arena.me()) {
          const who = c.destUser ? `${c.destUser.title === 'BOT' ? 'BOT ' : ''}${c.destUser.name}` : 'the opponent';
          if (ev.type === 'challengeDeclined') settle(c.id, `Declined by ${who}: ${c.declineReason || 'no reason given'}`, 'error');
          else settle(c.id, 'The challenge was canceled.', '');
        }
      } else if (ev.type === 'gameStart' && ev.game) {
        const id = ev.game.gameId || ev.game.id;
        // Running when the lobby was opened: listed under "Your games", not followed.
        if (known.has(id)) return;
        location.href = `/${id}`;
      } else if (ev.type === 'gameFinish') {
        refreshMine();
      }
    });
  }

  function terms() {
    const f = new FormData(form);
    const minutes = parseFloat(f.get('minutes') || '0');
    const inc = parseInt(f.get('increment') || '0', 10);
    return { variant: f.get('variant'), minutes, inc, color: f.get('color'), rated: f.get('rated') ? 'true' : 'false' };
  }

  async function seek(t) {
    if (seekCtrl) seekCtrl.abort();
    const ctrl = new AbortController();
    seekCtrl = ctrl;
    status('Seeking an opponent… (the seek is open while this page is)');
    waitingFor({ seek: true });
    try {
      const body = new URLSearchParams({ variant: t.variant, time: String(t.minutes), increment: String(t.inc), color: t.color, rated: t.rated });
      const r = await fetch('/api/board/seek', {
        method: 'POST', credentials: 'same-origin', signal: ctrl.signal, body,
        headers: { 'X-CSRF-Token': Arena.csrf(), 'Content-Type': 'application/x-www-form-urlencoded' },
      });
      if (!r.ok) {
        const j = await r.json().catch(() => ({}));
        status(`Seek refused: ${Arena.plain(new Arena.ApiError(r.status, j.error || r.statusText))}`, 'error');
      }
      await r.text();
    } catch (e) {
      if (e.name !== 'AbortError') status(Arena.plain(e), 'error');
    }
    if (seekCtrl === ctrl && outgoing && outgoing.seek) waitingFor(null);
  }

  function join(s) {
    const c = s.clock;
    seek({ variant: s.variant, minutes: c ? c.initial / 60000 : 5, inc: c ? c.increment / 1000 : 0, color: s.color === 'white' ? 'black' : s.color === 'black' ? 'white' : 'random', rated: s.rated ? 'true' : 'false' });
  }

  $('opponent').addEventListener('change', () => { opponentChosen = true; showTitle(); });
  form.addEventListener('change', warnDeclined);
  form.addEventListener('input', warnDeclined);

  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    if (!signedIn) { location.href = '/login?referrer=/'; return; }
    const t = terms();
    const opponent = $('opponent').value;
    const fen = $('new-game-fen').value.trim();
    if (!opponent && fen) { status('A game from a position needs an opponent: choose a bot (open seeks start from the start position).', 'error'); return; }
    if (!opponent) { seek(t); return; }
    const name = botName(opponent);
    status(`Sending the challenge to ${name}…`);
    try {
      const body = { variant: t.variant, color: t.color, rated: t.rated };
      if (t.minutes > 0 || t.inc > 0) { body['clock.limit'] = String(Math.round(t.minutes * 60)); body['clock.increment'] = String(t.inc); }
      if (fen) body.fen = fen;
      const c = await Arena.post(`/api/challenge/${encodeURIComponent(opponent)}`, body);
      const id = c.id || (c.challenge && c.challenge.id);
      // The answer may have come first (a bot declines at once): it stays.
      const done = settledOnes.get(id);
      if (done) { status(done.text, done.kind); return; }
      waitingFor({ id, name });
      status(`Challenge sent to ${name}: waiting for the answer…`);
    } catch (err) {
      status(`Challenge refused: ${Arena.plain(err)}`, 'error');
    }
  });

  $('cancel-challenge').addEventListener('click', async () => {
    const what = outgoing;
    if (!what) return;
    if (what.seek) {
      if (seekCtrl) seekCtrl.abort();
      waitingFor(null);
      status('The seek was canceled.');
      return;
    }
    try {
      await Arena.post(`/api/challenge/${encodeURIComponent(what.id)}/cancel`);
      settle(what.id, 'The challenge was canceled.', '');
    } catch (e) {
      status(`The challenge could not be canceled: ${Arena.plain(e)}`, 'error');
    }
  });

  async function start() {
    refresh();
    setInterval(refresh, 3000);
    if (!signedIn) return;
    // The games running now are known before the event stream replays their gameStart.
    const mine = await refreshMine();
    known = new Set((mine || []).map((g) => g.gameId));
    watchEvents();
  }

  start();
})();
