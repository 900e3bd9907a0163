// The page of `host.py serve`. Start at `show(state)`: it draws whatever the server says the
// game is (GET /api/state, or the answer to a move). Clicks post a move, `i,j` as the course
// writes it; the server judges it and answers with the new state, the opponent's reply
// included, or with the refusal in `message`. The replay panel asks for every position of a
// saved SGF at once and the slider picks one.
"use strict";

const SIZE = 5;
const COLOURS = { 1: "Black", 2: "White" };
const STONE_CLASSES = { 1: "black", 2: "white" };
let busy = false;

function $(id) { return document.getElementById(id); }

function drawBoard(container, view, onClick) {
  container.textContent = "";
  for (let i = 0; i < SIZE; i++) {
    for (let j = 0; j < SIZE; j++) {
      const point = document.createElement("div");
      point.className = "point row-" + i + " col-" + j;
      point.dataset.move = i + "," + j;
      point.id = container.id + "-" + i + "-" + j;
      const colour = view ? view.board[i][j] : 0;
      if (colour) {
        point.classList.add("taken");
        const stone = document.createElement("div");
        stone.className = "stone " + STONE_CLASSES[colour];
        if (view.last_move === i + "," + j) stone.classList.add("last");
        point.appendChild(stone);
      }
      if (j === 0) addLabel(point, "row", i);
      if (i === 0) addLabel(point, "col", j);
      if (onClick) point.addEventListener("click", () => onClick(point.dataset.move));
      container.appendChild(point);
    }
  }
}

function addLabel(point, kind, text) {
  const label = document.createElement("span");
  label.className = "label " + kind;
  label.textContent = text;
  point.appendChild(label);
}

function scoreDetail(score) {
  return "Black " + score.black + " – White " + score.white + " + " + score.komi;
}

// The ply about to be played, counted 1..24 as docs/rules.md does, or where the game ended.
function plyText(view) {
  return view.over || view.result ? "game over after ply " + (view.ply - 1)
                                  : "ply " + view.ply + " of " + view.max_ply;
}

function show(state) {
  drawBoard($("board"), state, move => post("/api/move", { move: move }));
  $("you").textContent = COLOURS[state.person];
  $("opponent").textContent = state.names[String(3 - state.person)];
  $("ply").textContent = plyText(state);
  $("to-move").textContent = state.over || state.result ? "–" : COLOURS[state.to_move];
  $("last-move").textContent = state.last_move || "–";
  $("captures").textContent = "by Black " + state.captures.black + ", by White " + state.captures.white;
  $("score-detail").textContent = scoreDetail(state.score);
  $("score").textContent = state.score.result;
  $("message").textContent = state.message || "";
  const result = $("result");
  if (state.result) {
    result.textContent = (state.result.you_win ? "You win" : "You lose") + " (" +
      COLOURS[state.result.winner] + ", " + state.result.reason + ": " + state.result.detail + ")." +
      (state.saved_as ? " Saved as " + state.saved_as + "." : "");
    result.className = state.result.you_win ? "win" : "loss";
    result.dataset.winner = state.result.winner;
  } else {
    result.textContent = "";
    result.className = "";
    delete result.dataset.winner;
  }
  showDecision(state.decision, state.names[String(3 - state.person)]);
  askResults(state);
  if (state.result) loadGameList(state.saved_as);
}

// The agent's decision record (agent.decision_record): source, move, details.
function showDecision(decision, opponent) {
  const box = $("decision");
  box.textContent = "";
  const line = document.createElement("p");
  box.appendChild(line);
  if (!decision) {
    line.className = "quiet";
    line.textContent = "No analysis for the last move (" + opponent + " tells nothing, or it was not its move).";
    return;
  }
  const details = decision.details || {};
  line.textContent = "Ply " + decision.ply + ", " + decision.colour + " played " + decision.move +
    " (" + decision.source + ", " + decision.cpu + " s CPU of " + decision.budget + " s).";
  if (details.proven) {
    const proof = document.createElement("p");
    proof.className = "proven";
    proof.id = "proof";
    proof.textContent = "proven " + details.proven +
      (details.best_try ? " (best try)" : "") +
      (details.margin !== undefined ? " by " + Math.abs(details.margin) : "");
    box.appendChild(proof);
  }
  if (details.summary) {  // a try's words, from agent.lost_summary
    const summary = document.createElement("p");
    summary.className = "proven";
    summary.id = "try-summary";
    summary.textContent = details.summary;
    box.appendChild(summary);
  }
  if (details.candidates) {
    const table = document.createElement("table");
    table.id = "candidates";
    const head = table.insertRow();
    for (const title of ["move", "visits", "value", ""]) {
      const cell = document.createElement("th");
      cell.textContent = title;
      head.appendChild(cell);
    }
    for (const candidate of details.candidates) {
      const row = table.insertRow();
      row.insertCell().textContent = candidate.move;
      row.insertCell().textContent = (100 * candidate.share).toFixed(1) + " %";
      row.insertCell().textContent = candidate.value === null ? "–" : candidate.value.toFixed(3);
      row.insertCell().textContent = candidate.proven ? "proven " + candidate.proven : "";
    }
    box.appendChild(table);
    const note = document.createElement("p");
    note.className = "quiet";
    note.textContent = details.simulations + " simulations on " + details.workers +
      " worker(s); value = the mover's mean playout result.";
    box.appendChild(note);
  }
}

