// The Bait page: the keyboard plays (each key replays the whole play on the server, which
// simulates the game exactly), agents and optimal plans come back as frames to step through.
"use strict";

const LOOK = { w: ["#555", ""], A: ["#3a7bd5", "A"], "0": ["#111", ""], "1": ["#a0522d", ""], k: ["#f5c400", "k"], g: ["#2e9e4f", "g"], m: ["#d33", "m"], " ": ["#eee", ""] };
let played = null;
let shown = 0;
let keyboard = true;
let timer = null;

function draw() {
  const frame = played.frames[shown].split("\n").filter((l) => l.length);
  const s = 36;
  const grid = clear(byId("grid"));
  grid.setAttribute("width", frame[0].length * s);
  grid.setAttribute("height", frame.length * s);
  frame.forEach((line, r) => [...line].forEach((ch, c) => {
    const [fill, label] = LOOK[ch] || ["#ccc", ch];
    grid.appendChild(svg("rect", { x: c * s, y: r * s, width: s - 1, height: s - 1, fill, rx: ch === "A" || ch === "0" ? s / 2 : 3, "data-char": ch }));
    if (label) grid.appendChild(svg("text", { x: c * s + s / 2, y: r * s + s / 2 + 5, "text-anchor": "middle", fill: "#fff", "font-weight": "bold" }, label));
  }));
  const n = played.frames.length - 1;
  byId("frame").textContent = `step ${shown} / ${n}, score ${played.scores[shown]}`;
  setStatus(shown === n && played.outcome !== "playing" ? `${played.outcome} with score ${played.score}` : (keyboard ? "your move (arrow keys)" : "replaying"));
}

function showPlay(p, fromKeyboard) {
  played = p;
  keyboard = fromKeyboard;
  shown = fromKeyboard ? p.frames.length - 1 : 0;
  byId("plan").textContent = p.actions;
  draw();
}

async function replay(actions) {
  showPlay(await api("/api/bait/play", { level: byId("text").value, actions }), true);
}

const KEYS = { ArrowUp: "U", ArrowDown: "D", ArrowLeft: "L", ArrowRight: "R" };
document.addEventListener("keydown", (ev) => {
  const a = KEYS[ev.key];
  if (!a || document.activeElement === byId("text") || !played) return;
  ev.preventDefault();
  if (!keyboard || played.outcome !== "playing") return;
  guarded(() => replay(played.actions + a));
});

function go(i) {
  if (!played) return;
  shown = Math.max(0, Math.min(played.frames.length - 1, i));
  draw();
}

byId("first").onclick = () => go(0);
byId("prev").onclick = () => go(shown - 1);
byId("next").onclick = () => go(shown + 1);
byId("last").onclick = () => go(played.frames.length - 1);
byId("play").onclick = () => {
  if (timer) { clearInterval(timer); timer = null; return; }
  timer = setInterval(() => {
    if (shown >= played.frames.length - 1) { clearInterval(timer); timer = null; return; }
    go(shown + 1);
  }, 250);
};
byId("restart").onclick = () => guarded(() => replay(""));
byId("levels").onchange = () => {
  byId("text").value = byId("levels").selectedOptions[0].dataset.text;
  guarded(() => replay(""));
};
byId("run-agent").onclick = () => guarded(async () => {
  setStatus("the agent is playing…");
  showPlay(await api("/api/bait/agent", { level: byId("text").value, agent: byId("agent").value }), false);
});
byId("optimal").onclick = () => guarded(async () => {
  setStatus("searching for the optimal plan…");
  const r = await api("/api/bait/optimal", { level: byId("text").value, goal: byId("goal").value });
  showPlay(r.play, false);
  byId("plan").textContent = `${r.proven ? "proven optimal" : "best found before the time limit"}${r.winnable ? "" : ": no win exists"} (${r.expanded} states expanded)\n${r.play.actions}`;
});
guarded(async () => {
  await loadBundled("levels", "/api/bait/levels");
});
