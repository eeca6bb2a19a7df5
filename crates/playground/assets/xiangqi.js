// The xiangqi page: the board drawn as SVG from the server's view, moves by two clicks (piece,
// then destination), the engine's iterations streamed into a table.
"use strict";
// Pieces show the Chinese characters players read (帥仕相傌俥炮兵 for red, 將士象馬車砲卒 for
// black), or their FEN letters when "letters" is ticked (remembered by the browser).

const CHARACTERS = { K: "帥", A: "仕", B: "相", N: "傌", R: "俥", C: "炮", P: "兵",
  k: "將", a: "士", b: "象", n: "馬", r: "車", c: "砲", p: "卒" };
const letters = () => byId("letters").checked;
const pieceText = (p) => (letters() ? p.toUpperCase() : CHARACTERS[p] || p);

const game = { fen: "", moves: [] };
let view = null;
let selected = null;
let thinking = null;

const X = (col) => 40 + col * 50;
const Y = (row) => 40 + row * 50;

function drawBoard() {
  const board = clear(byId("board"));
  for (let r = 0; r < 10; r++) board.appendChild(svg("line", { x1: X(0), y1: Y(r), x2: X(8), y2: Y(r), stroke: "#333" }));
  for (let c = 0; c < 9; c++) {
    board.appendChild(svg("line", { x1: X(c), y1: Y(0), x2: X(c), y2: Y(4), stroke: "#333" }));
    board.appendChild(svg("line", { x1: X(c), y1: Y(5), x2: X(c), y2: Y(9), stroke: "#333" }));
  }
  for (const [r1, r2] of [[0, 2], [7, 9]]) {
    board.appendChild(svg("line", { x1: X(3), y1: Y(r1), x2: X(5), y2: Y(r2), stroke: "#333" }));
    board.appendChild(svg("line", { x1: X(5), y1: Y(r1), x2: X(3), y2: Y(r2), stroke: "#333" }));
  }
  board.appendChild(svg("text", { x: 240, y: 270, "text-anchor": "middle", fill: "#999" }, "river"));
  if (!view) return;
  const last = view.last ? [view.last.slice(0, 2), view.last.slice(2)] : [];
  view.cells.forEach((cell, i) => {
    const row = Math.floor(i / 9), col = i % 9;
    const g = svg("g", { "data-square": cell.square, cursor: "pointer" });
    g.appendChild(svg("rect", { x: X(col) - 24, y: Y(row) - 24, width: 48, height: 48, fill: "transparent" }));
    if (last.includes(cell.square)) g.appendChild(svg("circle", { cx: X(col), cy: Y(row), r: 24, fill: "none", stroke: "#2a7", "stroke-width": 3 }));
    if (cell.piece) {
      const red = cell.piece === cell.piece.toUpperCase();
      g.appendChild(svg("circle", { cx: X(col), cy: Y(row), r: 21, fill: "#f5deb3",
        stroke: selected === cell.square ? "#06c" : (red ? "#b00" : "#222"), "stroke-width": selected === cell.square ? 4 : 2 }));
      g.appendChild(svg("text", { x: X(col), y: Y(row) + 8, "text-anchor": "middle", "font-size": 22,
        "font-family": letters() ? "sans-serif" : "'Noto Serif CJK TC', 'Noto Sans CJK TC', 'WenQuanYi Zen Hei', 'AR PL UKai TW', serif",
        fill: red ? "#b00" : "#222", class: "piece-text" }, pieceText(cell.piece)));
      g.setAttribute("data-piece", cell.piece);
    } else if (selected && view.legal.includes(selected + cell.square)) {
      g.appendChild(svg("circle", { cx: X(col), cy: Y(row), r: 6, fill: "#06c" }));
    }
    g.addEventListener("click", () => clicked(cell.square));
    board.appendChild(g);
  });
}

