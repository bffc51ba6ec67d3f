"use strict";
// A participant's study page: the games to play in order (each under its interaction paradigm),
// then the questionnaire ranking the paradigms on each dimension.
(() => {
  const $ = (id) => document.getElementById(id);
  const parts = location.pathname.split("/").filter(Boolean); // studies/ID/TOKEN
  const api = `/api/studies/${parts[1]}/${parts[2]}`;
  const LABELS = {
    "text-text": "Text in, text out",
    "video-text": "Camera and voice in, text out",
    "video-video": "Camera and voice in, voices and faces out",
  };
  const WON = { village: "the village won", werewolf: "the werewolves won", draw: "a draw" };
  const make = (tag, cls, text) => {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  };
  let state = null;
  let drawnQuestionnaire = false;

  function error(text) {
    $("study-error").textContent = text;
    $("study-error").hidden = !text;
  }

  function draw(s) {
    state = s;
    $("study-intro").textContent = `${s.name}: ${s.games.length} games of ${s.preset}, each way of playing in turn.`;
    const list = $("study-games");
    list.innerHTML = "";
    for (const g of s.games) {
      const li = make("li", `study-game ${g.status.replace(" ", "-")}`);
      li.dataset.status = g.status;
      li.appendChild(make("span", "", `Game ${g.game + 1}: ${LABELS[g.paradigm] || g.paradigm} — `));
      if (g.status === "playing" && g.link) {
        const a = make("a", "", "playing: back to your seat");
        a.href = g.link;
        a.onclick = () => sessionStorage.setItem("lycan-study", location.pathname);
        li.appendChild(a);
      } else li.appendChild(make("span", "", g.status === "finished" ? `finished, ${WON[g.winner] || "over"}` : "to play"));
      list.appendChild(li);
    }
    const playing = s.games.some((g) => g.status === "playing");
    $("next-game").hidden = s.next === null || playing;
    if (s.next !== null) $("next-game").textContent = `Play game ${s.next + 1}: ${LABELS[s.games[s.next].paradigm]}`;
    const q = s.questionnaire;
    $("questionnaire").hidden = !q.due;
    $("thanks").hidden = !q.answered;
    if (q.due && !drawnQuestionnaire) drawQuestionnaire(q);
  }

  function drawQuestionnaire(q) {
    drawnQuestionnaire = true;
    const box = $("rankings");
    box.innerHTML = "";
    for (const dim of q.dimensions) {
      const field = make("fieldset", "ranking");
      field.dataset.dimension = dim;
      field.appendChild(make("legend", "", `Which way of playing felt best for ${dim}?`));
      q.paradigms.forEach((_, rank) => {
        const label = make("label", "", `${["First", "Second", "Third"][rank] || `Number ${rank + 1}`}: `);
        const select = make("select");
        select.dataset.rank = String(rank);
        q.paradigms.forEach((p, i) => {
          const o = make("option", "", LABELS[p] || p);
          o.value = p;
          if (i === rank) o.selected = true;
          select.appendChild(o);
        });
        label.appendChild(select);
        field.appendChild(label);
      });
      box.appendChild(field);
    }
  }

  async function refresh() {
    const res = await fetch(api);
    if (!res.ok) { error("This study is not on the server (it may have been restarted)."); return; }
    draw(await res.json());
  }

  $("next-game").onclick = async () => {
    error("");
    const res = await fetch(`${api}/next`, { method: "POST" });
    const data = await res.json();
    if (!res.ok) { error(data.detail || "Could not start the game."); return; }
    draw(data);
    const game = data.games.find((g) => g.status === "playing");
    if (game) {
      sessionStorage.setItem("lycan-study", location.pathname);
      location.href = game.link;
    }
  };

  $("questionnaire").onsubmit = async (e) => {
    e.preventDefault();
    error("");
    const rankings = {};
    for (const field of document.querySelectorAll("#rankings fieldset")) {
      const order = [...field.querySelectorAll("select")].map((s) => s.value);
      if (new Set(order).size !== order.length) {
        error(`For ${field.dataset.dimension}, name each way of playing once.`);
        return;
      }
      rankings[field.dataset.dimension] = order;
    }
    const res = await fetch(`${api}/answers`, {
      method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ rankings }),
    });
    const data = await res.json();
    if (!res.ok) { error(data.detail || "Your answers were not taken."); return; }
    draw(data);
  };

  refresh();
  setInterval(refresh, 3000);
})();
