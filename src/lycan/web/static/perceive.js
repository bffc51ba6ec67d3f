"use strict";
// The camera half of the Perceiver, run in the person's own browser: face and head tracking with
// Human (served by this server under /perception; nothing is fetched from elsewhere), turned into a
// description of what the camera showed while the person spoke: expressions and head gestures, each
// with its onset (seconds into the utterance). No frame, image or landmark leaves the page: only
// the description, sent with the person's words.
//
// LycanPerceiver.start(onStatus, preview) asks for the camera (after the person pressed the camera button),
// LycanPerceiver.mark() starts an utterance's window, LycanPerceiver.describe() ends it and returns
// {cues: [...]} or null, LycanPerceiver.stop() turns the camera off. LycanPerceiver.analyse(samples)
// is the pure part (samples in, cues out), so it can be tested on its own.
const LycanPerceiver = (() => {
  const EMOTIONS = { happy: "smile", angry: "frown", disgust: "frown", surprise: "raised", sad: "sad", fear: "sad" };
  const MAX_CUES = 6;
  const KEEP_MS = 30000; // samples kept: the last 30 s
  const P = {
    human: null, video: null, stream: null, running: false, samples: [], markAt: 0,
    frames: 0, since: 0, busyMs: 0, onStatus: () => {}, busy: false,
  };

  const median = (xs) => {
    const s = [...xs].sort((a, b) => a - b);
    const n = s.length;
    return n ? (n % 2 ? s[(n - 1) / 2] : (s[n / 2 - 1] + s[n / 2]) / 2) : 0;
  };
  const smooth = (xs) => xs.map((_, i) => {
    const w = xs.slice(Math.max(0, i - 1), i + 2);
    return w.reduce((a, b) => a + b, 0) / w.length;
  });

  // The turning points of `xs` whose swing from the previous one is at least `min`, with their indices.
  function swings(xs, min) {
    const out = [];
    let lo = 0, hi = 0, dir = 0;
    for (let i = 1; i < xs.length; i++) {
      if (dir >= 0) {
        if (xs[i] > xs[hi]) hi = i;
        if (xs[hi] - xs[i] >= min) { if (dir > 0 || xs[hi] - xs[lo] >= min) out.push(hi); dir = -1; lo = i; }
      }
      if (dir <= 0) {
        if (xs[i] < xs[lo]) lo = i;
        if (xs[i] - xs[lo] >= min) { if (dir < 0 || xs[hi] - xs[lo] >= min) out.push(lo); dir = 1; hi = i; }
      }
    }
    return out;
  }

  // Cues from samples {t (ms), x, y, w, h (face box centre and size, 0..1 of the frame), pitch, yaw,
  // roll (radians), emotion, score}; t0: the utterance's start. Thresholds are in face sizes and
  // radians, so they hold at any distance from the camera.
  function analyse(samples, t0) {
    const faces = samples.filter((s) => s.h > 0);
    if (faces.length < 5) return null;
    const start = t0 === undefined ? faces[0].t : t0;
    const onset = (i) => Math.max(0, Math.round((faces[i].t - start) / 10) / 100);
    const size = median(faces.map((s) => s.h));
    const vert = smooth(faces.map((s) => s.y / size));
    const horiz = smooth(faces.map((s) => s.x / size));
    const yaw = smooth(faces.map((s) => s.yaw));
    const pitch = smooth(faces.map((s) => s.pitch));
    const roll = smooth(faces.map((s) => s.roll));
    const cues = [];
    // Nods and shakes: at least two swings back and forth, the one axis well above the other.
    const vs = Math.max(swings(vert, 0.06).length, swings(pitch, 0.12).length);
    const hs = Math.max(swings(horiz, 0.06).length, swings(yaw, 0.15).length);
    const range = (xs) => Math.max(...xs) - Math.min(...xs);
    const vr = range(vert), hr = range(horiz);
    let gesture = null, at = 0;
    if (vs >= 2 && (hs < 2 || vr > 1.3 * hr)) {
      gesture = "nod";
      const first = swings(vert, 0.06);
      at = first.length ? first[0] : 0;
    } else if (hs >= 2 && (vs < 2 || hr > 1.3 * vr)) {
      gesture = "shake";
      const first = swings(horiz, 0.06);
      at = first.length ? first[0] : 0;
    }
    if (gesture) cues.push({ kind: "gesture", value: gesture, onset: onset(at) });
    else {
      // A turn: the head ends up to one side of where it began and stays there. The camera faces
      // the speaker, so the image's right is the speaker's left.
      // (In Human's angles a turn to the speaker's left is a negative yaw.) The head's pose at the
      // start of the utterance is the median of its first tenth; where it ended, of its last quarter.
      const n = faces.length, k0 = Math.max(3, Math.floor(n / 10)), k = Math.max(3, Math.floor(n / 4));
      const first = median(horiz.slice(0, k0)), last = median(horiz.slice(n - k));
      const shift = last - first;
      const turned = median(yaw.slice(n - k)) - median(yaw.slice(0, k0));
      if (Math.abs(shift) >= 0.12 || Math.abs(turned) >= 0.25) {
        const left = Math.abs(shift) >= 0.12 ? shift > 0 : turned < 0;
        const i = horiz.findIndex((v) => Math.abs(v - first) >= Math.abs(shift) / 2);
        cues.push({ kind: "gesture", value: left ? "turn_left" : "turn_right", onset: onset(Math.max(0, i)) });
      } else {
        const tilt = median(roll.slice(n - k)) - median(roll.slice(0, k0));
        const down = median(pitch.slice(n - k)) - median(pitch.slice(0, k0));
        const drop = median(vert.slice(n - k)) - median(vert.slice(0, k0));
        if (Math.abs(tilt) >= 0.2) cues.push({ kind: "gesture", value: "tilt", onset: onset(Math.floor(n / 2)) });
        else if (down >= 0.25 || drop >= 0.25) cues.push({ kind: "gesture", value: "look_down", onset: onset(Math.floor(n / 2)) });
      }
    }
    // The expression held longest, if it is not neutral and held in at least a third of the frames.
    const counts = {};
    faces.forEach((s, i) => {
      const e = s.score >= 0.4 ? EMOTIONS[s.emotion] : undefined;
      if (e) { counts[e] = counts[e] || { n: 0, first: i }; counts[e].n++; }
    });
    const best = Object.entries(counts).sort((a, b) => b[1].n - a[1].n)[0];
    if (best && best[1].n >= faces.length / 3) cues.push({ kind: "expression", value: best[0], onset: onset(best[1].first) });
    cues.sort((a, b) => a.onset - b.onset);
    return cues.length ? { cues: cues.slice(0, MAX_CUES) } : null;
  }

  function sample(result, t) {
    const f = result.face && result.face[0];
    if (!f || !f.boxRaw) return { t, h: 0 };
    const [x, y, w, h] = f.boxRaw;
    const a = (f.rotation && f.rotation.angle) || { pitch: 0, yaw: 0, roll: 0 };
    const e = (f.emotion && f.emotion[0]) || { emotion: "neutral", score: 0 };
    return { t, x: x + w / 2, y: y + h / 2, w, h, pitch: a.pitch, yaw: a.yaw, roll: a.roll, emotion: e.emotion, score: e.score };
  }

  async function loop() {
    if (!P.running) return;
    const began = performance.now();
    try {
      const r = await P.human.detect(P.video);
      const now = performance.now();
      P.samples.push(sample(r, now));
      while (P.samples.length && P.samples[0].t < now - KEEP_MS) P.samples.shift();
      P.frames++;
      P.busyMs += performance.now() - began;
    } catch (err) {
      P.onStatus("error", `face tracking stopped: ${err.message}`);
      stop();
      return;
    }
    next();
  }

  // The next detection runs when the camera has a new frame (each frame is looked at once).
  function next() {
    if (!P.running) return;
    if (P.video.requestVideoFrameCallback) P.video.requestVideoFrameCallback(() => loop());
    else setTimeout(loop, 30);
  }

  // preview: an optional <video> element that shows the person their own camera (it stays in the page)
  async function start(onStatus, preview) {
    P.onStatus = onStatus || (() => {});
    if (preview) P.video = preview;
    if (P.running) return true;
    if (!navigator.mediaDevices || !navigator.mediaDevices.getUserMedia) {
      P.onStatus("error", "This browser has no camera access; go on with text or voice.");
      return false;
    }
    P.onStatus("loading", "Loading the face tracker…");
    try {
      if (!P.human) {
        const { Human } = await import("/perception/lib/human.esm.js");
        P.human = new Human({
          backend: "wasm", wasmPath: "/perception/wasm/", modelBasePath: "/perception/models/",
          debug: false, async: true, warmup: "none", filter: { enabled: false },
          face: {
            enabled: true, detector: { rotation: false, maxDetected: 1 }, mesh: { enabled: true },
            iris: { enabled: false }, emotion: { enabled: true }, description: { enabled: false },
            antispoof: { enabled: false }, liveness: { enabled: false },
          },
          body: { enabled: false }, hand: { enabled: false }, object: { enabled: false },
          gesture: { enabled: false }, segmentation: { enabled: false },
        });
        await P.human.load();
      }
    } catch (err) {
      P.onStatus("error", `The face tracker could not start (${err.message}); go on with text or voice.`);
      return false;
    }
    // The camera is opened once the tracker is ready, so the utterance's window starts with it.
    try {
      P.stream = await navigator.mediaDevices.getUserMedia({ video: { width: 320, height: 240 }, audio: false });
    } catch (err) {
      const why = err.name === "NotAllowedError" ? "permission denied" : err.message;
      P.onStatus("error", `No camera (${why}); go on with text or voice.`);
      return false;
    }
    P.video = P.video || Object.assign(document.createElement("video"), { muted: true, playsInline: true });
    P.video.srcObject = P.stream;
    await P.video.play();
    for (const track of P.stream.getVideoTracks()) {
      track.addEventListener("ended", () => {
        if (P.running) { stop(); P.onStatus("error", "The camera was lost; go on with text or voice."); }
      });
    }
    P.running = true;
    P.samples = [];
    P.frames = 0;
    P.busyMs = 0;
    P.since = performance.now();
    P.markAt = P.since;
    loop();
    P.onStatus("on", "Camera on");
    return true;
  }

  function stop() {
    P.running = false;
    if (P.stream) P.stream.getTracks().forEach((t) => t.stop());
    P.stream = null;
    P.samples = [];
  }

  return {
    analyse,
    start,
    stop,
    on: () => P.running,
    mark: () => { P.markAt = performance.now(); },
    describe: () => {
      if (!P.running) return null;
      const t0 = P.markAt;
      return analyse(P.samples.filter((s) => s.t >= t0), t0);
    },
    samples: () => P.samples.slice(),
    // frames looked at per second, and the milliseconds one look takes (how fast it could go)
    fps: () => (P.running ? P.frames / Math.max(0.001, (performance.now() - P.since) / 1000) : 0),
    msPerFrame: () => (P.frames ? P.busyMs / P.frames : 0),
  };
})();
window.LycanPerceiver = LycanPerceiver;
