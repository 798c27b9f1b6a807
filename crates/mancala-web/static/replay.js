// The replay viewer (/g/ID/replay): any game, finished or not, position by position,
// with the board after each move (from GET /api/games/ID/positions) and the moves in
// numbered turns. The arrow keys, Home and End, the buttons, the slider, or a click on
// a move step through it; the address keeps the move shown (#ply=N). A finished game
// can be analysed by the server (GET /api/games/ID/analysis): the viewer then draws the
// value over the game, marks the moves with their labels, and shows the best move of
// the position shown. On a game's page this script also fills in the links to the
// game's record and its replay.
"use strict";

// The links under the move list: download the record, replay, back to the game.
function setRecordLinks(id, replaying) {
  $("record-link").href = `/api/games/${id}/record`;
  $("replay-link").href = `/g/${id}/replay`;
  $("replay-link").hidden = replaying;
  $("game-link").href = `/g/${id}`;
  $("game-link").hidden = !replaying;
  $("watch-link").value = `${location.origin}/g/${id}`;
}

class ReplayPage extends GamePage {
  constructor(id) {
    super(id);
    this.final = null;     // the game's view now
    this.positions = [];   // the positions, from the start
    this.at = 0;           // the position shown
    this.analysis = null;  // the analysis once there (see AnalysisView)
  }

  async start() {
    $("game").hidden = false;
    $("replay-bar").hidden = false;
    document.body.classList.add("replaying");
    setRecordLinks(this.id, true);
    // The play controls stay hidden (a viewer holds no seat), but the page's drawing
    // of names and the final sweep is the game page's.
    Play.setupGame(this);
    let positions;
    try {
      [this.final, positions] = await Promise.all([
        api("GET", `/api/games/${this.id}`),
        api("GET", `/api/games/${this.id}/positions`),
        // The variant's words; without them the game is named by its key.
        Catalogue.load().catch(() => null),
      ]);
      Catalogue.learn(this.final);
    } catch (err) {
      this.fatal(err.status === 404 ? "There is no such game (any more)." : err.message);
      return;
    }
    this.positions = positions.positions;
    const slider = $("replay-ply");
    slider.max = String(this.positions.length - 1);
    slider.addEventListener("input", () => this.goTo(Number(slider.value)));
    const steps = { "replay-first": () => 0, "replay-prev": () => this.at - 1, "replay-next": () => this.at + 1, "replay-last": () => Infinity };
    for (const [id, to] of Object.entries(steps)) $(id).addEventListener("click", () => this.goTo(to()));
    $("history").addEventListener("click", (e) => {
      const li = e.target.closest("li[data-ply]");
      if (li) this.goTo(Number(li.dataset.ply));
    });
    document.addEventListener("keydown", (e) => this.onKey(e));
    // The address names the position shown: one edited or followed (a link to
    // #ply=N on this page) moves the viewer there.
    window.addEventListener("hashchange", () => {
      const ply = this.askedPly();
      if (ply !== null && ply !== this.at) this.goTo(ply);
    });
    const asked = this.askedPly();
    this.goTo(asked ?? this.positions.length - 1);
    document.body.dataset.replay = "ready";
    if (this.final.over) new AnalysisView(this).start();
  }

