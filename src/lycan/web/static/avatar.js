"use strict";
// Animated avatars for AI seats: an SVG face whose eyes blink, whose mouth opens with the
// speech (the audio's amplitude when there is audio, else the token stream), with a thought
// bubble while a request is open, and grey with crossed eyes once dead. An utterance's manner
// shows on the face: its expression (brows, eyes and lips; `data-expression` on the avatar)
// and its gesture (a short movement of the head, `data-gesture`, animated in table.css).
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
    const brows = el("g", { class: "brows", stroke: "#1d1b26", "stroke-width": 3, "stroke-linecap": "round", fill: "none" });
    brows.appendChild(el("path", { d: "", class: "brow" }));
    brows.appendChild(el("path", { d: "", class: "brow" }));
    svg.appendChild(brows);
    svg.appendChild(el("path", { d: "", class: "lips", stroke: "#3a1f2b", "stroke-width": 3, "stroke-linecap": "round", fill: "none" }));
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

  // Per expression: the brows (left, right), the lips (a stroke over the mouth) and the eyes' size.
  const EXPRESSIONS = {
    neutral: { brows: ["", ""], lips: "", eye: [5, 6] },
    smile: { brows: ["M30 36 Q37 32 44 36", "M56 36 Q63 32 70 36"], lips: "M38 68 Q50 80 62 68", eye: [5, 5] },
    frown: { brows: ["M29 35 L44 41", "M71 35 L56 41"], lips: "M39 77 Q50 67 61 77", eye: [5, 5] },
    narrowed: { brows: ["M29 39 L45 41", "M71 39 L55 41"], lips: "M42 73 L58 73", eye: [5.5, 2.2] },
    wide: { brows: ["M30 33 Q37 26 44 33", "M56 33 Q63 26 70 33"], lips: "", eye: [6.2, 8] },
    sad: { brows: ["M30 39 L44 34", "M70 39 L56 34"], lips: "M40 77 Q50 70 60 77", eye: [5, 5.5] },
  };
  const GESTURES = ["none", "nod", "shake", "point", "shrug", "lean"];

  // Show `manner` ({expression, gesture, ...}) on the avatar element `pic` (the box around the face).
  // The gesture plays again for each new utterance; `again: false` leaves it be when the face
  // already shows this manner (the talk event that follows the `manner` message of the same words).
  function setManner(pic, manner, again = true) {
    if (!pic || !manner) return;
    const expression = Object.hasOwn(EXPRESSIONS, manner.expression) ? manner.expression : "neutral";
    const gesture = GESTURES.includes(manner.gesture) ? manner.gesture : "none";
    if (!again && pic.dataset.expression === expression && pic.dataset.gesture === gesture) return;
    pic.dataset.expression = expression;
    delete pic.dataset.gesture;
    void pic.offsetWidth; // restart the gesture's animation
    pic.dataset.gesture = gesture;
    const svg = pic.querySelector("svg.face");
    if (!svg) return;
    const shape = EXPRESSIONS[expression];
    svg.querySelectorAll(".brow").forEach((b, i) => b.setAttribute("d", shape.brows[i]));
    svg.querySelector(".lips").setAttribute("d", shape.lips);
    svg.querySelectorAll(".eye").forEach((e) => {
      e.setAttribute("rx", shape.eye[0]);
      e.setAttribute("ry", shape.eye[1]);
    });
  }

  return { face, setMouth, setManner };
})();
