// Playing a game beyond moves (issue 25): the player's name (kept in localStorage for
// next time), who moves first and the time control on the home page; on the game
// page the players' panels above and below the board (name, computer level, seeds
// captured, a large clock), the buttons to resign or abort (each confirmed by a second
// click), offer a draw, ask for a takeback, answer an offer or claim a game whose
// opponent left;
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

  // Resign and abort act on a second click: the first turns the button into its
  // confirmation (with a Cancel beside it) for a few seconds.
  const CONFIRM_MS = 5000;
  const confirmLabels = { resign: "Confirm resignation", abort: "Confirm abort" };
  let confirming = null;
  let confirmTimer = null;

  function confirmed(id, run) {
    return () => {
      if (confirming === id) { endConfirm(); run(); return; }
      endConfirm();
      confirming = id;
      const button = $(id);
      button.dataset.label = button.textContent;
      button.textContent = confirmLabels[id];
      button.classList.add("confirming");
      $("cancel-confirm").hidden = false;
      confirmTimer = setTimeout(endConfirm, CONFIRM_MS);
    };
  }

  function endConfirm() {
    clearTimeout(confirmTimer);
    if (!confirming) return;
    const button = $(confirming);
    button.textContent = button.dataset.label;
    button.classList.remove("confirming");
    $("cancel-confirm").hidden = true;
    confirming = null;
  }

  function setupGame(gamePage) {
    page = gamePage;
    const actions = {
      "resign": confirmed("resign", () => act("resign")),
      "abort": confirmed("abort", () => act("abort")),
      "cancel-confirm": endConfirm,
      "offer-draw": () => act("offer", { kind: "draw" }),
      "offer-takeback": () => act("offer", { kind: "takeback" }),
      "accept": () => act("accept"),
      "decline": () => { withdrawing = page.shown?.offer?.seat === page.mySeat(); act("decline"); },
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
      const shown = formatClock(left);
      // The clock's name says whose it is and the time it shows (a name given to an
      // element replaces its text for screen readers): "Bob's clock, 4:59 left".
      if (el.textContent !== shown || !el.getAttribute("aria-label")?.endsWith(`${shown} left`)) {
        el.textContent = shown;
        el.setAttribute("aria-label", `${clockBase.owners[seat - 1]} clock, ${shown} left`);
      }
      el.classList.toggle("running", clockBase.running === seat);
      el.classList.toggle("low", left < 20000);
      el.classList.toggle("flagged", clockBase.flagged === seat);
    }
  }

  function renderClocks(view) {
    for (const seat of [1, 2]) $(`clock-${seat}`).hidden = !view.clocks;
    clearInterval(clockTimer);
    clockBase = null;
    if (!view.clocks) return;
    // A player whose time ran out has none left, whatever the clock said last.
    const flagged = view.over && view.end && view.end.reason === "out-of-time" ? view.end.player : null;
    const remaining = view.clocks.remaining_ms.map((ms, i) => (flagged === i + 1 ? 0 : ms));
    const owners = [1, 2].map((seat) => (nameOf(view, seat) === "You" ? "Your" : `${view.players[seat - 1].name}'s`));
    clockBase = { remaining, running: view.over ? null : view.clocks.running, at: Date.now(), flagged, owners };
    for (const seat of [1, 2]) $(`clock-${seat}`).removeAttribute("aria-label");
    tickClocks();
    if (clockBase.running) clockTimer = setInterval(tickClocks, 200);
  }

  function renderPlayers(view) {
    const first = view.first === 2 ? 2 : 1;
    // Names are text; an account's name links to its profile.
    $("players").replaceChildren(Account.nameNode(view.players[0]), " vs ", Account.nameNode(view.players[1]),
      ` · ${view.players[first - 1].name} ${view.ply > 0 ? "moved" : "moves"} first${view.rated ? " · rated" : ""}`);
  }

  // The seeds each seat captured up to the position shown: its store, where the
  // variant has no stores on the board to sow into (all it banks it won, the seeds
  // sown into its claimed house too); else the captures of its moves.
  function captures(view) {
    if (!Catalogue.variant(view.variant).stores) return [...view.stores];
    const taken = [0, 0];
    for (const m of view.history.slice(0, view.ply)) taken[m.seat - 1] += m.captured;
    return taken;
  }

  // The players' panels: the viewer's seat below the board (player 1's for spectators),
  // the opponent's above; who they are, what they captured, whose turn it is.
  let ratingsAsked = 0; // the latest ask for the seats' ratings: an older answer is late

  function renderPanels(view) {
    const asked = ++ratingsAsked;
    Account.seatRatings(view).then((ratings) => {
      if (asked !== ratingsAsked) return;
      ratings.forEach((r, i) => { $(`rating-${i + 1}`).textContent = r; });
    });
    const below = page.layout(view).me;
    const taken = captures(view);
    for (const seat of [1, 2]) {
      const p = view.players[seat - 1];
      const you = nameOf(view, seat) === "You";
      const panel = $(`panel-${seat}`);
      panel.classList.toggle("below", seat === below);
      panel.classList.toggle("to-move", view.started && !view.over && view.to_move === seat);
      $(`name-${seat}`).textContent = p.name;
      let tag = "";
      if (p.kind === "computer") tag = `computer, level ${p.computer || p.name}`;
      else if (!p.joined) tag = "not here yet";
      else if (you) tag = "you";
      $(`tag-${seat}`).textContent = tag;
      $(`captured-${seat}`).textContent = `${taken[seat - 1]} captured`;
      // The house the player has claimed, in their colour as on the board.
      const claimed = view.claimed && view.claimed[seat - 1];
      const chip = $(`claim-${seat}`);
      chip.hidden = !claimed;
      chip.textContent = claimed ? `${Catalogue.claimWord(view.variant)}: ${nameOf(view, 3 - seat) === "You" ? "your" : `${view.players[2 - seat].name}'s`} house ${claimed}` : "";
      panel.setAttribute("aria-label", `Player ${seat}: ${p.name}${tag ? ` (${tag})` : ""}`);
    }
  }

  function renderControls(view) {
    const mine = page.mySeat();
    // Nothing is played in the replay viewer, even by a player of the game.
    const on = mine !== null && !view.over && !document.body.classList.contains("replaying");
    $("play-controls").hidden = !on;
    const offer = view.offer;
    const offerBox = $("offer-box");
    offerBox.hidden = !(offer && !view.over);
    if (offer && !view.over) {
      const who = nameOf(view, offer.seat);
      const toYou = mine === null ? "" : " you";
      $("offer-text").textContent = offer.seat === mine
        ? `You offered ${offer.kind === "draw" ? "a draw" : "to take back your last move"}: waiting for the answer.`
        : offer.kind === "draw" ? `${who} offers${toYou} a draw.` : `${who} asks to take back their last move.`;
      $("accept").hidden = mine === null || offer.seat === mine;
      $("decline").hidden = mine === null;
      $("decline").textContent = offer.seat === mine ? "Withdraw" : "Decline";
    }
    if (!on) { endConfirm(); return; }
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

  // What the last move did, in words: captures, a house claimed, another turn,
  // feeding (the end is the game-over panel's to say).
  function moveNotes(view) {
    const notes = [];
    const lm = view.last_move;
    if (lm && !view.end?.reason?.match(/resigned|aborted|draw-agreed|out-of-time|abandoned/)) {
      const who = nameOf(view, lm.seat);
      const you = who === "You";
      if (lm.captured > 0) notes.push(`${who} ${you ? "capture" : "captures"} ${lm.captured} seed${lm.captured === 1 ? "" : "s"}.`);
      if (lm.claim) {
        const row = nameOf(view, 3 - lm.seat);
        const whose = row === "You" ? "your" : `${row}'s`;
        notes.push(`${who} ${you ? "claim" : "claims"} a ${Catalogue.claimWord(view.variant)}: ${whose} house ${lm.claim}. Every seed sown there from now on goes to ${you ? "you" : who}.`);
      }
      if (lm.again && !view.over) notes.push(`${who} ${you ? "move" : "moves"} again.`);
    }
    // A variant whose players must feed an opponent with no seeds says so.
    if (!view.over && Catalogue.variant(view.variant).must_feed && view.to_move) {
      const other = 3 - view.to_move;
      if (view.houses[other - 1].every((n) => n === 0)) {
        const empty = nameOf(view, other);
        const mover = nameOf(view, view.to_move);
        notes.push(`${empty} ${empty === "You" ? "have" : "has"} no seeds: ${mover === "You" ? "you" : mover} must give ${empty === "You" ? "you" : "them"} some.`);
      }
    }
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

  let withdrawing = false; // this player is taking their own offer back

  // What became of this player's own offer once it is gone from the game (the other
  // player answered it), for the message line: the one who asked was told nothing.
  // A draw accepted ends the game, which the game-over panel says.
  function offerAnswer(prev, view) {
    const asked = prev && prev.offer;
    if (!asked || page.mySeat() === null || asked.seat !== page.mySeat() || view.offer) return "";
    if (withdrawing) { withdrawing = false; return ""; }
    if (asked.kind === "draw") return view.over ? "" : "Your draw offer was declined.";
    return view.ply < prev.ply ? "Your takeback was accepted: your last move is taken back." : "Your takeback request was declined.";
  }

  // Everything of this file on the game page, after app.js drew the board.
  function render(view, delay) {
    renderPlayers(view);
    renderPanels(view);
    renderClocks(view);
    renderControls(view);
    sweep(view, delay);
  }

  // The seat that asked for the rematch of finished game `view`, if the server says.
  const rematchBy = (view) => (view.rematch_by ?? null);

  return { setupHome, newGameOptions, joinOptions, setupGame, render, moveNotes, offerAnswer, rematchBy };
})();