function render() {
  drawBoard();
  byId("moves").textContent = game.moves.map((m, i) => (i % 2 === 0 ? `${i / 2 + 1}. ` : "") + m).join(" ");
  setStatus(view.over ? view.over : `${view.side} to move${view.check ? " — check!" : ""}`);
}

async function refresh() {
  view = await api("/api/xiangqi/state", game);
  render();
}

function clicked(square) {
  if (!view || view.over || thinking) return;
  if (selected && view.legal.includes(selected + square)) {
    const mv = selected + square;
    selected = null;
    guarded(async () => {
      game.moves.push(mv);
      await refresh();
      if (byId("auto").checked && !view.over) engineMove();
    });
    return;
  }
  selected = view.legal.some((m) => m.startsWith(square)) ? square : null;
  drawBoard();
}

function engineMove() {
  if (thinking || view.over) return;
  const rows = clear(byId("thinking"));
  const url = `/api/xiangqi/think?fen=${encodeURIComponent(game.fen)}&moves=${game.moves.join(",")}&ms=${byId("ms").value}`;
  setStatus(`${view.side} (engine) is thinking…`);
  thinking = stream(url, {
    info: (it) => {
      const score = it.mate !== null ? `mate ${it.mate}` : it.score;
      const tr = document.createElement("tr");
      for (const v of [it.depth, score, it.nodes, Math.round(it.nps / 1000), it.pv.join(" ")]) {
        const td = document.createElement("td");
        td.textContent = v;
        tr.appendChild(td);
      }
      rows.insertBefore(tr, rows.firstChild);
    },
    best: (answer) => {
      thinking.close();
      thinking = null;
      if (answer.move) game.moves.push(answer.move);
      guarded(refresh);
    },
  }, () => { thinking = null; });
}

async function load() {
  const example = byId("inputs").value;
  game.fen = example || byId("fen").value.trim();
  game.moves = [];
  selected = null;
  clear(byId("thinking"));
  await refresh();
}

async function mate() {
  byId("mate-result").textContent = "searching…";
  const r = await api("/api/xiangqi/mate", { ...game, within: Number(byId("within").value), ms: Number(byId("ms").value) });
  byId("mate-result").textContent = r.result === "mate" ? `mate in ${r.moves}: ${r.line.join(" ")}`
    : r.result === "none" ? `no mate in ${byId("within").value} moves (proven, ${r.nodes} nodes)`
    : `no mate found within ${r.plies} plies before the time ran out`;
}

// A game record: loaded from PGN, stepped through on the board (the board shows the position
// after `step` moves), looked over by the engine (values, mistakes, its line at each step).
const record = { fen: "", moves: [], chinese: [], step: 0, analysis: null, text: "", number: 1 };

async function loadRecord() {
  const text = byId("pgn").value;
  const number = Number(byId("pgn-game").value) || 1;
  const r = await api("/api/xiangqi/pgn", { pgn: text, game: number });
  Object.assign(record, { fen: r.fen, moves: r.moves, chinese: r.chinese, step: 0, analysis: null, text, number });
  const tag = (k) => (r.tags.find(([name]) => name.toLowerCase() === k) || [])[1];
  const players = tag("red") || tag("black") ? `: ${tag("red") || "?"} – ${tag("black") || "?"}` : "";
  byId("pgn-info").textContent = `game ${number} of ${r.games}${players}` +
    `${tag("event") ? `, ${tag("event")}` : ""}, ${r.moves.length} plies, ${r.result || tag("result") || "*"}` +
    (r.rejected.length ? `; ${r.rejected.length} game(s) of the text rejected: ${r.rejected[0]}` : "");
  clear(byId("pgn-graph"));
  byId("pgn-line").textContent = "";
  byId("auto").checked = false; // reviewing: the engine does not answer the steps
  await showStep(0);
}

