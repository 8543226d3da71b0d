// The game page's sounds, made in the browser (Web Audio: no sound file, nothing to fetch but
// this script, which the page loads at its first sound). `Sound.play(kind)` plays one of
// `move`, `capture`, `check`, `lowTime`, `start`, `end`; `Sound.log` lists what was played
// (what the browser tests read).
'use strict';

window.Sound = (() => {
  // Each sound: notes of [frequency (Hz), start (s), length (s), wave, volume].
  const NOTES = {
    move: [[420, 0, 0.06, 'triangle', 0.35]],
    capture: [[300, 0, 0.05, 'square', 0.18], [180, 0.04, 0.09, 'triangle', 0.35]],
    check: [[880, 0, 0.08, 'sine', 0.3], [660, 0.09, 0.12, 'sine', 0.3]],
    lowTime: [[1040, 0, 0.07, 'sine', 0.25], [1040, 0.14, 0.07, 'sine', 0.25]],
    start: [[523, 0, 0.1, 'sine', 0.3], [784, 0.11, 0.16, 'sine', 0.3]],
    end: [[784, 0, 0.12, 'sine', 0.3], [659, 0.13, 0.12, 'sine', 0.3], [523, 0.26, 0.24, 'sine', 0.3]],
  };
  const log = [];
  let ctx = null;

  function play(kind) {
    const notes = NOTES[kind];
    if (!notes) return;
    log.push(kind);
    try {
      const AC = window.AudioContext || window.webkitAudioContext;
      if (!AC) return;
      ctx = ctx || new AC();
      // A context made before any click stays suspended; it starts at the next one.
      if (ctx.state === 'suspended') ctx.resume().catch(() => {});
      const t0 = ctx.currentTime + 0.01;
      for (const [freq, at, len, wave, vol] of notes) {
        const osc = ctx.createOscillator();
        const gain = ctx.createGain();
        osc.type = wave;
        osc.frequency.value = freq;
        gain.gain.setValueAtTime(0.0001, t0 + at);
        gain.gain.exponentialRampToValueAtTime(vol, t0 + at + 0.01);
        gain.gain.exponentialRampToValueAtTime(0.0001, t0 + at + len);
        osc.connect(gain).connect(ctx.destination);
        osc.start(t0 + at);
        osc.stop(t0 + at + len + 0.02);
      }
    } catch (e) { /* no sound in this browser: the game goes on */ }
  }

  return { play, log };
})();
