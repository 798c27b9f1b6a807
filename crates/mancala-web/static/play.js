// Playing a game beyond moves (issue 25): the player's name (kept in localStorage for
// next time), who moves first and the time control on the home page; on the game
// page the players' names, both clocks ticking, the buttons to resign, abort, offer
// a draw, ask for a takeback, answer an offer or claim a game whose opponent left;
// what each move did in words (whether or not the sowing is animated); and at the
// end the seeds left in the houses going to their owners. Names are only ever set
// as text (textContent), never as markup. app.js calls in through `Play`.
"use strict";

const Play = (() => {
  const $ = (id) => document.getElementById(id);
  const NAME_KEY = "mancala:name";

  const savedName = () => (localStorage.getItem(NAME_KEY) || "").trim();

  // ------------------------------------------------------------ home page

  function setupHome() {
    const input = $("player-name");
    input.value = savedName();
    input.addEventListener("input", () => localStorage.setItem(NAME_KEY, input.value.trim()));
  }

  // What the home form adds to `POST /api/games`.
  function newGameOptions() {
    const body = {};
    const name = $("player-name").value.trim();
    if (name) body.name = name;
    const first = $("first").value;
    body.first = first === "random" ? "random" : Number(first);
    const tc = $("time-control").value;
    if (tc.startsWith("day")) body.time_control = { per_move_s: 86400 * Number(tc.slice(3)) };
    else if (tc !== "none") {
      const [minutes, increment] = tc.split("+").map(Number);
      body.time_control = { initial_s: minutes * 60, increment_s: increment };
    }
    return body;
  }

  // What joining adds: the name kept from last time.
  function joinOptions() {
    const name = savedName();
    return name ? { name } : {};
  }

  // ------------------------------------------------------------ game page

  let page = null;          // the GamePage
  let clockTimer = null;
  let clockBase = null;     // { remaining: [a, b], running, at } of the last view
  let claimTimer = null;

  function setupGame(gamePage) {
    page = gamePage;
    const actions = {
      "resign": () => act("resign"),
      "abort": () => act("abort"),
      "offer-draw": () => act("offer", { kind: "draw" }),
      "offer-takeback": () => act("offer", { kind: "takeback" }),
      "accept": () => act("accept"),
      "decline": () => act("decline"),
      "claim": () => act("claim"),
    };
    for (const [id, run] of Object.entries(actions)) $(id).addEventListener("click", run);
  }

  async function act(path, body) {
    if (!page.seat) return;
    try {
      const view = await api("POST", `/api/games/${page.id}/${path}`, body, page.seat.token);
      page.receive(view);
    } catch (err) {
      $("message").textContent = err.message;
    }
  }

  // A player's name as the page shows it: "You" for this browser's seat.
  const nameOf = (view, seat) => page.nameOf(view, seat);

  function formatClock(ms) {
    const s = Math.max(0, Math.ceil(ms / 1000));
    const d = Math.floor(s / 86400);
    const h = Math.floor((s % 86400) / 3600);
    const m = Math.floor((s % 3600) / 60);
    const ss = String(s % 60).padStart(2, "0");
    if (d > 0) return `${d}d ${h}h`;
    if (h > 0) return `${h}:${String(m).padStart(2, "0")}:${ss}`;
    return `${m}:${ss}`;
  }

  function tickClocks() {
    if (!clockBase) return;
    for (const seat of [1, 2]) {
      let left = clockBase.remaining[seat - 1];
      if (clockBase.running === seat) left -= Date.now() - clockBase.at;
      const el = $(`clock-${seat}`);
      el.textContent = formatClock(left);
      el.classList.toggle("running", clockBase.running === seat);
      el.classList.toggle("low", left < 20000);
    }
  }

  function renderClocks(view) {
    $("clocks").hidden = !view.clocks;
    clearInterval(clockTimer);
    clockBase = null;
    if (!view.clocks) return;
    clockBase = { remaining: view.clocks.remaining_ms, running: view.over ? null : view.clocks.running, at: Date.now() };
    for (const seat of [1, 2]) $(`clock-name-${seat}`).textContent = nameOf(view, seat);
    tickClocks();
    if (clockBase.running) clockTimer = setInterval(tickClocks, 200);
  }

  function renderPlayers(view) {
    const first = view.first === 2 ? 2 : 1;
    $("players").textContent = `${view.players[0].name} vs ${view.players[1].name}` +
      ` · ${view.players[first - 1].name} ${view.ply > 0 ? "moved" : "moves"} first`;
  }

  function renderControls(view) {
    const mine = page.mySeat();
    const on = mine !== null && !view.over;
    $("play-controls").hidden = !on;
    const offer = view.offer;
    const offerBox = $("offer-box");
    offerBox.hidden = !(offer && !view.over);
    if (offer && !view.over) {
      const what = offer.kind === "draw" ? "a draw" : "to take back their last move";
      $("offer-text").textContent = offer.seat === mine
        ? `You offered ${offer.kind === "draw" ? "a draw" : "to take back your last move"}: waiting for the answer.`
        : `${nameOf(view, offer.seat)} ${mine === null ? "offers" : "asks you for"} ${what}.`;
      $("accept").hidden = mine === null || offer.seat === mine;
      $("decline").hidden = mine === null;
      $("decline").textContent = offer.seat === mine ? "Withdraw" : "Decline";
    }
    if (!on) return;
    const moved = (seat) => view.history.some((m) => m.seat === seat);
    const computer = view.players[1].kind === "computer";
    $("abort").hidden = moved(1) && moved(2);
    $("resign").hidden = !view.started || !$("abort").hidden;
    $("offer-draw").hidden = !view.started || computer || !!offer;
    $("offer-takeback").hidden = !view.started || !moved(mine) || !!offer;
    const waiting = view.claim_at !== null && view.to_move !== mine;
    $("claim").hidden = !(waiting && view.claim_at * 1000 <= Date.now());
    // Offer the claim when its time comes, even if nothing else happens meanwhile.
    clearTimeout(claimTimer);
    const wait = view.claim_at * 1000 - Date.now();
    if (waiting && wait > 0 && wait < 2 ** 31 - 1) claimTimer = setTimeout(() => renderControls(page.shown), wait + 500);
  }

  // What the last move did, in words: captures, another turn, feeding, the end.
  function moveNotes(view) {
    const notes = [];
    const lm = view.last_move;
    if (lm && !view.end?.reason?.match(/resigned|aborted|draw-agreed|out-of-time|abandoned/)) {
      const who = nameOf(view, lm.seat);
      const you = who === "You";
      if (lm.captured > 0) notes.push(`${who} ${you ? "capture" : "captures"} ${lm.captured} seed${lm.captured === 1 ? "" : "s"}.`);
      if (lm.again && !view.over) notes.push(`${who} ${you ? "move" : "moves"} again.`);
    }
    if (!view.over && view.variant !== "kalah" && view.to_move) {
      const other = 3 - view.to_move;
      if (view.houses[other - 1].every((n) => n === 0)) {
        const empty = nameOf(view, other);
        const mover = nameOf(view, view.to_move);
        notes.push(`${empty} ${empty === "You" ? "have" : "has"} no seeds: ${mover === "You" ? "you" : mover} must give ${empty === "You" ? "you" : "them"} some.`);
      }
    }
    if (view.over && view.end) notes.push(`Game over: ${view.end.text}`);
    return notes.join(" ");
  }

  // At the end, the seeds left in each player's houses go to their store, so that
  // the stores show the score: after a pause the first time, at once when the same
  // end is drawn again (a rematch offer redraws the board).
  async function sweep(view, delay) {
    if (!view.over || !view.end) return;
    const sweepOf = view.end.sweep;
    const again = document.body.dataset.swept === String(view.version);
    if (sweepOf[0] + sweepOf[1] > 0) {
      if (!again && delay > 0) await new Promise((r) => setTimeout(r, delay * 3));
      for (const seat of [1, 2]) {
        if (sweepOf[seat - 1] === 0) continue;
        view.houses[seat - 1].forEach((n, i) => { if (n > 0) page.setCount(`h${seat}-${i + 1}`, 0); });
        page.setCount(`s${seat}`, view.stores[seat - 1] + sweepOf[seat - 1]);
        if (!again) $(`s${seat}`)?.classList.add("pulse");
      }
    }
    document.body.dataset.swept = String(view.version);
  }

  // Everything of this file on the game page, after app.js drew the board.
  function render(view, delay) {
    renderPlayers(view);
    renderClocks(view);
    renderControls(view);
    sweep(view, delay);
  }

  return { setupHome, newGameOptions, joinOptions, setupGame, render, moveNotes };
})();
