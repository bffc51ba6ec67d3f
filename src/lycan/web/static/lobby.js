"use strict";
(() => {
  const $ = (id) => document.getElementById(id);
  let presets = [];
  const PLURAL = { werewolf: "werewolves", possessed: "possessed" };

  function showRoles() {
    const p = presets.find((x) => x.name === $("preset").value);
    if (!p) return;
    $("preset-roles").textContent = `${p.players} players: ` +
      Object.entries(p.roles).map(([r, n]) => `${n} ${n === 1 ? r : PLURAL[r] || r + "s"}`).join(", ");
    $("humans").max = String(p.players);
  }

  function showNames() {
    const n = Math.max(0, Math.min(50, parseInt($("humans").value || "0", 10)));
    const box = $("names");
    const old = [...box.querySelectorAll("input")].map((i) => i.value);
    box.innerHTML = "";
    for (let i = 0; i < n; i++) {
      const label = document.createElement("label");
      label.textContent = `Name of person ${i + 1}`;
      const input = document.createElement("input");
      input.maxLength = 24;
      input.placeholder = `Guest ${i + 1}`;
      input.value = old[i] || "";
      input.className = "person-name";
      label.appendChild(input);
      box.appendChild(label);
    }
  }

  async function load() {
    const res = await fetch("/api/options");
    const opts = await res.json();
    presets = opts.presets;
    for (const p of presets) {
      const o = document.createElement("option");
      o.value = p.name;
      o.textContent = `${p.name} (${p.players} players)`;
      $("preset").appendChild(o);
    }
    for (const a of opts.agents) {
      const o = document.createElement("option");
      o.value = a;
      o.textContent = a;
      $("ai").appendChild(o);
    }
    // paradigms this server cannot offer (no camera perceiver, no voices) are shown but disabled
    for (const o of $("paradigm").options) {
      if ((o.dataset.camera && !opts.perception) || (o.dataset.audio && !opts.audio)) o.disabled = true;
    }
    if (opts.max_wait) $("timeout").max = String(opts.max_wait);
    if (opts.night_min !== undefined) $("night-min").placeholder = String(opts.night_min);
    showRoles();
    showNames();
  }

  function link(label, path, primary) {
    const li = document.createElement("li");
    const url = new URL(path, location.origin).href;
    const a = document.createElement("a");
    a.href = url;
    a.textContent = label;
    a.className = primary ? "button primary" : "button";
    a.target = "_blank";
    const code = document.createElement("code");
    code.textContent = url;
    const copy = document.createElement("button");
    copy.type = "button";
    copy.textContent = "Copy";
    copy.onclick = () => navigator.clipboard && navigator.clipboard.writeText(url);
    li.append(a, code, copy);
    return li;
  }

  async function create(ev) {
    ev.preventDefault();
    $("lobby-error").hidden = true;
    const body = {
      preset: $("preset").value,
      humans: parseInt($("humans").value || "0", 10),
      names: [...document.querySelectorAll(".person-name")].map((i) => i.value),
      ai: $("ai").value,
    };
    if ($("timeout").value) body.timeout = parseFloat($("timeout").value);
    if ($("ai-delay").value) body.ai_delay = parseFloat($("ai-delay").value);
    if ($("night-min").value) body.night_min = parseFloat($("night-min").value);
    if ($("seed").value) body.seed = parseInt($("seed").value, 10);
    if ($("paradigm").value) body.paradigm = $("paradigm").value;
    const res = await fetch("/api/tables", {
      method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body),
    });
    const data = await res.json();
    if (!res.ok) {
      const detail = Array.isArray(data.detail) ? data.detail.map((d) => d.msg).join("; ") : data.detail;
      $("lobby-error").textContent = detail || "The table could not be created.";
      $("lobby-error").hidden = false;
      return;
    }
    const list = $("link-list");
    list.innerHTML = "";
    data.seats.forEach((s, i) => list.appendChild(link(`Seat of ${s.name}`, s.link, i === 0)));
    list.appendChild(link("Spectator", data.spectator, data.seats.length === 0));
    $("links").hidden = false;
  }

  $("preset").addEventListener("change", showRoles);
  $("humans").addEventListener("input", showNames);
  $("new-table").addEventListener("submit", create);
  load();
})();
