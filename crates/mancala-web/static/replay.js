// The replay viewer (/g/ID/replay): any game, finished or not, position by position,
// with the board after each move (from GET /api/games/ID/positions) and the moves in
// numbered turns. The arrow keys, Home and End, the buttons, the slider, or a click on
// a move step through it; the address keeps the move shown (#ply=N). On a game's page
// this script also fills in the links to the game's record and its replay.
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
      tuzdyks: p.tuzdyks,
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
      current.scrollIntoView({ block: "nearest" });
    }
    history.replaceState(null, "", `#ply=${this.at}`);
  }

  // The whole game's moves, whichever position is shown.
  renderHistory() {
    super.renderHistory(this.final);
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

const replayMatch = location.pathname.match(/^\/g\/([A-Za-z0-9_-]+)\/replay$/);
if (replayMatch) new ReplayPage(replayMatch[1]).start();
else if (match) setRecordLinks(match[1], false);
