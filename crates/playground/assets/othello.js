// The othello page: the board drawn as SVG, a move by clicking a legal square, the computer's
// answer by the chosen decider with its search tree, exact values and a streamed analysis.
"use strict";

const moves = [];
let view = null;
let busy = false;

function draw() {
  const board = clear(byId("board"));
  board.appendChild(svg("rect", { x: 0, y: 0, width: 420, height: 420, fill: "#1f7a3a" }));
  for (let i = 0; i < 8; i++) {
    board.appendChild(svg("text", { x: 40 + i * 50, y: 14, "text-anchor": "middle", fill: "#fff", "font-size": 12 }, "abcdefgh"[i]));
    board.appendChild(svg("text", { x: 8, y: 45 + i * 50, "text-anchor": "middle", fill: "#fff", "font-size": 12 }, i + 1));
  }
  const human = byId("human").value;
  view.cells.forEach((disc, i) => {
    const col = i % 8, row = Math.floor(i / 8);
    const name = "abcdefgh"[col] + (row + 1);
    const g = svg("g", { "data-square": name, cursor: "pointer" });
    g.appendChild(svg("rect", { x: 16 + col * 50, y: 16 + row * 50, width: 48, height: 48, fill: "#2a8f47", stroke: "#135" }));
    if (disc) {
      g.appendChild(svg("circle", { cx: 40 + col * 50, cy: 40 + row * 50, r: 20, fill: disc === "b" ? "#111" : "#f4f4f4" }));
      g.setAttribute("data-disc", disc);
    } else if (view.side === human && view.legal.includes(name)) {
      g.appendChild(svg("circle", { cx: 40 + col * 50, cy: 40 + row * 50, r: 5, fill: "#ffd54a" }));
    }
    g.addEventListener("click", () => clicked(name));
    board.appendChild(g);
  });
}

function render() {
  draw();
  byId("score").textContent = `black ${view.black} — white ${view.white}, ${view.empties} empty`;
  byId("moves").textContent = moves.join(" ");
  setStatus(view.over ? `game over: ${view.over}` : `${view.side} to move`);
}

async function refresh() {
  view = await api("/api/othello/state", { moves });
  render();
  await showBook();
}

// The book moves of the position (when the server has a book: `--othello-book FILE`), best
// value first: games through each, the mover's score and mean disc difference in them, and the
// value backed up from the book's searched leaves.
async function showBook() {
  const b = await api("/api/othello/book", { moves });
  const rows = clear(byId("book"));
  byId("book-note").textContent = !b.loaded
    ? "no book loaded (playground serve --othello-book FILE, a book of othello book build)"
    : b.moves.length ? "" : "this position is not in the book";
  for (const m of b.moves) {
    const tr = document.createElement("tr");
    for (const v of [m.move, m.games, `${(100 * m.score).toFixed(1)}%`, m.mean_diff.toFixed(1), m.value.toFixed(1)]) {
      const td = document.createElement("td");
      td.textContent = v;
      tr.appendChild(td);
    }
    rows.appendChild(tr);
  }
}

// Plays forced passes and the computer's turns until the human is to move or the game ends.
async function advance() {
  busy = true;
  try {
    await refresh();
    while (!view.over) {
      if (view.legal.length === 1 && view.legal[0] === "pass") {
        moves.push("pass");
      } else if (view.side !== byId("human").value) {
        setStatus(`${view.side} (computer) is thinking…`);
        const r = await api("/api/othello/move", { moves, decider: byId("decider").value, heuristic: byId("heuristic").value, seed: moves.length });
        moves.push(r.move);
        byId("engine").textContent = `computer played ${r.move}` +
          (r.eval !== null ? `, ${r.exact ? "exact" : "estimated"} value ${r.eval.toFixed(2)} discs` : "") +
          (r.depth !== null ? `, depth ${r.depth}` : "") + (r.nodes !== null ? `, ${r.nodes} nodes` : "");
        byId("tree").innerHTML = r.tree || "";
        byId("tree-note").textContent = r.tree_note || "";
      } else {
        break;
      }
      await refresh();
    }
  } finally {
    busy = false;
  }
}

function clicked(square) {
  if (busy || !view || view.over || view.side !== byId("human").value || !view.legal.includes(square)) return;
  moves.push(square);
  guarded(advance);
}

byId("new").onclick = () => guarded(async () => {
  if (busy) return;
  moves.length = 0;
  byId("tree").innerHTML = "";
  byId("analysis").textContent = "";
  await advance();
});
byId("undo").onclick = () => guarded(async () => {
  if (busy) return;
  // Back to the human's previous turn (passes and the computer's moves go with it).
  const human = byId("human").value;
  while (moves.length) {
    moves.pop();
    const v = await api("/api/othello/state", { moves });
    if (v.side === human && !(v.legal.length === 1 && v.legal[0] === "pass")) break;
  }
  await refresh();
});
byId("solve").onclick = () => guarded(async () => {
  byId("engine").textContent = "solving…";
  const r = await api("/api/othello/solve", { moves, ms: 5000 });
  byId("engine").textContent = r.solved
    ? `exact: ${view.side} ${r.value >= 0 ? "wins" : "loses"} by ${Math.abs(r.value)} with best play (best move ${r.best}, ${r.nodes} nodes)`
    : `not solved in 5 s (${r.empties} empties, ${r.nodes} nodes)`;
});
byId("hint").onclick = () => {
  const out = byId("analysis");
  out.textContent = "analysing…";
  const source = stream(`/api/othello/hint?moves=${moves.join(",")}&depth=10`, {
    depth: (row) => {
      out.textContent = `depth ${row[0].depth}${row[0].exact ? " (exact)" : ""}: ` +
        row.map((a) => `${a.move} ${a.eval >= 0 ? "+" : ""}${a.eval.toFixed(1)}`).join(", ");
    },
    done: () => source.close(),
  });
};
byId("human").onchange = () => guarded(advance);
guarded(advance);
