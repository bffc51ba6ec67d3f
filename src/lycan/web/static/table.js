"use strict";
(() => {
  const $ = (id) => document.getElementById(id);
  const parts = location.pathname.split("/").filter(Boolean); // tables/ID/seats/TOKEN or tables/ID/watch
  const tableId = parts[1];
  const token = parts[2] === "seats" ? parts[3] : null;
  const wsPath = token ? `/ws/tables/${tableId}/seats/${token}` : `/ws/tables/${tableId}/watch`;

  const S = {
    hello: null, names: [], kinds: [], personas: [], alive: [], you: null, phase: "setup", day: 0,
    seats: [], request: null, deadline: 0, finished: false, live: {}, mouth: {}, ws: null, retry: 500, meter: null,
  };

  // ------------------------------------------------------------------ helpers
  const make = (tag, cls, text) => {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  };
  const spoken = (t) => t.replace(/\s/g, "").length;
  let toastTimer = null;
  function toast(text, kind) {
    const t = $("toast");
    t.textContent = text;
    t.className = `toast ${kind || "error"}`;
    t.hidden = false;
    clearTimeout(toastTimer);
    toastTimer = setTimeout(() => { t.hidden = true; }, 5000);
  }
  function send(msg) {
    if (S.ws && S.ws.readyState === WebSocket.OPEN) S.ws.send(JSON.stringify(msg));
  }

  // ------------------------------------------------------------------ seats around the table
  function buildRing() {
    const ring = $("ring");
    ring.querySelectorAll(".seat").forEach((e) => e.remove());
    S.seats = [];
    const n = S.names.length;
    ring.classList.toggle("crowded", n >= 9);
    // put "you" at the bottom, others clockwise
    const offset = S.you === null ? 0 : S.you;
    S.names.forEach((name, seat) => {
      const k = (seat - offset + n) % n;
      const angle = Math.PI / 2 + (2 * Math.PI * k) / n;
      const x = 50 + 41 * Math.cos(angle);
      const y = 50 + 38 * Math.sin(angle);
      const box = make("div", "seat");
      box.dataset.seat = String(seat);
      box.style.left = `${x}%`;
      box.style.top = `${y}%`;
      const ai = S.kinds[seat] !== "human";
      box.classList.add(ai ? "ai" : "human");
      if (seat === S.you) box.classList.add("you");
      if (y < 40) box.classList.add("top-half");
      const pic = make("div", "avatar");
      if (ai) pic.appendChild(LycanAvatar.face(seat));
      else pic.appendChild(make("div", "initials", name.split(/\s+/).map((w) => w[0]).join("").slice(0, 2).toUpperCase()));
      pic.appendChild(make("div", "thought", "…"));
      box.appendChild(pic);
      box.appendChild(make("div", "plate", seat === S.you ? `${name} (you)` : name));
      box.appendChild(make("div", "kind", ai ? S.kinds[seat] : "person"));
      const persona = S.personas[seat];
      if (persona) {
        // the AI's fictional character: how it talks, never its role
        const tag = make("div", "persona", persona);
        tag.title = `Plays a character: ${persona}`;
        box.appendChild(tag);
      }
      const bubble = make("div", "bubble");
      bubble.hidden = true;
      box.appendChild(bubble);
      box.addEventListener("click", () => clickSeat(seat));
      ring.appendChild(box);
      S.seats[seat] = box;
    });
    paintAlive();
    paintMeter();
  }

  // ------------------------------------------------------------------ the suspicion meter (spectators)
  const pct = (p) => `${Math.round(p * 100)}%`;
  function paintMeter() {
    if (!S.meter || S.you !== null) return;
    for (const r of S.meter) {
      const box = S.seats[r.seat];
      if (!box) continue;
      let bar = box.querySelector(".meter");
      if (!bar) {
        bar = make("div", "meter");
        bar.appendChild(make("div", "meter-fill"));
        bar.appendChild(make("span", "meter-pct"));
        box.insertBefore(bar, box.querySelector(".bubble"));
      }
      bar.dataset.p = String(r.werewolf);
      bar.querySelector(".meter-fill").style.width = pct(r.werewolf);
      bar.querySelector(".meter-pct").textContent = pct(r.werewolf);
      bar.title = `${pct(r.werewolf)} chance of being on the werewolf side (likeliest role: ${r.role}, ${pct(r.role_p)}), from the public record alone`;
    }
  }

  function paintAlive() {
    S.seats.forEach((box, seat) => box.classList.toggle("dead", S.alive.length > 0 && !S.alive[seat]));
  }

  function setActivity(seat, state) {
    const box = S.seats[seat];
    if (!box) return;
    box.classList.toggle("thinking", state === "thinking");
  }

  function bubble(seat, text, channel, live) {
    const box = S.seats[seat];
    if (!box) return;
    const b = box.querySelector(".bubble");
    // one speaker at a time: the newest words are the ones on show
    document.querySelectorAll(".seat .bubble").forEach((o) => { if (o !== b && !o.classList.contains("live")) o.hidden = true; });
    b.textContent = text;
    b.classList.toggle("whisper", channel === "whisper");
    b.classList.toggle("live", !!live);
    b.hidden = false;
    clearTimeout(b._t);
    if (!live) b._t = setTimeout(() => { b.hidden = true; }, 6000);
  }

  // ------------------------------------------------------------------ the log
  function logLine(cls, text, who) {
    const li = make("li", cls);
    if (who !== undefined) {
      li.appendChild(make("span", "who", who));
      li.appendChild(make("span", "said", text));
    } else li.textContent = text;
    const log = $("log");
    const atBottom = log.scrollHeight - log.scrollTop - log.clientHeight < 60;
    log.appendChild(li);
    if (atBottom) log.scrollTop = log.scrollHeight;
    return li;
  }

  function onEvent(m) {
    const d = m.data || {};
    if (m.kind === "talk") {
      const live = S.live[d.actor];
      if (live) { live.li.remove(); delete S.live[d.actor]; }
      if (d.over || d.skip) return;
      if (d.manner) showManner(d.actor, d.manner, false);
      const cls = `talk${d.channel === "whisper" ? " whisper" : ""}${d.actor === S.you ? " mine" : ""}`;
      const li = logLine(cls, d.text, S.names[d.actor] + (d.channel === "whisper" ? " (whisper)" : ""));
      // what the speaker's camera showed: a caption, never the video
      if (m.caption) li.appendChild(make("span", "seen", m.caption));
      bubble(d.actor, m.caption ? `${d.text} ${m.caption}` : d.text, d.channel, false);
      return;
    }
    if (m.kind === "wolf_pack" && S.you !== null) {
      for (const w of d.members || []) if (w !== S.you && S.seats[w]) S.seats[w].classList.add("ally");
    }
    if (!m.text) return;
    let cls = "sys";
    if (m.kind === "phase_started") cls = "phase";
    else if (d.audience !== null && d.audience !== undefined) cls = "private";
    else if (["died", "executed", "hunter_shot"].includes(m.kind)) cls = "death";
    else if (m.kind === "game_over") cls = "phase";
    logLine(cls, m.text);
    if (m.kind === "phase_started") {
      document.querySelectorAll(".seat .bubble").forEach((b) => { b.hidden = true; });
    }
    if (m.kind === "phase_started" || m.kind === "executed" || m.kind === "died" || m.kind === "peaceful_night") {
      $("center-note").textContent = m.text;
    }
  }

  function onSpeech(m) {
    let live = S.live[m.seat];
    if (!live || live.id !== m.utterance_id) {
      if (live) live.li.remove();
      const li = logLine(`talk live${m.channel === "whisper" ? " whisper" : ""}`, "", S.names[m.seat]);
      live = S.live[m.seat] = { id: m.utterance_id, li, text: "" };
    }
    live.text += m.piece;
    live.li.querySelector(".said").textContent = live.text;
    bubble(m.seat, live.text, m.channel, true);
    if (!(S.hello && S.hello.audio && LycanAudio.on())) {
      const until = performance.now() + Math.max(400, m.piece.length * 45);
      S.mouth[m.seat] = Math.max(S.mouth[m.seat] || 0, until);
    }
  }

  // How an utterance is delivered: the speaker's face takes its expression and makes its gesture.
  function showManner(seat, manner, again) {
    const box = S.seats[seat];
    if (box) LycanAvatar.setManner(box.querySelector(".avatar"), manner, again);
  }

  function onSpeechEnd(m) {
    const box = S.seats[m.seat];
    if (box) box.querySelector(".bubble").classList.remove("live");
  }

  // ------------------------------------------------------------------ phase and state
  function onState(m) {
    S.alive = m.alive;
    S.day = m.day;
    S.phase = m.phase;
    document.body.classList.toggle("night", m.phase === "night");
    document.body.classList.toggle("day", m.phase !== "night");
    const label = m.phase === "night" ? `Night ${m.day}` : m.phase === "end" ? "Game over" : m.phase === "setup" ? "Setting up" : `Day ${m.day}`;
    $("phase-label").textContent = label;
    paintAlive();
  }

  // ------------------------------------------------------------------ requests
  function clearRequest() {
    S.request = null;
    const p = $("action-panel");
    p.dataset.requestId = "";
    p.dataset.kind = "";
    p.classList.remove("active");
    $("choices").innerHTML = "";
    $("talk-box").hidden = true;
    $("action-error").hidden = true;
    $("countdown").textContent = "";
    $("action-prompt").textContent = S.finished ? "The game is over."
      : (S.you === null ? "Watching · the red bars: each player's chance of being on the werewolf side, from the public record alone" : "Wait for your turn…");
    document.querySelectorAll(".seat.pickable").forEach((e) => e.classList.remove("pickable"));
  }

  function onRequest(m) {
    S.request = m;
    const now = Date.now();
    S.deadline = m.deadline_ms > now && m.deadline_ms < now + m.timeout * 1000 + 5000 ? m.deadline_ms : now + m.timeout * 1000;
    const p = $("action-panel");
    p.dataset.requestId = String(m.id);
    p.dataset.kind = m.kind;
    p.classList.add("active");
    $("action-prompt").textContent = m.prompt;
    const err = $("action-error");
    err.hidden = !m.error;
    if (m.error) err.textContent = `Not accepted: ${m.error}`;
    const choices = $("choices");
    choices.innerHTML = "";
    if (m.kind === "talk" || m.kind === "whisper") {
      $("talk-box").hidden = false;
      $("skip-btn").hidden = !m.can_skip;
      $("talk-input").placeholder = m.kind === "whisper" ? "Whisper to your pack…" : "Say something to the table…";
      if (LycanPerceiver.on()) LycanPerceiver.mark(); // what the camera sees from now goes with these words
      updateCount();
      $("talk-input").focus();
      return;
    }
    $("talk-box").hidden = true;
    if (m.kind === "bid") {
      for (let a = 0; a <= 3; a++) {
        const b = make("button", "choice", String(a));
        b.dataset.amount = String(a);
        b.onclick = () => act({ action: "bid", amount: a });
        choices.appendChild(b);
      }
      return;
    }
    for (const t of m.targets) {
      const b = make("button", "choice", t.name);
      b.dataset.target = String(t.seat);
      b.onclick = () => act({ action: "choose", target: t.seat });
      choices.appendChild(b);
      if (S.seats[t.seat]) S.seats[t.seat].classList.add("pickable");
    }
    if (m.can_pass) {
      const b = make("button", "choice pass", "Nobody");
      b.dataset.pass = "1";
      b.onclick = () => act({ action: "pass" });
      choices.appendChild(b);
    }
  }

  function clickSeat(seat) {
    const r = S.request;
    if (r && r.targets && r.targets.some((t) => t.seat === seat)) act({ action: "choose", target: seat });
  }

  function act(fields) {
    if (!S.request) return;
    send({ type: "act", request_id: S.request.id, ...fields });
  }

  function updateCount() {
    const r = S.request;
    const n = spoken($("talk-input").value);
    const max = r ? r.max_length : 0;
    $("talk-count").textContent = max ? `${n}/${max}` : "";
    $("talk-count").classList.toggle("over", !!max && n > max);
  }

  function say() {
    const text = $("talk-input").value.trim();
    const r = S.request;
    if (!text) { toast("Type something first, or press Over."); return; }
    if (r && r.max_length && spoken(text) > r.max_length) {
      toast(`That is ${spoken(text)} characters (spaces not counted); the limit is ${r.max_length}.`);
      return;
    }
    const seen = LycanPerceiver.on() ? LycanPerceiver.describe() : null;
    act(seen ? { action: "speak", text, seen } : { action: "speak", text });
    if (LycanPerceiver.on()) LycanPerceiver.mark();
  }

  // ------------------------------------------------------------------ the camera (off until the person turns it on)
  function cameraStatus(state, text) {
    const st = $("camera-status");
    st.textContent = state === "on" ? "" : text;
    st.hidden = state === "on";
    const on = state === "on";
    $("camera-preview").hidden = !on;
    $("camera").classList.toggle("on", on);
    $("camera").textContent = on ? "Camera on" : state === "loading" ? "Camera…" : "Camera off";
    document.body.dataset.camera = state;
    if (state === "error") toast(text);
  }
  async function toggleCamera() {
    if (LycanPerceiver.on()) { LycanPerceiver.stop(); cameraStatus("off", ""); return; }
    await LycanPerceiver.start(cameraStatus, $("camera-preview"));
  }

  function tick() {
    if (S.request) {
      const left = Math.max(0, Math.ceil((S.deadline - Date.now()) / 1000));
      $("countdown").textContent = `${left}s`;
      $("countdown").classList.toggle("low", left <= 5);
    }
  }

  // ------------------------------------------------------------------ the end
  function onGameOver(m) {
    S.finished = true;
    document.body.dataset.finished = "1";
    const study = sessionStorage.getItem("lycan-study"); // a study's game: its page goes on to the next
    if (study && /^\/studies\/[\w-]+\/[\w-]+$/.test(study)) {
      $("back-to-study").href = study;
      $("back-to-study").hidden = false;
    }
    clearRequest();
    const won = { village: "The village wins", werewolf: "The werewolves win", draw: "A draw" };
    $("winner").textContent = won[m.winner] || m.winner;
    $("winner").className = `winner ${m.winner}`;
    $("win-reason").textContent = m.reason;
    const cards = $("role-cards");
    cards.innerHTML = "";
    for (const r of m.roles) {
      const c = make("div", `role-card ${r.team}${r.seat === S.you ? " you" : ""}`);
      c.appendChild(make("div", "role-name", r.name + (r.seat === S.you ? " (you)" : "")));
      c.appendChild(make("div", "role-role", r.role));
      c.appendChild(make("div", "role-kind", r.kind === "human" ? "person" : r.kind));
      if (m.meter) {
        const mine = m.meter[r.seat];
        c.appendChild(make("div", "role-meter", `public record: ${pct(mine.werewolf)} werewolf side`));
      }
      cards.appendChild(c);
      const box = S.seats[r.seat];
      if (box) {
        box.querySelector(".kind").textContent = r.role;
        box.classList.add(`team-${r.team}`);
      }
    }
    if (S.you !== null) {
      const mine = m.roles[S.you];
      const verdict = m.winner === "draw" ? "Nobody won." : mine.team === m.winner ? "You won!" : "You lost.";
      $("your-result").textContent = `You were the ${mine.role}. ${verdict}`;
    }
    if (m.meter) { S.meter = m.meter; paintMeter(); }
    const replay = $("replay");
    replay.innerHTML = "";
    for (const line of m.replay) replay.appendChild(make("li", line.startsWith("[") ? "secret" : "", line));
    $("game-over").hidden = false;
  }

  // ------------------------------------------------------------------ connection
  function showSecrecy(s) {
    // What everyone at the table may know about its clock and its seed (see lycan.web.table).
    const box = $("secrecy");
    if (!s) { box.textContent = ""; return; }
    const parts = [`Seed: ${s.seed}.`, `AI pause ${s.ai_delay} s.`];
    if (s.night_wait > 0) parts.push(`Night requests come ${s.night_wait} s into the night.`);
    parts.push(`Nights last at least ${s.night_min} s.`);
    box.textContent = parts.join(" ");
  }

  function onHello(m) {
    S.hello = m;
    S.names = m.names;
    S.kinds = m.kinds;
    S.personas = m.personas || [];
    S.you = m.you;
    $("log").innerHTML = "";
    S.live = {};
    document.title = `Lycan — ${m.preset}`;
    const me = $("me");
    me.innerHTML = "";
    if (m.you !== null) {
      me.appendChild(make("span", "", `${m.names[m.you]} · `));
      me.appendChild(make("span", `role-badge ${m.team}`, m.role));
      $("log-title").textContent = "What you know";
    } else {
      me.appendChild(make("span", "role-badge spectator", "Spectator"));
      $("log-title").textContent = "Public record";
    }
    $("mic").hidden = !m.asr;
    $("sound").hidden = !m.audio;
    $("camera").hidden = !m.camera;
    showSecrecy(m.secrecy);
    buildRing();
    clearRequest();
  }

  const handlers = {
    hello: onHello,
    event: onEvent,
    state: onState,
    request: onRequest,
    request_closed: (m) => { if (S.request && S.request.id === m.id) { clearRequest(); $("talk-input").value = ""; } },
    activity: (m) => setActivity(m.seat, m.state),
    manner: (m) => showManner(m.seat, m.manner, true),
    speech: onSpeech,
    speech_end: onSpeechEnd,
    audio: (m) => LycanAudio.push(m),
    meter: (m) => { S.meter = m.seats; paintMeter(); },
    game_over: onGameOver,
    error: (m) => {
      if (S.request) { $("action-error").textContent = m.message; $("action-error").hidden = false; }
      toast(m.message);
      if (m.fatal) S.fatal = true;
    },
    pong: () => {},
  };

  function connect() {
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    const ws = new WebSocket(`${proto}//${location.host}${wsPath}`);
    S.ws = ws;
    ws.onopen = () => { $("conn").classList.add("up"); S.retry = 500; };
    ws.onmessage = (e) => {
      let m;
      try { m = JSON.parse(e.data); } catch { return; }
      const h = handlers[m.type];
      if (h) h(m);
    };
    ws.onclose = () => {
      $("conn").classList.remove("up");
      if (S.fatal) return;
      setTimeout(connect, S.retry);
      S.retry = Math.min(8000, S.retry * 2);
    };
  }

  // ------------------------------------------------------------------ mouths
  function animate(now) {
    const audio = LycanAudio.level();
    const voiced = !!(S.hello && S.hello.audio && LycanAudio.on()); // then only the sound moves mouths
    S.seats.forEach((box, seat) => {
      const svg = box.querySelector("svg.face");
      if (!svg) return;
      let open = 0;
      if (audio && audio.seat === seat) open = audio.level;
      else if (!voiced && (S.mouth[seat] || 0) > now) open = 0.35 + 0.35 * Math.sin(now / 55 + seat);
      box.classList.toggle("speaking", open > 0.05);
      LycanAvatar.setMouth(svg, open);
    });
    requestAnimationFrame(animate);
  }

  // ------------------------------------------------------------------ push to talk
  let recorder = null;
  let chunks = [];
  async function startRecording() {
    if (!navigator.mediaDevices || !window.MediaRecorder) { toast("This browser cannot record audio."); return; }
    try {
      const stream = await navigator.mediaDevices.getUserMedia({ audio: true });
      recorder = new MediaRecorder(stream);
      chunks = [];
      recorder.ondataavailable = (e) => chunks.push(e.data);
      recorder.onstop = async () => {
        stream.getTracks().forEach((t) => t.stop());
        const blob = new Blob(chunks, { type: recorder.mimeType || "audio/webm" });
        $("mic").textContent = "… transcribing";
        try {
          const res = await fetch(`/api/tables/${tableId}/seats/${token}/transcribe`, {
            method: "POST", headers: { "Content-Type": blob.type }, body: blob,
          });
          const data = await res.json();
          if (!res.ok) toast(data.detail || "Speech input failed.");
          else {
            $("talk-input").value = data.text;
            updateCount();
            $("talk-input").focus();
            toast("Check the text, edit it if needed, then press Say.", "info");
          }
        } finally { $("mic").textContent = "● Hold to talk"; }
      };
      recorder.start();
      $("mic").classList.add("recording");
    } catch (err) { toast(`No microphone: ${err.message}`); }
  }
  function stopRecording() {
    if (recorder && recorder.state === "recording") recorder.stop();
    $("mic").classList.remove("recording");
  }

  // ------------------------------------------------------------------ wiring
  $("say-btn").onclick = say;
  $("over-btn").onclick = () => act({ action: "over" });
  $("skip-btn").onclick = () => act({ action: "skip" });
  $("talk-input").addEventListener("input", updateCount);
  $("talk-input").addEventListener("keydown", (e) => { if (e.key === "Enter" && !e.shiftKey) { e.preventDefault(); say(); } });
  $("close-over").onclick = () => { $("game-over").hidden = true; };
  $("camera").onclick = toggleCamera;
  $("sound").onclick = () => {
    if (LycanAudio.on()) { LycanAudio.disable(); $("sound").textContent = "Sound off"; }
    else if (LycanAudio.enable()) $("sound").textContent = "Sound on";
  };
  const mic = $("mic");
  mic.addEventListener("pointerdown", () => { if (LycanPerceiver.on()) LycanPerceiver.mark(); startRecording(); });
  mic.addEventListener("pointerup", stopRecording);
  mic.addEventListener("pointerleave", stopRecording);
  setInterval(tick, 250);
  setInterval(() => send({ type: "ping" }), 25000);
  requestAnimationFrame(animate);
  connect();
})();