  // The ply the address asks for (#ply=N), if any.
  askedPly() {
    const asked = location.hash.match(/^#ply=(\d+)$/);
    return asked ? Number(asked[1]) : null;
  }

  // The turn a ply belongs to, numbered as the move list numbers them: a turn starts
  // with player 1's move (after player 2's), so a Kalah extra move stays in its turn.
  turnOf(ply) {
    let turn = 0;
    let previous = 2;
    this.final.history.slice(0, ply).forEach((m, i) => {
      if (i === 0 || (m.seat === 1 && previous === 2)) turn += 1;
      previous = m.seat;
    });
    return turn;
  }

  // The game as it stood after `ply` moves, in the shape of the API's game view.
  viewAt(ply) {
    const p = this.positions[ply];
    const last = ply === this.positions.length - 1;
    return {
      ...this.final,
      houses: p.houses,
      stores: p.stores,
      claimed: p.claimed,
      to_move: p.to_move,
      ply,
      over: last && this.final.over,
      legal_moves: [],
      last_move: null,
      started: true,
      // A replay is out of time: no clocks ticking, no offers waiting.
      clocks: null,
      offer: null,
    };
  }

  goTo(ply) {
    const n = this.positions.length - 1;
    this.at = Math.max(0, Math.min(n, ply));
    this.render(this.viewAt(this.at));
    $("replay-ply").value = String(this.at);
    const turns = this.turnOf(n);
    const whose = this.at === 0 ? "" : ` (${this.final.players[this.final.history[this.at - 1].seat - 1].name})`;
    $("replay-where").textContent = this.at === 0 ? `Start (${turns} moves)` : `Move ${this.turnOf(this.at)} of ${turns}${whose}`;
    $("replay-first").disabled = $("replay-prev").disabled = this.at === 0;
    $("replay-next").disabled = $("replay-last").disabled = this.at === n;
    $("position-line").hidden = false;
    $("position-line").textContent = this.positions[this.at].notation;
    for (const li of document.querySelectorAll("#history li.current")) li.classList.remove("current");
    const current = document.querySelector(`#history li[data-ply="${this.at}"]`);
    if (current) {
      current.classList.add("current");
      // Within the move list only: the page itself stays where it is (scrolling the
      // element into view scrolled a phone's page down past the board).
      MoveList.showRow($("history"), current.closest(".round"));
    }
    history.replaceState(null, "", `#ply=${this.at}`);
    if (this.analysis) this.analysis.show(this.at);
  }

  // The whole game's moves, whichever position is shown.
  renderHistory() {
    super.renderHistory(this.final);
    if (this.analysis) this.analysis.markMoves();
  }

  renderStatus(view) {
    $("share-box").hidden = true;
    $("join-box").hidden = true;
    const move = this.final.history[view.ply - 1];
    const done = view.ply === 0 ? "The start." : `${this.moveWords(view, move)}.`;
    const next = view.over ? "The end." : view.to_move ? `${this.nameOf(view, view.to_move)} to move.` : "";
    $("status").textContent = `Replay. ${done} ${next}`;
    $("message").textContent = "";
  }

  renderEnd(view) {
    super.renderEnd(view);
    $("rematch").hidden = true;
    $("rematch-link").hidden = true;
  }

  showTurn() {
    document.title = "Replay: Mancala";
  }

  // Nothing is played in the viewer.
  play() {}

  onKey(e) {
    // The slider steps by itself when it has the focus.
    if (e.target instanceof HTMLInputElement || e.target instanceof HTMLSelectElement) return;
    const to = { ArrowLeft: this.at - 1, ArrowRight: this.at + 1, Home: 0, End: Infinity }[e.key];
    if (to === undefined) return;
    e.preventDefault();
    this.goTo(to);
  }
}

// The words and marks of the analysis labels (docs/analysis.md): the marks are text, so
// a label never rests on colour alone.
const LABELS = {
  best: { word: "best move", mark: "✓" },
  good: { word: "good move", mark: "" },
  inaccuracy: { word: "inaccuracy", mark: "?!" },
  mistake: { word: "mistake", mark: "?" },
  blunder: { word: "blunder", mark: "??" },
};

// A signed value in seeds: +4, −2, 0.
const signed = (v) => (v > 0 ? `+${v}` : v < 0 ? `−${-v}` : "0");

// The server's analysis of a finished game in the replay viewer: asks whether it is
// there (starting nothing), offers to request it, polls politely while it is computed
// (as Retry-After says, and not while the tab is hidden), then draws it.
class AnalysisView {
  constructor(page) {
    this.page = page;
    this.doc = null;
    this.timer = null;
  }

  async start() {
    $("analysis-box").hidden = false;
    $("analysis-request").addEventListener("click", () => this.fetch(true));
    document.addEventListener("visibilitychange", () => {
      if (!document.hidden && this.waiting) this.fetch(true);
    });
    await this.fetch(false);
  }

