"use strict";
// Animated avatars for AI seats: an SVG face whose eyes blink, whose mouth opens with the
// speech (the audio's amplitude when there is audio, else the token stream), with a thought
// bubble while a request is open, and grey with crossed eyes once dead.
window.LycanAvatar = (() => {
  const NS = "http://www.w3.org/2000/svg";
  const el = (tag, attrs) => {
    const e = document.createElementNS(NS, tag);
    for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
    return e;
  };

  function face(seat) {
    const hue = (seat * 137) % 360;
    const svg = el("svg", { viewBox: "0 0 100 100", class: "face", "aria-hidden": "true" });
    svg.appendChild(el("circle", { cx: 50, cy: 54, r: 38, fill: `hsl(${hue} 45% 62%)`, class: "head" }));
    // ears: a hint of wolf for everyone (nobody can tell who is real)
    svg.appendChild(el("path", { d: "M22 30 L26 8 L42 20 Z", fill: `hsl(${hue} 40% 48%)` }));
    svg.appendChild(el("path", { d: "M78 30 L74 8 L58 20 Z", fill: `hsl(${hue} 40% 48%)` }));
    const eyes = el("g", { class: "eyes" });
    eyes.appendChild(el("ellipse", { cx: 37, cy: 48, rx: 5, ry: 6, fill: "#1d1b26", class: "eye" }));
    eyes.appendChild(el("ellipse", { cx: 63, cy: 48, rx: 5, ry: 6, fill: "#1d1b26", class: "eye" }));
    svg.appendChild(eyes);
    const dead = el("g", { class: "dead-eyes", stroke: "#1d1b26", "stroke-width": 3, "stroke-linecap": "round" });
    for (const x of [37, 63]) {
      dead.appendChild(el("line", { x1: x - 5, y1: 43, x2: x + 5, y2: 53 }));
      dead.appendChild(el("line", { x1: x + 5, y1: 43, x2: x - 5, y2: 53 }));
    }
    svg.appendChild(dead);
    svg.appendChild(el("ellipse", { cx: 50, cy: 72, rx: 10, ry: 1.5, fill: "#3a1f2b", class: "mouth" }));
    svg.appendChild(el("circle", { cx: 28, cy: 64, r: 5, fill: "hsl(350 70% 70% / .45)" }));
    svg.appendChild(el("circle", { cx: 72, cy: 64, r: 5, fill: "hsl(350 70% 70% / .45)" }));
    return svg;
  }

  function setMouth(svg, open) {
    const m = svg.querySelector(".mouth");
    if (!m) return;
    const v = Math.max(0, Math.min(1, open));
    m.setAttribute("ry", (1.5 + v * 9).toFixed(2));
    m.setAttribute("rx", (10 - v * 2).toFixed(2));
  }

  return { face, setMouth };
})();
