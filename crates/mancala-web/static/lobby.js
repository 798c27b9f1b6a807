// The home page's ways into a game: one click to play the computer or a friend, the
// open public games (the lobby, one click joins), the public games being played (to
// watch), this browser's own games (the seats kept in localStorage, those where it is
// your turn first), and loading a game record. The lists follow the server by asking
// again every few seconds while the page is visible.
"use strict";

// How often the public lists are asked for again, and this browser's games (one read
// each, so less often: the reads of a client are rate-limited).
const LIST_EVERY_MS = 4000;
const MY_GAMES_EVERY_MS = 20000;
// The most of this browser's games the home page looks up.
const MY_GAMES_SHOWN = 20;

// "Kalah 6×4" (the variant's name as the server gives it) and the rule options that
// differ from the variant's defaults. A game of one's own rules comes with its entry
// (`game`), which no list of variants has: learned first, so that it is named by its
// name, not its key.
function describeRules(game) {
  Catalogue.learn(game);
  const r = game.rules;
  let text = `${Catalogue.variant(game.variant).name} ${r.houses}×${r.seeds}`;
  for (const changed of Catalogue.changedOptions(game.variant, r)) text += `, ${changed}`;
  if (game.rated) text += ", rated";
  const tc = game.time_control;
  if (tc && tc.per_move_s !== undefined) {
    const days = tc.per_move_s / 86400;
    text += Number.isInteger(days) ? `, ${days} day${days === 1 ? "" : "s"} a move` : `, ${tc.per_move_s} s a move`;
  } else if (tc) {
    text += `, ${tc.initial_s / 60}+${tc.increment_s}`;
  }
  return text;
}

// Who plays a seat, as a list shows it (names are text, never markup; an account's
// marked as one).
function seatName(game, seat) {
  const p = game.players[seat - 1];
  return Account.markedName(p, p.name || `Player ${seat}`);
}

// A list item linking to `href`: `parts` are text and nodes (marked names).
function listItem(parts, href, action) {
  const li = document.createElement("li");
  const a = document.createElement("a");
  a.href = href;
  a.append(...[parts].flat());
  li.append(a);
  if (action) li.append(action);
  return li;
}

// Fills list `listId` with `items`, or shows its empty note.
function fill(listId, emptyId, items) {
  $(listId).replaceChildren(...items);
  if (emptyId) $(emptyId).hidden = items.length > 0;
}

async function refreshLobby() {
  const { games } = await api("GET", "/api/lobby");
  fill("lobby-list", "lobby-empty", games.filter((g) => !loadSeat(g.id)).map((g) => {
    const join = document.createElement("button");
    join.type = "button";
    join.className = "primary join";
    join.textContent = "Join";
    join.dataset.game = g.id;
    join.addEventListener("click", () => joinListed(g, join));
    return listItem([`${describeRules(g)} against `, seatName(g, 1)], `/g/${g.id}`, join);
  }));
}

async function joinListed(game, button) {
  button.disabled = true;
  try {
    // The name kept in this browser, as the invite link's Join sends it.
    const grant = await api("POST", game.join, Play.joinOptions());
    saveSeat(game.id, grant.seat, grant.token);
    location.assign(`/g/${game.id}`);
  } catch (err) {
    button.disabled = false;
    $("form-error").textContent = `Joining failed: ${err.message}`;
    refreshLobby();
  }
}

async function refreshWatch() {
  const { games } = await api("GET", "/api/watch");
  fill("watch-list", "watch-empty", games.map((g) => {
    // The seeds banked so far, in words: "0–1" read like a result.
    const score = `${g.stores[0]} and ${g.stores[1]} seeds banked`;
    return listItem([seatName(g, 1), " vs ", seatName(g, 2), `, ${describeRules(g)}, move ${g.ply}, ${score}`], `/g/${g.id}`);
  }));
}

// This browser's seats, the newest first.
function mySeats() {
  const seats = [];
  for (let i = 0; i < localStorage.length; i++) {
    const key = localStorage.key(i);
    const m = key && key.match(/^mancala:seat:(.+)$/);
    const seat = m && loadSeat(m[1]);
    if (seat) seats.push({ id: m[1], ...seat });
  }
  return seats.sort((a, b) => (b.at || 0) - (a.at || 0)).slice(0, MY_GAMES_SHOWN);
}

// How a finished game went for `seat`. An aborted game has no result (`result` is
// null): it was called off.
function outcomeFor(view, seat) {
  if (!view.result) return view.end && view.end.reason === "aborted" ? "aborted" : "over";
  const winner = view.result.winner;
  return winner === null ? "a draw" : winner === seat ? "you won" : "you lost";
}