  // GET the analysis; `start`: ask the server to compute it if it is not there.
  async fetch(start) {
    clearTimeout(this.timer);
    this.waiting = false;
    const url = `/api/games/${this.page.id}/analysis${start ? "" : "?start=false"}`;
    let res;
    try {
      res = await fetch(url);
    } catch {
      return this.say("The analysis could not be reached; try again.", true);
    }
    if (res.status === 200) return this.draw(await res.json());
    if (res.status === 204) return this.say("", true);
    if (res.status === 202 || res.status === 429 || res.status === 503) {
      const body = res.status === 202 ? await res.json() : null;
      this.say(this.progressText(body), false);
      const wait = Math.max(2, Number(res.headers.get("Retry-After")) || 2);
      this.waiting = true;
      // A hidden tab asks again once it is shown (visibilitychange).
      if (!document.hidden) this.timer = setTimeout(() => this.fetch(true), wait * 1000);
      return;
    }
    let message = `${res.status} ${res.statusText}`;
    try { message = (await res.json()).error || message; } catch { /* no body */ }
    this.say(`No analysis: ${message}`, false);
  }

  progressText(body) {
    document.body.dataset.analysis = "pending";
    if (!body) return "Analysing… (the server is busy; asking again shortly)";
    if (body.status === "queued") return "Analysing… waiting for a free computer player.";
    if (body.status === "table") return "Analysing… preparing the endgame table.";
    if (body.status === "analysing") return `Analysing… ${body.done} of ${body.of} positions.`;
    return "Analysing…";
  }

  say(text, offer) {
    $("analysis-status").textContent = text;
    $("analysis-request").hidden = !offer;
  }

  draw(doc) {
    this.doc = doc;
    this.page.analysis = this;
    this.say("", false);
    document.body.dataset.analysis = "ready";
    const names = this.page.final.players.map((p) => p.name);
    $("analysis-accuracy").textContent = `Accuracy: ${names[0]} ${doc.accuracy[0]}%, ${names[1]} ${doc.accuracy[1]}%.`;
    $("analysis-legend").hidden = false;
    const exact = doc.plies.filter((p) => p.exact).length;
    if (exact < doc.plies.length) {
      $("analysis-status").textContent = `${exact} of ${doc.plies.length} moves proven exactly; the others are estimates.`;
    }
    this.drawGraph();
    this.markMoves();
    this.show(this.page.at);
  }

  // Player 1's value of each position: before each move, and the final one.
  values() {
    const p1 = (p, v) => (p.mover === 1 ? v : -v);
    const v = this.doc.plies.map((p) => p1(p, p.value_best));
    const last = this.doc.plies[this.doc.plies.length - 1];
    v.push(last ? p1(last, last.value_played) : 0);
    return v;
  }

  // The value over the game as an inline SVG: player 1's margin above the middle line
  // (in player 1's colour), player 2's below (in player 2's), a dot (with its mark) on each inaccuracy, mistake and blunder,
  // and a line at the position shown. It scales to the card's width; its colours are
  // the page's, so it follows the theme.
  drawGraph() {
    const values = this.values();
    const W = 600, H = 160, mid = H / 2;
    const top = Math.max(4, ...values.map(Math.abs));
    const x = (k) => (values.length < 2 ? W / 2 : (k * W) / (values.length - 1));
    const y = (v) => mid - (v / top) * (mid - 8);
    const line = values.map((v, k) => `${k ? "L" : "M"}${x(k).toFixed(1)},${y(v).toFixed(1)}`).join("");
    const area = `${line}L${x(values.length - 1).toFixed(1)},${mid}L0,${mid}Z`;
    const marks = this.doc.plies
      .filter((p) => ["inaccuracy", "mistake", "blunder"].includes(p.label))
      .map((p) => `<circle class="dot" data-label="${p.label}" cx="${x(p.ply).toFixed(1)}" cy="${y(values[p.ply]).toFixed(1)}" r="5"/>`)
      .join("");
    const [lo, hi] = [Math.min(...values), Math.max(...values)];
    const counts = ["inaccuracy", "mistake", "blunder"].map((l) => `${this.doc.plies.filter((p) => p.label === l).length} ${LABELS[l].word}${this.doc.plies.filter((p) => p.label === l).length === 1 ? "" : "s"}`);
    const desc = `Player 1's final margin under best play after each of the ${this.doc.plies.length} moves, from ${signed(lo)} to ${signed(hi)} seeds, ending at ${signed(values[values.length - 1])}; ${counts.join(", ")}.`;
    $("analysis-graph").innerHTML =
      `<svg viewBox="0 0 ${W} ${H}" preserveAspectRatio="none" role="img" aria-labelledby="graph-title graph-desc">` +
      `<title id="graph-title">Value over the game</title><desc id="graph-desc">${desc}</desc>` +
      `<rect class="bg" x="0" y="0" width="${W}" height="${H}"/>` +
      `<clipPath id="graph-up"><rect x="0" y="0" width="${W}" height="${mid}"/></clipPath>` +
      `<clipPath id="graph-down"><rect x="0" y="${mid}" width="${W}" height="${mid}"/></clipPath>` +
      `<path class="area p1" clip-path="url(#graph-up)" d="${area}"/>` +
      `<path class="area p2" clip-path="url(#graph-down)" d="${area}"/>` +
      `<line class="zero" x1="0" y1="${mid}" x2="${W}" y2="${mid}"/>` +
      `<path class="value" d="${line}"/>${marks}<line id="graph-at" class="at" y1="0" y2="${H}"/></svg>` +
      `<p class="graph-scale" aria-hidden="true"><span>${names(this.page)[0]} ahead ↑</span><span>↓ ${names(this.page)[1]} ahead</span></p>`;
    const svg = $("analysis-graph").querySelector("svg");
    // A click or tap on the graph shows that position.
    svg.addEventListener("click", (e) => {
      const box = svg.getBoundingClientRect();
      this.page.goTo(Math.round(((e.clientX - box.left) / box.width) * (values.length - 1)));
    });
    this.x = x;
  }

