"use strict";
// Plays the table's audio clips strictly in the order they arrive, one speaker at a time, and
// reports the playing seat's loudness (WebAudio AnalyserNode) so its avatar's mouth can follow.
window.LycanAudio = (() => {
  let ctx = null;
  let analyser = null;
  let samples = null;
  const queue = [];
  let playing = null; // {seat, utterance_id}
  const played = []; // "seat:utterance:clause" of the clips played, newest last (kept short)

  function enable() {
    if (!ctx) {
      const AC = window.AudioContext || window.webkitAudioContext;
      if (!AC) return false;
      ctx = new AC();
      analyser = ctx.createAnalyser();
      analyser.fftSize = 512;
      samples = new Uint8Array(analyser.fftSize);
      analyser.connect(ctx.destination);
    }
    if (ctx.state === "suspended") ctx.resume();
    return true;
  }

  function disable() {
    queue.length = 0;
    if (ctx) ctx.suspend();
  }

  const on = () => !!ctx && ctx.state !== "suspended";

  function decode(b64) {
    const bin = atob(b64);
    const bytes = new Uint8Array(bin.length);
    for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
    return bytes.buffer;
  }

  async function next() {
    if (playing || !queue.length || !on()) return;
    const clip = queue.shift();
    playing = clip;
    try {
      const buffer = await ctx.decodeAudioData(decode(clip.data));
      const src = ctx.createBufferSource();
      src.buffer = buffer;
      src.connect(analyser);
      src.onended = () => { playing = null; next(); };
      src.start();
      played.push(`${clip.seat}:${clip.utterance_id}:${clip.clause_index}`);
      if (played.length > 200) played.shift();
    } catch (err) {
      console.warn("could not play a clip", err);
      playing = null;
      next();
    }
  }

  function push(message) {
    if (!on()) return;
    queue.push(message);
    next();
  }

  // Loudness 0..1 of what is playing now, and whose voice it is.
  function level() {
    if (!playing || !analyser) return null;
    analyser.getByteTimeDomainData(samples);
    let sum = 0;
    for (const s of samples) sum += ((s - 128) / 128) ** 2;
    return { seat: playing.seat, level: Math.min(1, Math.sqrt(sum / samples.length) * 4) };
  }

  return { enable, disable, push, level, on, played };
})();