async function showStep(k) {
  record.step = Math.max(0, Math.min(record.moves.length, k));
  game.fen = record.fen;
  game.moves = record.moves.slice(0, record.step);
  selected = null;
  await refresh();
  const list = clear(byId("pgn-moves"));
  record.chinese.forEach((text, i) => {
    if (i % 2 === 0) list.appendChild(document.createTextNode(` ${i / 2 + 1}. `));
    const a = record.analysis && record.analysis.moves[i];
    const mark = a && a.verdict ? (a.verdict === "Blunder" ? "??" : "?") : "";
    const span = document.createElement("span");
    span.textContent = text + mark + " ";
    span.dataset.ply = i + 1;
    span.className = "ply" + (i + 1 === record.step ? " current" : "") + (mark ? " mistake" : "");
    span.onclick = () => guarded(() => showStep(i + 1));
    list.appendChild(span);
  });
  const a = record.analysis && record.analysis.moves[record.step];
  const before = record.analysis && record.analysis.moves[record.step - 1];
  byId("pgn-line").textContent = !record.analysis ? "" :
    `${before ? `after ${record.chinese[record.step - 1]}: ${(before.after / 100).toFixed(2)} (red's side)` : "the start"}` +
    `${before && before.verdict ? `, a ${before.verdict.toLowerCase()}: ${before.best} was better` : ""}` +
    `${a ? `; the engine's line: ${a.line.join(" ")}` : ""}`;
}

async function lookOver() {
  byId("pgn-progress").textContent = "the engine is looking over the game…";
  try {
    record.analysis = await api("/api/xiangqi/analyze", { pgn: record.text, game: record.number, ms: Number(byId("ms").value) });
  } finally {
    byId("pgn-progress").textContent = "";
  }
  byId("pgn-graph").innerHTML = record.analysis.svg;
  const verdicts = record.analysis.moves.filter((m) => m.verdict);
  const count = (kind, word) => {
    const n = verdicts.filter((m) => m.verdict === kind).length;
    return `${n} ${word}${n === 1 ? "" : "s"}`;
  };
  byId("pgn-progress").textContent = `${record.analysis.ms_per_position} ms a position; ` +
    `${count("Mistake", "mistake")}, ${count("Blunder", "blunder")}`;
  await showStep(record.step);
}

byId("pgn-file").onchange = () => {
  const file = byId("pgn-file").files[0];
  if (!file) return;
  // Big5 and GBK files are decoded by the browser from their bytes where it can; UTF-8 first.
  file.arrayBuffer().then((bytes) => {
    let text = new TextDecoder("utf-8").decode(bytes);
    if (text.includes("\uFFFD")) {
      for (const enc of ["big5", "gbk"]) {
        const t = new TextDecoder(enc).decode(bytes);
        if (!t.includes("\uFFFD")) { text = t; break; }
      }
    }
    byId("pgn").value = text;
  });
};
byId("pgn-load").onclick = () => guarded(loadRecord);
byId("step-first").onclick = () => guarded(() => showStep(0));
byId("step-prev").onclick = () => guarded(() => showStep(record.step - 1));
byId("step-next").onclick = () => guarded(() => showStep(record.step + 1));
byId("step-last").onclick = () => guarded(() => showStep(record.moves.length));
byId("pgn-analyze").onclick = () => guarded(lookOver);
byId("load").onclick = () => guarded(load);
byId("undo").onclick = () => guarded(async () => {
  if (thinking) return;
  game.moves.splice(Math.max(0, game.moves.length - 2));
  await refresh();
});
byId("think").onclick = () => engineMove();
byId("mate").onclick = () => guarded(mate);
byId("letters").checked = localStorage.getItem("xiangqi-letters") === "1";
byId("letters").onchange = () => {
  localStorage.setItem("xiangqi-letters", letters() ? "1" : "0");
  drawBoard();
};
guarded(async () => {
  for (const ex of await api("/api/xiangqi/inputs")) {
    const opt = document.createElement("option");
    opt.value = ex.fen;
    opt.textContent = ex.name;
    byId("inputs").appendChild(opt);
  }
  await refresh();
});
