// The browser UI of `mancala serve`: a home page to start a game and a game page that
// follows the game live (one WebSocket per tab, closed by the server once a finished
// game's rematch has come or a while after the end), animates each sowing from the
// steps the server sends, and plays moves with the seat token kept in localStorage. A
// friend joins with the invite link (the game's address with `#invite=SECRET`); the
// plain address only watches.
"use strict";

const $ = (id) => document.getElementById(id);

// A script error must not leave a silent, frozen page: say so where the player looks.
function reportError(text) {
  const el = $("message") || $("form-error");
  if (el) el.textContent = `Something went wrong: ${text}. Reload the page to continue.`;
}
window.addEventListener("error", (e) => reportError(e.message));
window.addEventListener("unhandledrejection", (e) => reportError(String(e.reason && e.reason.message || e.reason)));

// ---------------------------------------------------------------- storage and API

const seatKey = (id) => `mancala:seat:${id}`;
function loadSeat(id) {
  try { return JSON.parse(localStorage.getItem(seatKey(id))); } catch { return null; }
}
function saveSeat(id, seat, token, invite) {
  // `at` orders the home page's list of this browser's games.
  const entry = { seat, token, at: Date.now() };
  if (invite) entry.invite = invite;
  localStorage.setItem(seatKey(id), JSON.stringify(entry));
}