// ---- Proven results of the person's moves (GET /api/analysis, littlego/analysis/move_results.py) --------
// Asked for on every position where it is the person's turn; the server answers "pending" until
// its first answer (the stored value table, or the quick proofs), then, while the compiled
// solver adds the missing margins move by move, the answer so far with its `progress`, and the
// page asks again until it is done. An answer for a position the page has left is dropped.
const RESULTS_POLL_MS = 500;
const RESULT_CLASSES = { win: "result-win", loss: "result-loss" };
const VERDICTS = { win: "you win with best play", loss: "you lose against best play" };
let resultsAsked = 0;  // which position the answer being awaited belongs to

function askResults(state) {
  const asked = ++resultsAsked;
  clearResults();
  if (state.result || state.over || state.to_move !== state.person) {
    showResultsLine("", "none");
    return;
  }
  showResultsLine("proven results: working…", "working");
  pollResults(asked);
}

async function pollResults(asked) {
  let answer;
  try {
    answer = await (await fetch("/api/analysis")).json();
  } catch (error) {
    answer = { error: "the server did not answer" };
  }
  if (asked !== resultsAsked) return;
  if (answer.pending) setTimeout(() => pollResults(asked), RESULTS_POLL_MS);
  else if (answer.error) showResultsLine("proven results: " + answer.error, "error");
  else {
    showResults(answer);
    if (answer.progress && !answer.progress.done) {
      setTimeout(() => pollResults(asked), RESULTS_POLL_MS);
    }
  }
}

function showResultsLine(text, status) {
  $("results-source").textContent = text;
  document.body.dataset.results = status;
}

function marginText(margin) {
  return (margin > 0 ? "+" : "−") + Math.abs(margin);
}

function clearResults() {
  for (const target of [...document.querySelectorAll("#board .point"), $("pass")]) {
    target.classList.remove(...Object.values(RESULT_CLASSES));
    target.removeAttribute("title");
    for (const label of target.querySelectorAll(".margin")) label.remove();
  }
}

// Tints the legal moves the answer knows and writes each one's margin: on its point of the board,
// and beside the Pass button. In a lost position the line names the best try and what it asks of
// the opponent (the server's words: `best_try.summary`); while the solver works it says how far.
function showResults(analysis) {
  clearResults();
  const bestTry = analysis.best_try;
  for (const [move, known] of Object.entries(analysis.moves)) {
    const hasMargin = known.margin !== undefined && known.margin !== null;
    const title = "proven " + known.result + (hasMargin ? " by " + Math.abs(known.margin) : "") +
      (bestTry && bestTry.move === move ? "; best try: " + bestTry.summary : "");
    const target = move === "PASS" ? $("pass") : $("board-" + move.replace(",", "-"));
    target.classList.add(RESULT_CLASSES[known.result]);
    target.title = title;
    if (hasMargin) {
      const label = document.createElement("span");
      label.className = "margin";
      label.textContent = (move === "PASS" ? " " : "") + marginText(known.margin);
      target.appendChild(label);
    }
  }
  let line = "proven results: " +
    (analysis.source ? "from the " + analysis.source : "not proven here");
  if (analysis.result) {
    line += "; " + VERDICTS[analysis.result] +
      (analysis.margin !== null ? " (" + marginText(analysis.margin) + ")" : "");
  }
  if (bestTry) line += "; best try " + bestTry.move + " (" + bestTry.summary + ")";
  const progress = analysis.progress;
  const solving = progress && !progress.done;
  if (solving) {
    line += "; solving: " + progress.solved + " of " + progress.moves + " moves, " +
      Math.round(progress.seconds) + " s";
  } else if (analysis.source && analysis.unknown) {
    line += "; the moves not tinted are not proven here";
  }
  showResultsLine(line + ".", solving ? "solving" : analysis.source ? "shown" : "unknown");
}

async function post(path, body) {
  if (busy) return;
  busy = true;
  document.body.classList.add("busy");
  $("message").textContent = path === "/api/move" ? "Thinking…" : "Starting…";
  try {
    const answer = await fetch(path, { method: "POST", body: JSON.stringify(body),
                                       headers: { "Content-Type": "application/json" } });
    const state = await answer.json();
    if (state.error) $("message").textContent = state.error;
    else show(state);
  } catch (error) {
    $("message").textContent = "The server did not answer: " + error;
  } finally {
    busy = false;
    document.body.classList.remove("busy");
    document.body.dataset.ready = "yes";
  }
}

