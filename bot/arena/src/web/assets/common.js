// Shared helpers of the arena's pages: API calls (signed in by the session cookie, with the
// page's CSRF token), ND-JSON streams read with fetch, DOM building that never parses markup.
'use strict';

const Arena = (() => {
  const csrf = () => document.body.dataset.csrf || '';
  const me = () => document.body.dataset.user || '';

  class ApiError extends Error {
    constructor(status, message) { super(message); this.status = status; }
  }

  async function api(method, path, form) {
    const init = { method, credentials: 'same-origin', headers: { 'X-CSRF-Token': csrf(), Accept: 'application/json' } };
    if (form) {
      init.body = new URLSearchParams(form);
      init.headers['Content-Type'] = 'application/x-www-form-urlencoded';
    }
    const r = await fetch(path, init);
    const text = await r.text();
    let json = null;
    try { json = text ? JSON.parse(text) : null; } catch (e) { json = null; }
    if (!r.ok) throw new ApiError(r.status, (json && json.error) || text || r.statusText);
    return json;
  }

  const get = (path) => api('GET', path);
  const post = (path, form) => api('POST', path, form || {});

  // Reads an ND-JSON stream: calls onLine for each JSON line (keep-alive blank lines skipped),
  // onEnd when it closes. Returns a function that stops it.
  function stream(path, onLine, onEnd) {
    const ctrl = new AbortController();
    (async () => {
      try {
        const r = await fetch(path, { credentials: 'same-origin', signal: ctrl.signal, headers: { Accept: 'application/x-ndjson' } });
        if (!r.ok || !r.body) throw new ApiError(r.status, r.statusText);
        const reader = r.body.getReader();
        const dec = new TextDecoder();
        let buf = '';
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          buf += dec.decode(value, { stream: true });
          let i;
          while ((i = buf.indexOf('\n')) >= 0) {
            const line = buf.slice(0, i).trim();
            buf = buf.slice(i + 1);
            if (line) {
              try { onLine(JSON.parse(line)); } catch (e) { console.error(e); }
            }
          }
        }
      } catch (e) {
        if (e.name === 'AbortError') return;
      }
      if (onEnd && !ctrl.signal.aborted) onEnd();
    })();
    return () => ctrl.abort();
  }

  // el('a', {href: '/x', class: 'y'}, 'text', child...): text is always text, never markup.
  function el(tag, attrs, ...children) {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v === null || v === undefined || v === false) continue;
      if (k === 'class') e.className = v;
      else if (k.startsWith('on')) e.addEventListener(k.slice(2), v);
      else e.setAttribute(k, v === true ? '' : v);
    }
    for (const c of children.flat()) {
      if (c === null || c === undefined || c === false) continue;
      e.append(c instanceof Node ? c : document.createTextNode(String(c)));
    }
    return e;
  }

  function clock(ms) {
    ms = Math.max(0, ms);
    const s = Math.floor(ms / 1000);
    const h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60), sec = s % 60;
    const pad = (n) => String(n).padStart(2, '0');
    if (h > 0) return `${h}:${pad(m)}:${pad(sec)}`;
    if (ms < 10000) return `${m}:${pad(sec)}.${Math.floor((ms % 1000) / 100)}`;
    return `${m}:${pad(sec)}`;
  }

  function playerName(p) {
    if (!p) return '?';
    return (p.bot ? 'BOT ' : '') + p.name + (p.rating ? ` (${p.rating})` : '');
  }

  const statusText = {
    created: 'Not started', started: 'Playing', aborted: 'Aborted', mate: 'Checkmate', resign: 'Resignation',
    stalemate: 'Stalemate', timeout: 'Left the game', draw: 'Draw', outoftime: 'Time out', noStart: 'Not started in time',
    variantEnd: 'Variant ending', cheat: 'Cheat detected', unknownFinish: 'Finished',
  };

  function resultText(g) {
    if (g.status === 'started' || g.status === 'created') return '';
    const score = g.winner === 'white' ? '1-0' : g.winner === 'black' ? '0-1' : g.status === 'aborted' || g.status === 'noStart' ? '*' : '½-½';
    const who = g.winner ? `${g.winner === 'white' ? 'White' : 'Black'} wins` : '';
    return [score, statusText[g.status] || g.status, who].filter(Boolean).join(' · ');
  }

  // Why a finished game ended, in words (the view's `endReason`; docs/arena.md).
  function endText(g) {
    const side = (c) => (c === 'white' ? 'White' : 'Black');
    const w = g.winner;
    const l = w === 'white' ? 'black' : 'white';
    switch (g.endReason) {
      case 'checkmate': return `Checkmate: ${side(w)} wins.`;
      case 'greenGem': return `Green Gem: ${side(w)} mated by taking a High Prince and wins.`;
      case 'resignation': return `${side(l)} resigned: ${side(w)} wins.`;
      case 'time': return `${side(l)} ran out of time: ${side(w)} wins.`;
      case 'opponentLeft': return `${side(l)} left the game: ${side(w)} claimed the victory.`;
      case 'stalemate': return 'Stalemate: a draw.';
      case 'agreement': return 'Draw by agreement.';
      case 'repetition': return 'Draw by threefold repetition.';
      case 'fiftyMoves': return 'Draw by the fifty-move rule: 50 moves without a capture or a pawn move.';
      case 'citadel': return 'Draw: a king reached the opponent\'s citadel.';
      case 'bareKing': return 'Draw: a side has only its king left (bare king).';
      case 'insufficientMaterial': return 'Draw: neither side can mate.';
      case 'aborted': return 'The game was aborted: no result.';
      case 'noStart': return 'The game did not start in time: aborted, no result.';
      default: return resultText(g);
    }
  }

  // The account's event stream, one per page, shared by whoever listens on the page (the
  // arena keeps one per account, a newer one closing the older). Opened at the first listener
  // while signed in; reopened after a pause when it closes, once the tab is in front again
  // (two tabs then do not take it from each other in a loop: the one in front has it).
  const listeners = [];
  let eventsOpen = false;
  function openEvents() {
    eventsOpen = true;
    stream('/api/stream/event', (ev) => {
      for (const f of listeners.slice()) {
        try { f(ev); } catch (e) { console.error(e); }
      }
    }, () => {
      eventsOpen = false;
      const again = () => {
        if (document.visibilityState === 'visible') setTimeout(openEvents, 2000);
        else document.addEventListener('visibilitychange', again, { once: true });
      };
      again();
    });
  }
  function onEvent(f) {
    listeners.push(f);
    if (!eventsOpen && me()) openEvents();
  }

  // Challenges to the signed-in player, on every page but the lobby (which lists them itself):
  // a notice with Accept (then the game's page) and Decline, gone when the challenge is.
  function challengeNotices() {
    if (!me() || document.getElementById('challenges')) return;
    const box = el('div', { id: 'challenge-notices', class: 'challenge-notices', role: 'region', 'aria-label': 'Challenges to you', 'aria-live': 'polite' });
    document.body.append(box);
    const drop = (id) => { const n = box.querySelector(`[data-challenge="${CSS.escape(id)}"]`); if (n) n.remove(); };
    async function answer(c, verb, n) {
      try {
        await post(`/api/challenge/${encodeURIComponent(c.id)}/${verb}`);
        if (verb === 'accept') location.href = `/${encodeURIComponent(c.id)}`;
        else drop(c.id);
      } catch (e) {
        n.querySelector('.why').textContent = plain(e);
      }
    }
    onEvent((ev) => {
      const c = ev.challenge;
      if (!c) return;
      if (ev.type === 'challenge' && c.destUser && c.destUser.id === me()) {
        if (box.querySelector(`[data-challenge="${CSS.escape(c.id)}"]`)) return;
        const who = playerName({ name: c.challenger.name, bot: c.challenger.title === 'BOT', rating: c.challenger.rating });
        const terms = `${c.variant.name} · ${c.timeControl && c.timeControl.show ? c.timeControl.show : 'unlimited'} · ${c.rated ? 'rated' : 'casual'}`;
        const n = el('div', { class: 'challenge-notice', 'data-challenge': c.id },
          el('div', {}, el('b', {}, who), ' challenges you: ', terms),
          el('div', { class: 'row' },
            el('button', { type: 'button', class: 'accept', onclick: () => answer(c, 'accept', n) }, 'Accept'),
            el('button', { type: 'button', class: 'decline', onclick: () => answer(c, 'decline', n) }, 'Decline')),
          el('div', { class: 'why error' }));
        box.append(n);
      } else if (ev.type === 'challengeCanceled' || ev.type === 'challengeDeclined') {
        drop(c.id);
      }
    });
  }
  document.addEventListener('DOMContentLoaded', challengeNotices);

  // The board's theme, saved in this browser: `wood` (the default) or `blue`, a class on <html>.
  const THEME_KEY = 'arena.boardTheme';
  const savedTheme = () => { try { return localStorage.getItem(THEME_KEY) === 'blue' ? 'blue' : 'wood'; } catch (e) { return 'wood'; } };
  document.documentElement.classList.toggle('board-blue', savedTheme() === 'blue');
  document.addEventListener('DOMContentLoaded', () => {
    const pick = document.getElementById('board-theme');
    if (!pick) return;
    pick.value = savedTheme();
    pick.addEventListener('change', () => {
      try { localStorage.setItem(THEME_KEY, pick.value); } catch (e) { /* not saved: this page only */ }
      document.documentElement.classList.toggle('board-blue', pick.value === 'blue');
    });
  });

  // An API error in plain words for people (the arena's texts are written for programs).
  function plain(e) {
    const msg = (e && e.message) || String(e || '');
    if (e && e.status === 429) {
      const wait = /try again in ([^()]+?)(?: \(|\.|$)/.exec(msg);
      return wait ? `Too many requests: try again in ${wait[1]}.` : 'Too many requests: wait a moment and try again.';
    }
    if (e && e.status === 503) return 'The arena cannot save anything right now: try again in a moment.';
    if (e && e.status === 401) return 'You are signed out: sign in again.';
    if (e && e.status === 403) return 'Not allowed: reload the page and try again.';
    if (/^Not your turn/.test(msg)) return 'It is not your turn, or the game is over: nothing was played.';
    if (/^Illegal move/.test(msg)) return 'That move is not legal in this position.';
    if (e instanceof TypeError) return 'The arena cannot be reached: check the connection and try again.';
    return msg;
  }

  // Names of the speeds (the perfs of chess).
  const speedNames = { ultraBullet: 'UltraBullet', bullet: 'Bullet', blitz: 'Blitz', rapid: 'Rapid', classical: 'Classical', correspondence: 'Correspondence' };

  return { api, get, post, stream, el, clock, me, csrf, playerName, resultText, endText, onEvent, plain, speedNames, ApiError };
})();