  // The label of each move beside it in the move list: a mark, and the words in its
  // title and accessible name.
  markMoves() {
    if (!this.doc) return;
    for (const li of document.querySelectorAll("#history li[data-ply]")) {
      const p = this.doc.plies[Number(li.dataset.ply) - 1];
      if (!p || li.dataset.label) continue;
      li.dataset.label = p.label;
      const mark = document.createElement("span");
      mark.className = "mark";
      mark.dataset.label = p.label;
      mark.textContent = LABELS[p.label].mark;
      mark.setAttribute("aria-hidden", "true");
      li.append(mark);
      // Why the move got its mark, in its title and accessible name.
      const words = judgement(p);
      li.title = `${li.title}: ${words}`;
      li.setAttribute("aria-label", li.title);
    }
  }

  // The position after `ply` moves: the graph's line there, the best move on the board
  // (the houses lit), and in words the move that led there (its label and why: what it
  // kept against what the best kept; the graph's dot of a marked move is drawn at the
  // position after it, so a click on the dot shows that move) and the best move now.
  show(ply) {
    const at = $("graph-at");
    if (at) {
      at.setAttribute("x1", this.x(ply));
      at.setAttribute("x2", this.x(ply));
    }
    for (const b of document.querySelectorAll("#board .best")) {
      b.classList.remove("best");
      GamePage.speak(b);
    }
    const next = this.doc.plies[ply];
    for (const house of next ? next.best : []) {
      const b = $(`h${next.mover}-${house}`);
      if (!b) continue;
      b.classList.add("best");
      GamePage.speak(b);
    }
    const said = [];
    const played = this.doc.plies[ply - 1];
    if (played) said.push(`${this.page.final.players[played.mover - 1].name} played house ${played.played}, ${judgement(played)}.`);
    said.push(next ? `Best here: ${houses(next.best)}.` : "The end of the game.");
    $("analysis-move").textContent = ply === 0 && !next ? "" : said.join(" ");
  }
}

// "house 3", or "houses 2, 5".
const houses = (list) => (list.length === 1 ? `house ${list[0]}` : `houses ${list.join(", ")}`);

// A move's label and why it got it: what it kept against what the best move kept
// ("a mistake: −3 where house 4 keeps +2"), estimated or proven.
function judgement(p) {
  const why = p.label === "best"
    ? `the best move (${signed(p.value_best)})`
    : `${/^[aeiou]/.test(LABELS[p.label].word) ? "an" : "a"} ${LABELS[p.label].word}: ${signed(p.value_played)} where ${houses(p.best)} ${p.best.length === 1 ? "keeps" : "keep"} ${signed(p.value_best)}`;
  return `${why}${p.exact ? "" : " (estimated)"}`;
}

// The players' names, as the game view has them.
function names(page) {
  return page.final.players.map((p) => p.name);
}

const replayMatch = location.pathname.match(/^\/g\/([A-Za-z0-9_-]+)\/replay$/);
if (replayMatch) new ReplayPage(replayMatch[1]).start();
else if (match) setRecordLinks(match[1], false);