async function loadGameList(select) {
  const games = await (await fetch("/api/games")).json();
  const list = $("games");
  list.textContent = "";
  for (const name of games) {
    const option = document.createElement("option");
    option.value = option.textContent = name;
    list.appendChild(option);
  }
  if (select) list.value = select;
}

let replayPositions = [];
let replayReview = null;  // GET /api/review's answer for the game shown, once it is there
let reviewAsked = 0;

function showReplay(index) {
  const view = replayPositions[index];
  drawBoard($("replay-board"), view, null);
  $("replay-ply").textContent = plyText(view);
  $("replay-last").textContent = view.last_move || "–";
  $("replay-score").textContent = view.score.result;
  markReviewedMove(index);
}

async function loadReplay() {
  const name = $("games").value;
  if (!name) return;
  const answer = await (await fetch("/api/replay?sgf=" + encodeURIComponent(name))).json();
  if (answer.error) {
    $("replay-score").textContent = answer.error;
    return;
  }
  replayPositions = answer.positions;
  replayReview = null;
  $("review").textContent = "";
  const slider = $("slider");
  slider.max = replayPositions.length - 1;
  slider.value = slider.max;
  slider.disabled = false;
  showReplay(replayPositions.length - 1);
  pollReview(name, ++reviewAsked);
}

// ---- The replayed game's review (GET /api/review, littlego/analysis/review.py) ----------------
// Each move's value for its mover before and after it, the points it gave away, and the first
// move that threw a win away; the row of the move that led to the slider's position is marked.
function valueText(known) {
  if (known.result === null) return "?";
  return known.result + (known.margin === null ? "" : " " + marginText(known.margin));
}

async function pollReview(name, asked) {
  let answer;
  try {
    answer = await (await fetch("/api/review?sgf=" + encodeURIComponent(name))).json();
  } catch (error) {
    answer = { error: "the server did not answer" };
  }
  if (asked !== reviewAsked) return;
  const line = $("review-line");
  if (answer.pending) {
    const progress = answer.progress;
    line.textContent = "reviewing: " + progress.reviewed + " of " + progress.positions +
      " positions, " + Math.round(progress.seconds) + " s";
    document.body.dataset.review = "working";
    setTimeout(() => pollReview(name, asked), RESULTS_POLL_MS);
  } else if (answer.error) {
    line.textContent = answer.error;
    document.body.dataset.review = "error";
  } else {
    replayReview = answer;
    showReview(answer);
    markReviewedMove(Number($("slider").value));
    document.body.dataset.review = "shown";
  }
}

function showReview(reviewed) {
  const table = document.createElement("table");
  table.id = "review-table";
  const head = table.insertRow();
  for (const title of ["ply", "", "move", "before", "after", "given away"]) {
    const cell = document.createElement("th");
    cell.textContent = title;
    head.appendChild(cell);
  }
  const lost = reviewed.first_lost_win;
  for (const row of reviewed.moves) {
    const line = table.insertRow();
    line.id = "review-ply-" + row.ply;
    line.title = row.source ? "from the " + row.source : "not proven";
    if (lost && lost.ply === row.ply) line.classList.add("thrown");
    for (const text of [row.ply, row.colour, row.move, valueText(row.before),
                        valueText(row.after), row.given_away === null ? "" : row.given_away]) {
      line.insertCell().textContent = text;
    }
  }
  $("review").textContent = "";
  $("review").appendChild(table);
  $("review-line").textContent = lost
    ? "The first win thrown away: ply " + lost.ply + ", " + lost.colour + " " + lost.move +
      " (" + valueText(lost.before) + " before, " + valueText(lost.after) + " after)."
    : "No move is proven to throw a win away.";
}

// The replay's position `index` follows the game's move `index` (ply `index`).
function markReviewedMove(index) {
  for (const row of document.querySelectorAll("#review-table tr.current")) {
    row.classList.remove("current");
  }
  const row = replayReview && $("review-ply-" + index);
  if (row) row.classList.add("current");
}

async function start() {
  drawBoard($("replay-board"), null, null);
  $("pass").addEventListener("click", () => post("/api/move", { move: "PASS" }));
  $("new-black").addEventListener("click", () => post("/api/new", { colour: 1 }));
  $("new-white").addEventListener("click", () => post("/api/new", { colour: 2 }));
  $("load").addEventListener("click", loadReplay);
  $("slider").addEventListener("input", event => showReplay(Number(event.target.value)));
  show(await (await fetch("/api/state")).json());
  await loadGameList();
  document.body.dataset.ready = "yes";
}

start();