// The invite secret of an invite link (`#invite=...`), if this page was opened by one.
function inviteOfLink() {
  const m = location.hash.match(/^#invite=([0-9a-f]+)$/);
  return m ? m[1] : null;
}

async function api(method, path, body, token) {
  const headers = { "Content-Type": "application/json" };
  if (token) headers.Authorization = `Bearer ${token}`;
  const res = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  let data = null;
  try { data = await res.json(); } catch { /* empty body */ }
  if (!res.ok) {
    const err = new Error((data && data.error) || `${res.status} ${res.statusText}`);
    err.status = res.status;
    // How long to wait before asking again (a throttled log-in, a busy server), in s.
    err.retryAfter = Number(res.headers.get("Retry-After")) || null;
    throw err;
  }
  return data;
}

// ---------------------------------------------------------------- speed setting

const speedSelect = $("speed");
speedSelect.value = localStorage.getItem("mancala:speed") ?? speedSelect.value;
speedSelect.addEventListener("change", () => localStorage.setItem("mancala:speed", speedSelect.value));
// A system that asks for reduced motion gets no sowing animation, whatever the speed.
const reducedMotion = matchMedia("(prefers-reduced-motion: reduce)");
const stepDelay = () => (reducedMotion.matches ? 0 : Number(speedSelect.value));

// ---------------------------------------------------------------- sound
// A short tone when the opponent has moved, for a player waiting in another tab. Off
// unless chosen (a page should not make noise unasked), and kept in the browser. The
// tone is synthesized, so there is no file to fetch; each one is counted on the body
// (data-chimes) so that a test can tell it was played.
const soundBox = $("sound");
soundBox.checked = localStorage.getItem("mancala:sound") === "on";
soundBox.addEventListener("change", () => localStorage.setItem("mancala:sound", soundBox.checked ? "on" : "off"));
let audio = null;
function chime() {
  if (!soundBox.checked || typeof AudioContext === "undefined") return;
  audio ??= new AudioContext();
  const tone = audio.createOscillator();
  const volume = audio.createGain();
  tone.frequency.value = 660;
  volume.gain.setValueAtTime(0.15, audio.currentTime);
  volume.gain.exponentialRampToValueAtTime(0.001, audio.currentTime + 0.25);
  tone.connect(volume).connect(audio.destination);
  tone.start();
  tone.stop(audio.currentTime + 0.25);
  document.body.dataset.chimes = String(Number(document.body.dataset.chimes || 0) + 1);
}
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// ---------------------------------------------------------------- home page

function showHome() {
  $("home").hidden = false;
  Play.setupHome();
  document.title = "Mancala";
  // The variants, their boards and options, and the computer players come from the
  // server (catalogue.js).
  Catalogue.setupForm();
  $("level").addEventListener("change", () => { $("against-computer").checked = true; });
  $("new-game").addEventListener("submit", async (e) => {
    e.preventDefault();
    $("form-error").textContent = "";
    const body = {
      variant: $("variant").value,
      houses: Number($("houses").value),
      seeds: Number($("seeds").value),
      opponent: $("against-computer").checked ? $("level").value : "human",
      public: $("public").checked,
      ...Catalogue.chosenOptions(),
      ...Play.newGameOptions(),
    };
    if ($("rated").checked && body.opponent === "human") body.rated = true;
    try {
      $("start").disabled = true;
      const grant = await api("POST", "/api/games", body);
      saveSeat(grant.id, grant.seat, grant.token, grant.invite);
      location.assign(`/g/${grant.id}`);
    } catch (err) {
      $("form-error").textContent = err.message;
      $("start").disabled = false;
    }
  });
}

// ---------------------------------------------------------------- game page

const letters = "abcdefghijklmnopqrstuvwxyz";
const seeds = (n) => `${n} seed${n === 1 ? "" : "s"}`;
// A message begun with a capital letter (the server's errors begin in lower case).
const capitalised = (s) => s.charAt(0).toUpperCase() + s.slice(1);

class GamePage extends MoveList {
  constructor(id) {
    super();
    this.id = id;
    this.seat = loadSeat(id);
    this.invite = this.seat ? null : inviteOfLink();
    this.shown = null;      // the view on screen
    this.queue = [];        // views waiting to be animated
    this.animating = false;
    this.sending = false;
    this.pending = null;    // a move that could not be sent: { house, ply }
  }

  async start() {
    $("game").hidden = false;
    const base = `${location.origin}/g/${this.id}`;
    if (this.seat && this.seat.invite) $("share-link").value = `${base}#invite=${this.seat.invite}`;
    $("watch-link").value = base;
    for (const [button, input] of [["copy-share", "share-link"], ["copy-watch", "watch-link"]]) {
      $(button).addEventListener("click", async () => {
        $(input).select();
        try { await navigator.clipboard.writeText($(input).value); $(button).textContent = "Copied"; } catch { /* selection is enough */ }
      });
    }
    $("join").addEventListener("click", () => this.join());
    $("rematch").addEventListener("click", () => this.rematch());
    Play.setupGame(this);
    BoardFocus.setup($("board"));
    document.addEventListener("keydown", (e) => this.onKey(e));
    // The variant's words (its name, what its stores are called) come from the server;
    // without them the game is still played, named by its key.
    await Catalogue.load().catch(() => null);
    await this.seatOfAccount();
    this.connect();
  }

  // Without the seat's token in this browser, the seat the logged-in account holds:
  // the account plays it from any device (the requests carry its session cookie).
  async seatOfAccount() {
    if (this.seat) return;
    const me = await Account.ready;
    if (!me) return;
    try {
      const view = await api("GET", `/api/games/${this.id}`);
      const i = view.players.findIndex((p) => p.account === me.name.toLowerCase());
      if (i >= 0) this.seat = { seat: i + 1, token: null };
    } catch { /* the live connection reports what is wrong */ }
  }

  receive(view) {
    Catalogue.learn(view);
    this.queue.push(view);
    this.drain();
  }

  async drain() {
    if (this.animating) return;
    this.animating = true;
    while (this.queue.length) {
      const view = this.queue.shift();
      const prev = this.shown;
      // A move's own response can arrive after the live update that followed it:
      // never draw an older state over a newer one.
      if (prev && view.version < prev.version) continue;
      const moved = prev && view.ply === prev.ply + 1 && view.last_move;
      if (moved && stepDelay() > 0) {
        await this.animate(prev, view);
      }
      this.render(view);
      if (moved && this.mySeat() !== null && prev.to_move !== this.mySeat()) chime();
      // The other side's move, for screen readers (what it did follows in the message).
      if (moved && view.last_move.seat !== this.mySeat()) {
        const lm = view.last_move;
        $("said").textContent = `${this.nameOf(view, lm.seat)} ${this.verb(view, lm.seat, "sow", "sows")} house ${lm.house}.`;
      }
      // What the move did, animated or not (the end has its own panel).
      if (moved || (view.over && !(prev && prev.over))) $("message").textContent = Play.moveNotes(view);
      const answer = Play.offerAnswer(prev, view);
      if (answer) $("message").textContent = answer;
    }
    this.animating = false;
  }

  // ------------------------------------------------------------ names and text

  mySeat() { return this.seat ? this.seat.seat : null; }

  // A player's name: "You" for this browser's seat, else the name the server gives
  // (the name they chose, "Player 2", or the computer's level). Always set as text.
  nameOf(view, seat) {
    const p = view.players[seat - 1];
    if (p.kind !== "computer" && this.mySeat() === seat) return "You";
    return p.name;
  }

  // The label of a seat's store: whose it is, by a name short enough for a phone
  // (a computer by its level or player), over what it holds.
  storeLabel(view, seat) {
    const p = view.players[seat - 1];
    const name = p.kind === "computer" ? p.name : this.nameOf(view, seat);
    const what = Catalogue.bank(view.variant).word;
    const label = document.createElement("span");
    const who = document.createElement("b");
    who.textContent = name;
    label.append(who, what);
    return label;
  }

  verb(view, seat, you, other) { return this.nameOf(view, seat) === "You" ? you : other; }

  // Whose a pit is, for screen readers: "your", "Ann's", "Medium bot's" ("Your" to
  // begin a sentence).
  ownerOf(view, seat, capital = false) {
    const name = this.nameOf(view, seat);
    return name === "You" ? (capital ? "Your" : "your") : `${name}'s`;
  }

  // ------------------------------------------------------------ drawing

  // Pits as the board shows them: the viewer's row at the bottom (player 1 for
  // spectators), houses anticlockwise, the viewer's store on the right.
  layout(view) {
    const me = this.mySeat() === 2 ? 2 : 1;
    const them = 3 - me;
    const h = view.rules.houses;
    const top = [];
    for (let i = h; i >= 1; i--) top.push(i);
    const bottom = [];
    for (let i = 1; i <= h; i++) bottom.push(i);
    return { me, them, h, top, bottom };
  }

  pitLabel(view, seat, house) {
    const h = view.rules.houses;
    const letter = letters[(seat - 1) * h + house - 1] || "";
    return { number: String(house), letter };
  }

  buildBoard(view) {
    const board = $("board");
    const { me, them, h, top, bottom } = this.layout(view);
    board.style.setProperty("--houses", h);
    // The board's column is as wide as the board, the players' panels with it.
    $("game").style.setProperty("--houses", h);
    board.innerHTML = "";
    const storeName = Catalogue.bank(view.variant).word;
    const store = (seat, cls) => {
      const el = document.createElement("div");
      el.className = `store ${cls}`;
      el.id = `s${seat}`;
      el.dataset.seat = seat;
      el.setAttribute("role", "img");
      // The label (set in render) says all; the parts drawn are not read out again.
      el.innerHTML = `<span class="who" aria-hidden="true">${seat === me && this.mySeat() ? "your" : `player ${seat}`} ${storeName}</span><span class="count" aria-hidden="true"></span><span class="seeds" aria-hidden="true"></span>`;
      return el;
    };
    const house = (seat, n, row) => {
      const b = document.createElement("button");
      b.type = "button";
      b.className = `house ${row}`;
      b.id = `h${seat}-${n}`;
      b.dataset.seat = seat;
      b.dataset.house = n;
      const { number, letter } = this.pitLabel(view, seat, n);
      // The button's label (set in render) names it for screen readers. Of what is
      // drawn only the house's number is text (which the label contains, as speech
      // input needs); its letter and count are drawn by the style sheet.
      // A claimed house's badge is drawn, by the style sheet, only on a house that is
      // one (see render), in the game's word for it (its data-word).
      b.innerHTML = `<span class="label" aria-hidden="true">${number}<small data-letter="${letter}"></small></span><span class="count" aria-hidden="true"></span><span class="seeds" aria-hidden="true"></span><span class="badge" aria-hidden="true"></span>`;
      b.addEventListener("click", () => this.play(n));
      return b;
    };
    // Each pit's column and row across (--c, --r), and its row and column down a
    // phone's screen (--d, --dc): the board turned a quarter clockwise, so that your
    // store is at the bottom beside your panel and the opponent's at the top.
    const place = (el, column, row) => {
      el.style.setProperty("--c", column);
      el.style.setProperty("--r", row);
      el.style.setProperty("--d", column);
      el.style.setProperty("--dc", 3 - row);
    };
    board.append(store(them, "left"));
    place(board.lastChild, 1, 1);
    top.forEach((n, i) => { const b = house(them, n, "top"); place(b, i + 2, 1); board.append(b); });
    bottom.forEach((n, i) => { const b = house(me, n, "bottom"); place(b, i + 2, 2); board.append(b); });
    board.append(store(me, "right"));
    place(board.lastChild, h + 2, 1);
    this.boardKey = `${view.rules.houses}:${me}`;
    this.fitBoard();
    if (!this.fitting) {
      this.fitting = true;
      window.addEventListener("resize", () => this.fitBoard());
    }
  }

  // A board whose houses would be too narrow to tap across the screen runs down it.
  fitBoard() {
    const board = $("board");
    const columns = Number(board.style.getPropertyValue("--houses")) + 2;
    const width = $("board-wrap").clientWidth;
    board.classList.toggle("down", width > 0 && width / columns < 40);
  }

  // Draws `n` seeds in a pit, and says so in its spoken label: whatever draws a count
  // (a move, its animation, the end's sweep) keeps the label equal to it.
  setCount(pitId, n) {
    const el = $(pitId);
    if (!el) return;
    el.querySelector(".count").dataset.n = n;
    const dots = el.querySelector(".seeds");
    const shown = Math.min(n, 24);
    if (dots.childElementCount !== shown) {
      dots.innerHTML = "<i></i>".repeat(shown);
    }
    el.dataset.count = n;
    GamePage.speak(el);
  }

  // A pit's spoken label: its name and what it holds (a claimed house: its name), and
  // in the replay's analysis whether it is the best move.
  static speak(el) {
    const best = el.classList.contains("best") ? ", best move" : "";
    if (el.dataset.claimedLabel) el.setAttribute("aria-label", el.dataset.claimedLabel + best);
    else if (el.dataset.name) el.setAttribute("aria-label", `${el.dataset.name}, ${seeds(Number(el.dataset.count))}${best}`);
  }

  paintCounts(view) {
    for (const seat of [1, 2]) {
      view.houses[seat - 1].forEach((n, i) => this.setCount(`h${seat}-${i + 1}`, n));
      this.setCount(`s${seat}`, view.stores[seat - 1]);
    }
  }

  render(view) {
    this.shown = view;
    const { me } = this.layout(view);
    if (this.boardKey !== `${view.rules.houses}:${me}`) this.buildBoard(view);
    this.paintCounts(view);
    const mine = this.mySeat();
    const myTurn = view.started && !view.over && mine !== null && view.to_move === mine;
    for (const seat of [1, 2]) {
      for (let n = 1; n <= view.rules.houses; n++) {
        const b = $(`h${seat}-${n}`);
        const legal = myTurn && seat === mine && view.legal_moves.includes(n);
        b.disabled = !legal;
        b.classList.toggle("legal", legal);
        b.classList.toggle("to-move", !view.over && view.to_move === seat);
        // A house of this row that the other player has claimed (the game's word
        // for it is its description's).
        const owner = this.claimOwner(view, seat, n);
        const word = Catalogue.claimWord(view.variant);
        b.classList.toggle("claimed", owner !== null);
        if (owner !== null) b.dataset.owner = owner; else delete b.dataset.owner;
        b.querySelector(".badge").dataset.word = owner !== null ? word : "";
        b.title = owner !== null ? `${this.ownerOf(view, owner, true)} ${word}: every seed sown here goes to ${this.nameOf(view, owner) === "You" ? "you" : this.nameOf(view, owner)}` : "";
        b.dataset.name = `${this.ownerOf(view, seat)} house ${n}`;
        b.dataset.claimedLabel = owner !== null ? `${this.ownerOf(view, owner)} ${word} on ${this.ownerOf(view, seat)} house ${n}` : "";
        GamePage.speak(b);
        b.classList.toggle("pending", !!this.pending && seat === mine && this.pending.house === n);
      }
      const s = $(`s${seat}`);
      s.querySelector(".who").replaceChildren(...this.storeLabel(view, seat).childNodes);
      s.dataset.name = `${this.ownerOf(view, seat)} ${Catalogue.bank(view.variant).spoken}`;
      GamePage.speak(s);
    }
    this.renderStatus(view, myTurn);
    this.renderHistory(view);
    this.renderEnd(view);
    this.showTurn(view, myTurn);
    Play.render(view, stepDelay());
    BoardFocus.restore();
    // The rules as the variant's description words them: its name, the board, and
    // each rule option it takes.
    const v = Catalogue.variant(view.variant);
    $("rules-line").textContent = [`${v.name}, ${view.rules.houses} house${view.rules.houses === 1 ? "" : "s"}, ${seeds(view.rules.seeds)}`,
      ...Catalogue.allOptions(view.variant, view.rules)].join(", ");
    $("rules-line").title = v.rules;
  }

  // The seat that has claimed house `n` of `seat`'s row, or null.
  claimOwner(view, seat, n) {
    const other = 3 - seat;
    return view.claimed && view.claimed[other - 1] === n ? other : null;
  }

  renderStatus(view, myTurn) {
    const mine = this.mySeat();
    const p2 = view.players[1];
    const open = p2.kind === "human" && !p2.joined;
    // [webapi D9] An invite whose seat is taken is spent: say so, and drop it from the
    // address. A public game's seat is anyone's: offer it without an invite.
    if (this.invite && !open) this.inviteSpent();
    if (mine === null && open && !this.invite && this.listed === undefined) this.checkListed();
    const joinable = mine === null && open && (this.invite || this.listed);
    // A rated game's seat is an account's: someone logged out is asked to log in.
    const logInFirst = view.rated && !Account.me;
    $("join-box").querySelector("p").textContent = logInFirst
      ? "This game is rated: log in or create an account to take player 2's seat."
      : this.invite
        ? "You have been invited: player 2's seat is yours to take."
        : "This game is open: anyone may take player 2's seat.";
    $("join").textContent = logInFirst ? "Log in to join" : "Join as player 2";
    $("share-box").hidden = !(mine === 1 && open && this.seat.invite);
    $("join-box").hidden = !joinable;
    let text;
    // The end is said once, in the game-over panel.
    if (view.over) text = "";
    else if (open) {
      if (mine === 1) text = this.seat.invite ? "Waiting for your friend to join: send them the invite link below." : "Waiting for the other player to join the rematch.";
      else text = `Waiting for ${view.players[1].name}.`;
    }
    else if (myTurn) text = "Your turn: choose a house.";
    else if (view.players[view.to_move - 1].kind === "computer") text = `${this.nameOf(view, view.to_move)} is thinking…`;
    else text = mine === null ? `${this.nameOf(view, view.to_move)} to move.` : `Waiting for ${this.nameOf(view, view.to_move)}.`;
    if (mine === null && !this.invite && text) text = `Watching. ${text}`;
    if (mine === null && this.spent) text = `This invite was already used. ${text}`.trim();
    if (this.pending && !view.over) text = `Your move (house ${this.pending.house}) is waiting for the connection.`;
    $("status").textContent = text;
  }

  // [webapi D9] The invite of the address has been used (seat 2 is taken).
  inviteSpent() {
    this.invite = null;
    this.spent = true;
    history.replaceState(null, "", location.pathname);
  }

  // [webapi D9] Whether the lobby lists this game (then anyone may join it); the page
  // is drawn again once known.
  async checkListed() {
    this.listed = false;
    try {
      const { games } = await api("GET", "/api/lobby");
      this.listed = games.some((g) => g.id === this.id);
    } catch { /* not offered: the page still watches */ }
    if (this.listed && this.shown) this.renderStatus(this.shown, false);
  }

  // The tab says when it is your turn, in its title and its icon, so that a game in a
  // background tab is not forgotten.
  showTurn(view, myTurn) {
    document.title = myTurn ? "(Your turn) Mancala" : `Mancala: ${view.over ? "game over" : "waiting"}`;
    const icon = document.querySelector('link[rel="icon"]');
    const href = myTurn ? "/favicon-turn.svg" : "/favicon.svg";
    if (icon && icon.getAttribute("href") !== href) icon.setAttribute("href", href);
  }

  renderEnd(view) {
    $("end-box").hidden = !view.over;
    if (!view.over) return;
    // Stopped by the players or a clock: the result without scores.
    const stopped = ["resigned", "out-of-time", "abandoned", "draw-agreed", "aborted"].includes(view.end.reason);
    let text;
    if (!view.result) text = "No result.";
    else {
      const [a, b] = view.result.scores;
      const w = view.result.winner;
      const score = stopped ? "" : w === null ? `, ${a} to ${b}` : `, ${Math.max(a, b)} to ${Math.min(a, b)}`;
      text = w === null ? `A draw${score}.` : `${this.nameOf(view, w)} ${this.verb(view, w, "win", "wins")}${score}.`;
    }
    $("result").textContent = text;
    $("end-reason").textContent = view.end.text;
    // Each player's entry whole on its line: a line too long breaks between them.
    const rating = Account.ratingLine(view);
    $("end-rating").replaceChildren(...rating.split(" · ").flatMap((text, i) => {
      const entry = document.createElement("span");
      entry.className = "entry";
      entry.textContent = text;
      return i ? [" · ", entry] : [entry];
    }));
    $("end-rating").hidden = !rating;
    // The score as a record writes it, over the result in words.
    const w = view.result ? view.result.winner : undefined;
    $("end-score").textContent = w === undefined ? "" : w === 1 ? "1-0" : w === 2 ? "0-1" : "½-½";
    $("end-replay").href = `/g/${this.id}/replay`;
    $("end-replay").hidden = document.body.classList.contains("replaying");
    this.renderRematch(view);
  }

  // The rematch: a player starts it or follows the other into it; the other player
  // and spectators are told as soon as it is offered.
  renderRematch(view) {
    const mine = this.mySeat();
    const ours = view.rematch && loadSeat(view.rematch);
    const by = Play.rematchBy(view);
    const offered = !!(view.rematch && by && !ours) && !document.body.classList.contains("replaying");
    // A rematch seat is derived from the seat's token: a device that plays by the
    // account alone follows the link instead.
    const tokenless = mine !== null && !this.seat.token;
    // A game aborted before the other player came has nobody to play again.
    const nobodyCame = view.players.some((p) => p.kind === "human" && !p.joined);
    $("rematch").hidden = mine === null || tokenless || nobodyCame;
    // Asking again is harmless (the server gives the same seat), but say where it goes.
    $("rematch").textContent = !view.rematch ? "Rematch" : ours ? "Go to the rematch" : offered ? "Join" : "Join the rematch";
    $("rematch-link").hidden = !(view.rematch && (mine === null || tokenless));
    if (view.rematch) $("rematch-link").href = `/g/${view.rematch}`;
    $("rematch-offer").hidden = !offered;
    if (offered) $("rematch-offer").textContent = `${view.players[by - 1].name} wants a rematch${mine === null ? "." : ":"}`;
  }

  // Makes the board unplayable until the next render: while a move is on its way to
  // the server and while a sowing is animated.
  lock(status) {
    for (const b of document.querySelectorAll("#board button.house")) {
      b.disabled = true;
      b.classList.remove("legal");
    }
    BoardFocus.restore();
    if (status) $("status").textContent = status;
  }

  // ------------------------------------------------------------ animation

  async animate(prev, view) {
    const lm = view.last_move;
    this.lock(`${this.nameOf(view, lm.seat)} ${this.verb(view, lm.seat, "sow", "sows")} house ${lm.house}…`);
    const counts = {};
    for (const seat of [1, 2]) {
      prev.houses[seat - 1].forEach((n, i) => { counts[`h${seat}-${i + 1}`] = n; });
      counts[`s${seat}`] = prev.stores[seat - 1];
    }
    const mover = `s${lm.seat}`;
    const flash = (id, cls) => {
      const el = $(id);
      if (!el) return;
      el.classList.remove(cls);
      void el.offsetWidth;
      el.classList.add(cls);
    };
    for (const step of lm.steps) {
      if (step.op === "lift") counts[step.pit] = 0;
      else if (step.op === "drop") counts[step.pit] += 1;
      else { counts[step.pit] -= step.seeds; counts[mover] += step.seeds; flash(mover, "pulse"); }
      this.setCount(step.pit, counts[step.pit]);
      this.setCount(mover, counts[mover]);
      // A seed sown into a claimed house goes to its owner's store, the mover's or
      // not: the claimed house it passed flashes with it.
      const passed = step.op === "drop" && step.pit[0] === "s" ? this.claimedBy(prev, Number(step.pit.slice(1))) : null;
      if (passed) flash(passed, "pulse");
      flash(step.pit, step.op === "capture" ? "captured" : "pulse");
      await sleep(step.op === "drop" ? stepDelay() : stepDelay() * 2);
    }
  }

  // The pit id of the house that `owner` has claimed in `view`, if any.
  claimedBy(view, owner) {
    const house = view.claimed && view.claimed[owner - 1];
    return house ? `h${3 - owner}-${house}` : null;
  }

  // ------------------------------------------------------------ actions

  async play(house) {
    const view = this.shown;
    if (!view || this.sending || !this.seat || this.pending) return;
    if (view.over || view.to_move !== this.seat.seat || !view.legal_moves.includes(house)) return;
    BoardFocus.play(house);
    await this.send({ house, ply: view.ply });
  }

  // Sends a move. One that cannot reach the server is kept, said so on the page, and
  // sent when the connection is back (the ply makes sure it still fits the game).
  async send(move) {
    this.sending = true;
    this.lock("Sowing…");
    $("message").textContent = "";
    try {
      const next = await api("POST", `/api/games/${this.id}/moves`, move, this.seat.token);
      this.pending = null;
      this.receive(next);
    } catch (err) {
      this.sending = false;
      if (err.status === undefined) {
        this.pending = move;
        $("message").textContent = `Your move (house ${move.house}) could not be sent: it will be sent when the connection is back.`;
        // The live connection may not have noticed yet; if it has not, ask again soon.
        if (document.body.dataset.live === "open") setTimeout(() => this.sendPending(), 3000);
        else this.setOnline(false);
        this.render(this.shown);
        return;
      }
      this.pending = null;
      if (err.status === 409) this.receive(await api("GET", `/api/games/${this.id}`));
      else {
        $("message").textContent = err.message;
        this.render(this.shown);
      }
    } finally {
      this.sending = false;
    }
  }

  // The connection is back: the kept move goes, if the game is still where it was.
  sendPending() {
    const move = this.pending;
    if (!move || this.sending) return;
    if (this.shown && this.shown.ply !== move.ply) {
      this.pending = null;
      $("message").textContent = `Your move (house ${move.house}) was not sent: the game moved on meanwhile.`;
      this.render(this.shown);
      return;
    }
    this.send(move);
  }

  async join() {
    // The dialog's log-in reloads the page, the invite still in its address.
    if (this.shown && this.shown.rated && !Account.me) { $("login-open").click(); return; }
    try {
      const grant = await api("POST", `/api/games/${this.id}/join`, { invite: this.invite, ...Play.joinOptions() });
      saveSeat(this.id, grant.seat, grant.token);
      this.seat = { seat: grant.seat, token: grant.token };
      this.invite = null;
      // The secret has done its work: keep it out of the address bar and history.
      history.replaceState(null, "", location.pathname);
      this.boardKey = null;
      this.render(await api("GET", `/api/games/${this.id}`));
    } catch (err) {
      $("message").textContent = capitalised(err.message);
    }
  }

  async rematch() {
    try {
      const grant = await api("POST", `/api/games/${this.id}/rematch`, undefined, this.seat.token);
      saveSeat(grant.id, grant.seat, grant.token);
      location.assign(`/g/${grant.id}`);
    } catch (err) {
      $("message").textContent = err.message;
    }
  }

  onKey(e) {
    if (e.target instanceof HTMLInputElement || e.target instanceof HTMLSelectElement) return;
    const n = Number(e.key);
    if (Number.isInteger(n) && n >= 1 && n <= 9) this.play(n);
  }
}

// ---------------------------------------------------------------- routing

// The replay viewer (/g/ID/replay) is replay.js's; the home page's lists lobby.js's.
const match = location.pathname.match(/^\/g\/([A-Za-z0-9_-]+)$/);
if (match) new GamePage(match[1]).start();
else if (location.pathname === "/") showHome();
