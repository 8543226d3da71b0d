// The lobby: bots online with their ratings, a form that challenges one (or seeks any human),
// the open seeks, the games in progress. A started game opens its page (the event stream says).
'use strict';

(() => {
  const $ = (id) => document.getElementById(id);
  const signedIn = !!Arena.me();
  const status = (t) => { $('new-game-status').textContent = t; };
  let seekCtrl = null;

  function ratings(perfs) {
    return Object.entries(perfs || {}).map(([k, p]) => `${k} ${p.rating}${p.prov ? '?' : ''}`).join(', ') || 'unrated';
  }

  function clockText(c, days) {
    if (c) return `${c.initial / 60000}+${c.increment / 1000}`;
    return days ? `${days} days` : 'unlimited';
  }

  async function refresh() {
    let lobby;
    try { lobby = await Arena.get('/api/arena/lobby'); } catch (e) { status(e.message); return; }
    const bots = $('bots').querySelector('tbody');
    bots.replaceChildren(...lobby.bots.map((b) => Arena.el('tr', { 'data-bot': b.id },
      Arena.el('td', {}, `BOT ${b.username}`),
      Arena.el('td', { class: 'hint' }, ratings(b.perfs)),
      Arena.el('td', {}, Arena.el('button', { type: 'button', class: 'challenge', 'data-bot': b.id, onclick: () => { $('opponent').value = b.id; $('create-game').focus(); } }, 'Challenge')))));
    if (!lobby.bots.length) bots.append(Arena.el('tr', {}, Arena.el('td', { colspan: 3 }, 'No bot is online.')));
    const select = $('opponent');
    const chosen = select.value;
    select.replaceChildren(Arena.el('option', { value: '' }, '(an open seek)'),
      ...lobby.bots.map((b) => Arena.el('option', { value: b.id }, `BOT ${b.username}`)));
    if ([...select.options].some((o) => o.value === chosen)) select.value = chosen;
    const seeks = $('seeks').querySelector('tbody');
    seeks.replaceChildren(...lobby.seeks.map((s) => Arena.el('tr', {},
      Arena.el('td', {}, s.user), Arena.el('td', {}, s.variant), Arena.el('td', {}, clockText(s.clock, s.days)),
      Arena.el('td', {}, s.rated ? 'rated' : 'casual'),
      Arena.el('td', {}, s.user.toLowerCase() === Arena.me() ? '(yours)' : Arena.el('button', { type: 'button', onclick: () => join(s) }, 'Join')))));
    if (!lobby.seeks.length) seeks.append(Arena.el('tr', {}, Arena.el('td', {}, 'No open seek.')));
    const playing = $('playing').querySelector('tbody');
    playing.replaceChildren(...lobby.playing.map((g) => Arena.el('tr', {},
      Arena.el('td', {}, Arena.el('a', { href: `/${g.id}` }, `${Arena.playerName(g.white)} – ${Arena.playerName(g.black)}`)),
      Arena.el('td', { class: 'hint' }, `${g.variant.name} · ${g.plies} plies`))));
    if (!lobby.playing.length) playing.append(Arena.el('tr', {}, Arena.el('td', {}, 'No game in progress.')));
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
    try { await Arena.post(`/api/challenge/${encodeURIComponent(id)}/${verb}`); } catch (e) { status(e.message); }
    incoming.delete(id);
    showChallenges();
  }

  function watchEvents() {
    if (!signedIn) return;
    Arena.stream('/api/stream/event', (ev) => {
      const c = ev.challenge;
      if (ev.type === 'challenge' && c && c.destUser && c.destUser.id === Arena.me()) {
        incoming.set(c.id, c);
        showChallenges();
      } else if ((ev.type === 'challengeCanceled' || ev.type === 'challengeDeclined') && c && incoming.delete(c.id)) {
        showChallenges();
      }
      if (ev.type === 'gameStart' && ev.game) {
        location.href = `/${ev.game.gameId || ev.game.id}`;
      } else if (ev.type === 'challengeDeclined' && ev.challenge) {
        status(`Declined: ${ev.challenge.declineReason || 'no reason given'}`);
      } else if (ev.type === 'challengeCanceled') {
        status('The challenge was canceled.');
      }
    }, () => setTimeout(watchEvents, 2000));
  }

  function terms(form) {
    const f = new FormData(form);
    const minutes = parseFloat(f.get('minutes') || '0');
    const inc = parseInt(f.get('increment') || '0', 10);
    return { variant: f.get('variant'), minutes, inc, color: f.get('color'), rated: f.get('rated') ? 'true' : 'false' };
  }

  async function seek(t) {
    if (seekCtrl) seekCtrl.abort();
    seekCtrl = new AbortController();
    status('Seeking an opponent… (the seek is open while this page is)');
    try {
      const body = new URLSearchParams({ variant: t.variant, time: String(t.minutes), increment: String(t.inc), color: t.color, rated: t.rated });
      const r = await fetch('/api/board/seek', {
        method: 'POST', credentials: 'same-origin', signal: seekCtrl.signal, body,
        headers: { 'X-CSRF-Token': Arena.csrf(), 'Content-Type': 'application/x-www-form-urlencoded' },
      });
      if (!r.ok) { const j = await r.json().catch(() => ({})); status(`Seek refused: ${j.error || r.statusText}`); return; }
      await r.text();
    } catch (e) {
      if (e.name !== 'AbortError') status(e.message);
    }
  }

  function join(s) {
    const c = s.clock;
    seek({ variant: s.variant, minutes: c ? c.initial / 60000 : 5, inc: c ? c.increment / 1000 : 0, color: s.color === 'white' ? 'black' : s.color === 'black' ? 'white' : 'random', rated: s.rated ? 'true' : 'false' });
  }

  $('new-game').addEventListener('submit', async (e) => {
    e.preventDefault();
    if (!signedIn) { location.href = '/login?referrer=/'; return; }
    const t = terms(e.target);
    const opponent = new FormData(e.target).get('opponent');
    if (!opponent) { seek(t); return; }
    try {
      const form = { variant: t.variant, color: t.color, rated: t.rated };
      if (t.minutes > 0 || t.inc > 0) { form['clock.limit'] = String(Math.round(t.minutes * 60)); form['clock.increment'] = String(t.inc); }
      const c = await Arena.post(`/api/challenge/${encodeURIComponent(opponent)}`, form);
      status(`Challenge sent to ${opponent}: waiting for the answer… (${c.id || c.challenge?.id || ''})`);
    } catch (err) {
      status(`Challenge refused: ${err.message}`);
    }
  });

  watchEvents();
  refresh();
  setInterval(refresh, 3000);
})();