// A logged-in player's games come from the server: the same on every device.
async function refreshAccountGames() {
  const { games } = await api("GET", `/api/me/games?limit=${MY_GAMES_SHOWN}`);
  const ranked = games.map((g) => {
    const mine = !g.over && g.started && g.to_move === g.seat;
    return { g, mine, rank: g.over ? 2 : mine ? 0 : 1 };
  });
  ranked.sort((a, b) => a.rank - b.rank);
  const state = (g) => { const s = Account.stateFor(g); return s === "won" ? "you won" : s === "lost" ? "you lost" : s; };
  const items = ranked.map(({ g, mine }) => {
    const li = Account.gameItem(g, state);
    li.classList.toggle("my-turn", mine);
    li.classList.toggle("finished", g.over);
    return li;
  });
  showMyGames(items, ranked.filter((r) => r.mine).length);
}

// Fills "Your games", and marks the tab when some wait for the player.
function showMyGames(items, waiting) {
  fill("my-games-list", null, items);
  $("my-games").hidden = items.length === 0;
  document.title = waiting ? `(${waiting}) Mancala: your turn` : "Mancala";
  document.querySelector('link[rel="icon"]').setAttribute("href", waiting ? "/favicon-turn.svg" : "/favicon.svg");
}

async function refreshMyGames() {
  if (await Account.ready) return refreshAccountGames();
  const found = await Promise.all(mySeats().map(async (seat) => {
    try {
      return { seat, view: await api("GET", `/api/games/${seat.id}`) };
    } catch (err) {
      // Expired: the seat is no use any more.
      if (err.status === 404) localStorage.removeItem(seatKey(seat.id));
      return null;
    }
  }));
  const games = found.filter(Boolean).map(({ seat, view }) => {
    const mine = !view.over && view.started && view.to_move === seat.seat;
    let state;
    if (view.over) state = outcomeFor(view, seat.seat);
    else if (!view.started) state = "waiting for an opponent";
    else state = mine ? "your turn" : "their turn";
    return { seat, view, mine, rank: view.over ? 2 : mine ? 0 : 1, state };
  });
  games.sort((a, b) => a.rank - b.rank);
  const items = games.map(({ seat, view, mine, state }) => {
    const other = seatName(view, 3 - seat.seat);
    const li = listItem([`${describeRules(view)} against `, other, `: ${state}`], `/g/${view.id}`);
    li.classList.toggle("my-turn", mine);
    li.classList.toggle("finished", view.over);
    return li;
  });
  showMyGames(items, games.filter((g) => g.mine).length);
}

let myGamesAt = 0;

async function refreshLists() {
  if (document.hidden) return;
  // The variants' names; without them the lists name variants by their keys.
  await Catalogue.load().catch(() => null);
  const lists = [refreshLobby(), refreshWatch()];
  if (Date.now() - myGamesAt >= MY_GAMES_EVERY_MS) {
    myGamesAt = Date.now();
    lists.push(refreshMyGames());
  }
  const results = await Promise.allSettled(lists);
  document.body.dataset.lists = results.every((r) => r.status === "fulfilled") ? "fresh" : "failed";
}

// The quick buttons start a game with the settings as they are (folded away, with
// their defaults unless changed): the computer at the chosen level, or a friend.
function quickStart(computer) {
  $(computer ? "against-computer" : "against-friend").checked = true;
  const form = $("new-game");
  if (!form.checkValidity()) {
    // A setting out of range, folded away: show it and say what is wrong.
    $("settings").open = true;
    form.reportValidity();
    return;
  }
  form.requestSubmit();
}

async function importRecord(e) {
  e.preventDefault();
  $("import-error").textContent = "";
  const file = $("import-file").files[0];
  const record = file ? await file.text() : $("import-text").value;
  const as = $("import-as").value;
  const review = as === "review";
  // To review, nobody takes a side: the record is shown as written.
  const seat = review ? 1 : Number($("import-seat").value);
  try {
    $("import-start").disabled = true;
    const grant = await api("POST", "/api/games/import", { record, opponent: review ? "human" : as, seat });
    // A game loaded to review is nobody's to play on: it stays out of "Your games".
    if (!review) saveSeat(grant.id, grant.seat, grant.token, grant.invite);
    location.assign(review ? `/g/${grant.id}/replay` : `/g/${grant.id}`);
  } catch (err) {
    $("import-error").textContent = err.message;
    $("import-start").disabled = false;
  }
}

if (location.pathname === "/") {
  $("quick-computer").addEventListener("click", () => quickStart(true));
  $("quick-friend").addEventListener("click", () => quickStart(false));
  $("import-form").addEventListener("submit", importRecord);
  $("import-as").addEventListener("change", () => {
    $("import-seat").disabled = $("import-as").value === "review";
  });
  refreshLists();
  setInterval(refreshLists, LIST_EVERY_MS);
  document.addEventListener("visibilitychange", () => { myGamesAt = 0; refreshLists(); });
}
