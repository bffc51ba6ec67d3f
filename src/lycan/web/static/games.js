"use strict";
(() => {
  const $ = (id) => document.getElementById(id);
  const make = (tag, cls, text) => {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  };
  const pct = (p) => `${Math.round(p * 100)}%`;
  const parts = location.pathname.split("/").filter(Boolean); // games or games/ID
  const gameId = parts.length > 1 ? decodeURIComponent(parts[1]) : null;
  const V = { game: null, step: 0 };

  async function getJSON(url) {
    const res = await fetch(url);
    let body = null;
    try { body = await res.json(); } catch { body = null; }
    if (!res.ok) throw new Error((body && body.detail) || `the server answered ${res.status}`);
    return body;
  }

  // ------------------------------------------------------------------ the list
  async function showList() {
    $("list-view").hidden = false;
    const games = await getJSON("/api/games?limit=200");
    const body = $("games").querySelector("tbody");
    body.innerHTML = "";
    $("games-empty").hidden = games.length > 0;
    $("games").hidden = games.length === 0;
    for (const g of games) {
      const tr = make("tr", "game-row");
      tr.dataset.game = g.game_id;
      const link = make("a", "", g.game_id);
      link.href = `/games/${encodeURIComponent(g.game_id)}`;
      const first = make("td");
      first.appendChild(link);
      tr.appendChild(first);
      tr.appendChild(make("td", "", g.rules));
      tr.appendChild(make("td", `winner-cell ${g.winner}`, g.winner));
      tr.appendChild(make("td", "", String(g.days)));
      tr.appendChild(make("td", "", [...new Set(g.agents)].join(", ")));
      tr.appendChild(make("td", "", new Date(g.finished_at * 1000).toLocaleString()));
      body.appendChild(tr);
    }
  }

  // ------------------------------------------------------------------ one game
  function alive(game, upto) {
    // who is alive after the event with index `upto` in the viewer's own events
    const living = game.names.map(() => true);
    for (const e of game.events.slice(0, upto + 1)) {
      if (e.kind === "phase_started") game.names.forEach((_, s) => { living[s] = e.alive.includes(s); });
      else if (e.kind === "died" && e.audience === null) living[e.target] = false;
    }
    return living;
  }

  function lineClass(step) {
    if (step.kind === "phase_started" || step.kind === "game_over") return "phase";
    if (step.private) return "private";
    if (["died", "executed", "hunter_shot"].includes(step.kind)) return "death";
    if (step.kind === "talk") return "talk";
    return "sys";
  }

  function buildLog(game) {
    const log = $("log");
    log.innerHTML = "";
    game.steps.forEach((step, k) => {
      const li = make("li", lineClass(step), step.text);
      li.dataset.step = String(k);
      li.addEventListener("click", () => go(k));
      log.appendChild(li);
      for (const label of step.checkpoints) {
        const mark = make("li", "checkpoint", label);
        mark.dataset.after = String(k);
        log.appendChild(mark);
      }
    });
  }

  function buildMeter(game) {
    const list = $("meter");
    list.innerHTML = "";
    game.names.forEach((name, seat) => {
      const li = make("li", "meter-row");
      li.dataset.seat = String(seat);
      li.appendChild(make("span", "m-name", seat === game.viewer ? `${name} (this view)` : name));
      const bar = make("span", "m-bar");
      bar.appendChild(make("span", "m-fill"));
      li.appendChild(bar);
      li.appendChild(make("span", "m-pct"));
      li.appendChild(make("span", "m-role"));
      const truth = make("span", "m-truth");
      truth.hidden = true;
      li.appendChild(truth);
      list.appendChild(li);
    });
  }

  function paint() {
    const game = V.game;
    const k = V.step;
    const step = game.steps[k];
    const last = k === game.steps.length - 1;
    $("step-range").value = String(k);
    const when = step.phase === "night" ? `night ${step.day}` : step.phase === "day" ? `day ${step.day}` : step.phase;
    $("step-label").textContent = `step ${k + 1} of ${game.steps.length} · ${when}`;
    document.body.classList.toggle("night", step.phase === "night");
    document.querySelectorAll("#log li").forEach((li) => {
      const at = li.dataset.step !== undefined ? Number(li.dataset.step) : Number(li.dataset.after);
      li.hidden = at > k;
      li.classList.toggle("current", li.dataset.step !== undefined && at === k);
    });
    const current = document.querySelector(`#log li[data-step="${k}"]`);
    if (current) current.scrollIntoView({ block: "nearest" });
    const living = alive(game, step.event);
    const rows = document.querySelectorAll("#meter .meter-row");
    rows.forEach((li, seat) => {
      const r = step.meter ? step.meter[seat] : null;
      li.classList.toggle("dead", !living[seat]);
      li.dataset.p = r ? String(r.werewolf) : "";
      li.querySelector(".m-fill").style.width = r ? pct(r.werewolf) : "0";
      li.querySelector(".m-pct").textContent = r ? pct(r.werewolf) : "–";
      li.querySelector(".m-role").textContent = r ? `likeliest ${r.role} ${pct(r.role_p)}` : "";
      const truth = li.querySelector(".m-truth");
      const role = game.roles[seat];
      truth.hidden = !last;
      truth.textContent = `truly ${role.role}`;
      truth.className = `m-truth ${role.team}`;
    });
    $("meter-note").textContent = step.meter
      ? `Each player's chance of being on the werewolf side, worked out from ${game.viewer === null ? "the public record" : `what ${game.names[game.viewer]} knew`} up to this step${last ? ", beside the truth" : ""}.`
      : "No meter: the beliefs could not be worked out for this record.";
    const won = { village: "The village wins", werewolf: "The werewolves win", draw: "A draw" };
    $("result").hidden = !last;
    $("winner").textContent = won[game.winner] || game.winner;
    $("winner").className = `winner ${game.winner}`;
    $("win-reason").textContent = game.reason;
    document.body.dataset.step = String(k);
    document.body.dataset.end = last ? "1" : "";
  }

  function go(k) {
    if (!V.game) return;
    V.step = Math.max(0, Math.min(V.game.steps.length - 1, k));
    paint();
  }

  function partEnd(direction) {
    const steps = V.game.steps;
    if (direction > 0) {
      for (let k = V.step + 1; k < steps.length; k++) if (steps[k].checkpoints.length) return go(k);
      return go(steps.length - 1);
    }
    for (let k = V.step - 1; k >= 0; k--) if (steps[k].checkpoints.length) return go(k);
    return go(0);
  }

  async function load(seat) {
    const query = seat === "" ? "" : `?as=${encodeURIComponent(seat)}`;
    const before = V.game ? V.game.steps[V.step].public : null;
    $("viewer-error").hidden = true;
    document.body.dataset.loading = "1";
    $("meter-note").textContent = "Working out the meter for every step (a big table takes a few seconds the first time)…";
    try {
      const game = await getJSON(`/api/games/${encodeURIComponent(gameId)}${query}`);
      V.game = game;
      history.replaceState(null, "", `/games/${encodeURIComponent(gameId)}${query}`);
      $("log-title").textContent = game.viewer === null ? "Public record" : `What ${game.names[game.viewer]} (${game.role}) saw`;
      buildLog(game);
      buildMeter(game);
      $("step-range").max = String(game.steps.length - 1);
      // the same moment in the new view: the last step that had seen no more public events
      let k = 0;
      if (before !== null) game.steps.forEach((s, i) => { if (s.public <= before) k = i; });
      V.step = k;
      paint();
    } catch (err) {
      $("viewer-error").textContent = err.message;
      $("viewer-error").hidden = false;
    } finally {
      document.body.dataset.loading = "";
    }
  }

  async function showGame() {
    $("game-view").hidden = false;
    $("crumb-game").textContent = gameId;
    const seat = new URLSearchParams(location.search).get("as") || "";
    await load(seat);
    if (!V.game) return;
    $("game-title").textContent = V.game.title;
    document.title = `Lycan — ${V.game.rules} game`;
    const select = $("as");
    V.game.names.forEach((name, s) => {
      const o = make("option", "", `${name} (${V.game.agents[s]})`);
      o.value = String(s);
      select.appendChild(o);
    });
    select.value = seat;
    select.onchange = () => load(select.value);
    $("first").onclick = () => go(0);
    $("last").onclick = () => go(V.game.steps.length - 1);
    $("prev").onclick = () => go(V.step - 1);
    $("next").onclick = () => go(V.step + 1);
    $("prev-phase").onclick = () => partEnd(-1);
    $("next-phase").onclick = () => partEnd(1);
    $("step-range").oninput = () => go(Number($("step-range").value));
    document.addEventListener("keydown", (e) => {
      if (e.target instanceof HTMLSelectElement || e.target instanceof HTMLInputElement) return;
      if (e.key === "ArrowRight") go(V.step + 1);
      else if (e.key === "ArrowLeft") go(V.step - 1);
    });
  }

  (gameId ? showGame() : showList()).catch((err) => {
    const p = $("viewer-error");
    p.textContent = err.message;
    p.hidden = false;
    $("game-view").hidden = false;
  });
})();
