// The connect4 page: a course board (forbidden cell in grey), a move by clicking a column, the
// engine's answer with its visits and win rate per column, and the analysis of a finished game.
"use strict";

let view = null;
let busy = false;
const CELL = 44;

function draw() {
  const m = view.cells.length, n = view.cells[0].length;
  const board = clear(byId("board"));
  board.setAttribute("width", n * CELL + 20);
  board.setAttribute("height", m * CELL + 44);
  for (let y = 0; y < n; y++) {
    const g = svg("g", { "data-col": y, cursor: view.legal.includes(y) ? "pointer" : "default" });
    g.appendChild(svg("rect", { x: 10 + y * CELL, y: 0, width: CELL, height: m * CELL + 30, fill: "transparent" }));
    g.appendChild(svg("text", { x: 10 + y * CELL + CELL / 2, y: 16, "text-anchor": "middle", "font-size": 13 }, y));
    for (let x = 0; x < m; x++) {
      const v = view.cells[x][y];
      const fill = v === 1 ? "#d33" : v === 2 ? "#f2c200" : v === 3 ? "#777" : "#fff";
      g.appendChild(svg("rect", { x: 10 + y * CELL, y: 24 + x * CELL, width: CELL, height: CELL, fill: "#1d4f9c" }));
      g.appendChild(svg("circle", { cx: 10 + y * CELL + CELL / 2, cy: 24 + x * CELL + CELL / 2, r: CELL / 2 - 4, fill, "data-cell": `${x},${y}`, "data-stone": v }));
    }
    g.addEventListener("click", () => clicked(y));
    board.appendChild(g);
  }
  byId("moves").textContent = view.game.moves.join(" ");
  setStatus(view.over ? `game over: ${view.over}` : `player ${view.to_move} to move`);
}

function drawVisits(columns, n) {
  const chart = clear(byId("visits"));
  const most = Math.max(1, ...columns.map((c) => c.visits));
  const w = Math.min(40, 500 / n);
  columns.forEach((c) => {
    const h = 110 * c.visits / most;
    chart.appendChild(svg("rect", { x: 10 + c.column * w, y: 120 - h, width: w - 4, height: h, fill: "#1d4f9c" }));
    chart.appendChild(svg("text", { x: 10 + c.column * w + w / 2 - 2, y: 135, "text-anchor": "middle", "font-size": 11 }, c.column));
    chart.appendChild(svg("text", { x: 10 + c.column * w + w / 2 - 2, y: 150, "text-anchor": "middle", "font-size": 10 }, `${Math.round(100 * c.win_rate)}%`));
    chart.appendChild(svg("text", { x: 10 + c.column * w + w / 2 - 2, y: 165, "text-anchor": "middle", "font-size": 9 }, c.visits));
  });
}

async function engineTurns() {
  busy = true;
  try {
    while (!view.over && String(view.to_move) !== byId("human").value) {
      setStatus(`player ${view.to_move} (engine) is thinking…`);
      const r = await api("/api/connect4/move", { ...view.game, ms: Number(byId("ms").value), seed: view.game.moves.length });
      view = r.view;
      draw();
      drawVisits(r.columns, view.cells[0].length);
      const total = r.columns.reduce((s, c) => s + c.visits, 0);
      byId("engine").textContent = r.columns.length ? `engine played column ${r.column} after ${total} simulations (bars: visits, win rate below)` : `engine played column ${r.column} (forced: a win or the only block)`;
    }
  } finally {
    busy = false;
  }
}

function clicked(y) {
  if (busy || !view || view.over || !view.legal.includes(y) || String(view.to_move) !== byId("human").value) return;
  guarded(async () => {
    view = await api("/api/connect4/state", { ...view.game, moves: [...view.game.moves, y] });
    draw();
    await engineTurns();
  });
}

byId("new").onclick = () => guarded(async () => {
  if (busy) return;
  view = await api("/api/connect4/new", { seed: Number(byId("seed").value) });
  clear(byId("visits"));
  byId("analysis").textContent = "";
  byId("engine").textContent = `a ${view.cells.length}x${view.cells[0].length} board, forbidden cell (${view.game.no_x}, ${view.game.no_y})`;
  draw();
  await engineTurns();
});
byId("analyse").onclick = () => guarded(async () => {
  byId("analysis").textContent = "analysing…";
  const r = await api("/api/connect4/analyse", view.game);
  const lines = r.verdicts.map((v) => `after ${v.ply} moves: ${v.proof}`);
  if (r.losing_move !== null) lines.unshift(`decided by move ${r.losing_move + 1} (column ${view.game.moves[r.losing_move]})`);
  byId("analysis").textContent = lines.join("\n");
  byId("analysis").style.whiteSpace = "pre";
});
byId("human").onchange = () => guarded(engineTurns);
byId("new").click();
