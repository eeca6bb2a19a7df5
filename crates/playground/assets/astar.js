// The A* page: a map searched by the server, whose expansions are replayed here one by one
// (closed cells grey, open cells blue, the cell just expanded orange), then the route.
"use strict";

const COLORS = ["#fff", "#333", "#2a2", "#06c", "#c60"];
let run = null;
let shown = 0;
let timer = null;
let rects = [];
let openCount = null;
let mapName = "";

function cellSize() {
  return Math.max(4, Math.min(28, Math.floor(600 / Math.max(run.cols, run.rows))));
}

function drawMap() {
  const s = cellSize();
  const map = clear(byId("map"));
  map.setAttribute("width", run.cols * s);
  map.setAttribute("height", run.rows * s);
  rects = run.cells.map((code, i) => {
    const r = svg("rect", { x: (i % run.cols) * s, y: Math.floor(i / run.cols) * s, width: s - 1, height: s - 1, fill: COLORS[code], "data-cell": i });
    map.appendChild(r);
    return r;
  });
  openCount = new Int32Array(run.cells.length);
  openCount[run.route[0]] = 1;
  shown = 0;
}

function paint(i) {
  const code = run.cells[i];
  if (code >= 2) return; // supplies, start and station keep their colours
  rects[i].setAttribute("fill", openCount[i] > 0 ? "#9cf" : rects[i].dataset.closed ? "#bbb" : COLORS[code]);
}

function advance() {
  if (shown >= run.steps.length) return false;
  const step = run.steps[shown++];
  openCount[step.cell]--;
  rects[step.cell].dataset.closed = "1";
  paint(step.cell);
  for (const c of step.opened) {
    openCount[c]++;
    paint(c);
  }
  if (run.cells[step.cell] < 2) rects[step.cell].setAttribute("fill", "#f93");
  if (shown > 1) paint(run.steps[shown - 2].cell);
  return true;
}

function showProgress() {
  const open = openCount.reduce((n, c) => n + (c > 0), 0);
  const last = run.steps[shown - 1];
  setStatus(`step ${shown} / ${run.steps.length}${last ? `: expanded (${Math.floor(last.cell / run.cols)}, ${last.cell % run.cols}) on day ${last.g} with ${last.food} food` : ""}; ${open} cells open`);
  if (shown === run.steps.length) finish();
}

function finish() {
  stop();
  const s = cellSize();
  const map = byId("map");
  if (run.days === null) {
    byId("result").textContent = run.stopped ? "stopped by the time limit" : "the station cannot be reached (-1)";
    return;
  }
  const points = run.route.map((c) => `${(c % run.cols) * s + s / 2},${Math.floor(c / run.cols) * s + s / 2}`).join(" ");
  map.appendChild(svg("polyline", { points, fill: "none", stroke: "#d00", "stroke-width": Math.max(2, s / 5), id: "route" }));
  byId("result").textContent = `route: ${run.days} days, moves ${run.moves}`;
}

function stop() {
  if (timer) clearInterval(timer);
  timer = null;
}

async function search() {
  stop();
  const algo = byId("algo").value;
  run = await api("/api/astar/search", { map: byId("text").value, algo });
  drawMap();
  byId("result").textContent = "";
  setStatus(`${run.steps.length} expansions to replay${run.truncated ? " (cut: the map is large)" : ""}`);
  const tr = document.createElement("tr");
  for (const v of [mapName || "edited", algo, run.days ?? -1, run.expanded, run.generated, run.ms.toFixed(2)]) {
    const td = document.createElement("td");
    td.textContent = v;
    tr.appendChild(td);
  }
  byId("runs").appendChild(tr);
}

byId("search").onclick = () => guarded(search);
byId("step").onclick = () => { if (run) { advance(); showProgress(); } };
byId("end").onclick = () => { if (run) { while (advance()); showProgress(); } };
byId("play").onclick = () => {
  if (!run) return;
  if (timer) return stop();
  timer = setInterval(() => {
    const perTick = Math.max(1, Math.round(byId("speed").value / 30));
    for (let i = 0; i < perTick; i++) advance();
    showProgress();
  }, 33);
};
byId("inputs").onchange = () => {
  const opt = byId("inputs").selectedOptions[0];
  byId("text").value = opt.dataset.text;
  mapName = opt.textContent;
};
byId("text").oninput = () => { mapName = ""; };
byId("generate").onclick = () => guarded(async () => {
  const g = { rows: Number(byId("rows").value), cols: Number(byId("cols").value), food: Number(byId("food").value), seed: Number(byId("gseed").value) };
  const r = await api("/api/astar/search", { generate: g, algo: "astar" });
  byId("text").value = r.text;
  mapName = `random ${g.rows}x${g.cols} seed ${g.seed}`;
  await search();
});
guarded(async () => {
  await loadBundled("inputs", "/api/astar/inputs");
  await search();
});
