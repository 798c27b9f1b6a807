// Accounts in the browser, all optional: the log-in and sign-up dialog, the header's
// account links, moving this browser's games to the account when the player logs in,
// the profile page (/@/NAME) and the leaderboard (/leaderboard). The session is an
// HttpOnly cookie the scripts cannot read; the name of the account logged in here is
// kept in localStorage only to know whether to ask the server who it is (a visitor
// without an account never gets a 401 in the console).
"use strict";

const Account = (() => {
  const NAME_KEY = "mancala:account";
  let me = null;

  // Who is logged in here, asked once per page: the account, or null.
  const ready = (async () => {
    if (!localStorage.getItem(NAME_KEY)) return null;
    try {
      me = await api("GET", "/api/me");
    } catch (err) {
      // Logged out elsewhere, or the session ran out.
      if (err.status === 401) localStorage.removeItem(NAME_KEY);
      me = null;
    }
    return me;
  })();

  const profileHref = (name) => `/@/${encodeURIComponent(name)}`;

  function showNav() {
    $("login-open").hidden = !!me;
    $("me-link").hidden = !me;
    $("logout").hidden = !me;
    if (me) {
      $("me-link").textContent = me.name;
      $("me-link").href = profileHref(me.name);
    }
    showRated();
    // Logged in, a game is played under the account's name: the form's name is not asked.
    const name = $("player-name");
    if (name) name.closest("label").hidden = !!me;
  }

  // The home form's "Rated" box: for a game against a friend, logged in.
  function showRated() {
    const row = $("rated-row");
    if (!row) return;
    row.hidden = !(me && $("against-friend").checked);
    if (row.hidden) $("rated").checked = false;
  }

  // This browser's seats, to move to the account: every game played here.
  function localSeats() {
    const seats = [];
    for (let i = 0; i < localStorage.length; i++) {
      const m = localStorage.key(i).match(/^mancala:seat:(.+)$/);
      const seat = m && loadSeat(m[1]);
      if (seat && seat.token) seats.push({ game: m[1], token: seat.token });
    }
    return seats.slice(0, 100);
  }

  const dialogError = (text) => { $("account-error").textContent = text; };

  // Why the dialog's request was refused, as a sentence: with how long to wait when
  // the server says (too many log-in attempts).
  function refusal(err) {
    const text = capitalised(err.message);
    if (!err.retryAfter) return text;
    const s = err.retryAfter;
    const wait = s < 90 ? `${s} second${s === 1 ? "" : "s"}` : `${Math.ceil(s / 60)} minutes`;
    return `${text} (in ${wait}).`;
  }

  async function submit(e) {
    e.preventDefault();
    const signUp = e.submitter && e.submitter.value === "signup";
    const body = { username: $("account-username").value.trim(), password: $("account-password").value };
    dialogError("");
    for (const b of $("account-form").querySelectorAll("button")) b.disabled = true;
    try {
      const account = await api("POST", signUp ? "/api/accounts" : "/api/session", body);
      localStorage.setItem(NAME_KEY, account.name);
      const seats = localSeats();
      // The games played here become the account's; a failure leaves them as they were.
      if (seats.length) await api("POST", "/api/me/games/claim", { seats }).catch(() => null);
      location.reload();
    } catch (err) {
      dialogError(err.status === 401 ? "Wrong username or password." : refusal(err));
      for (const b of $("account-form").querySelectorAll("button")) b.disabled = false;
    }
  }

  async function logOut() {
    try { await api("DELETE", "/api/session"); } catch { /* gone already */ }
    localStorage.removeItem(NAME_KEY);
    location.reload();
  }

  function setupNav() {
    const dialog = $("account-dialog");
    $("login-open").addEventListener("click", () => {
      dialogError("");
      dialog.showModal();
      $("account-username").focus();
    });
    $("account-cancel").addEventListener("click", () => dialog.close());
    $("account-form").addEventListener("submit", submit);
    $("logout").addEventListener("click", logOut);
    $("profile-logout").addEventListener("click", logOut);
    for (const id of ["against-friend", "against-computer"]) {
      const radio = $(id);
      if (radio) radio.addEventListener("change", showRated);
    }
    ready.then(showNav);
  }

  // "1500?" for a provisional rating.
  const shown = (r, value = r.rating) => `${value}${r.provisional ? "?" : ""}`;

  // A rating pool's name: the variant's, with the board when it is not the standard one.
  function poolName(pool) {
    const [key, board] = pool.split(/-(?=\d+x\d+$)/);
    const name = Catalogue.variant(key).name;
    return board ? `${name} ${board.replace("x", "×")}` : name;
  }

  // A game's rating pool: its variant's key, with the board when it is not the
  // standard one (as the server names pools).
  function poolOf(view) {
    const v = Catalogue.variant(view.variant);
    const standard = view.rules.houses === v.default_houses && view.rules.seeds === v.default_seeds;
    return standard ? view.variant : `${view.variant}-${view.rules.houses}x${view.rules.seeds}`;
  }

  const users = new Map(); // an account's name → its profile (a promise), once a page
  const signed = (n) => (n > 0 ? "+" : n < 0 ? "−" : "±") + Math.abs(n);

  // Each seat's rating in a rated game, as its panel shows it beside the name (as
  // lichess does): the rating the account has in the game's pool ("1500?" while it has
  // none), and once the game is rated the new one and the change ("1512? +12"); ""
  // for a seat without an account and in a game that is not rated.
  async function seatRatings(view) {
    if (!view.rated) return ["", ""];
    return Promise.all(view.players.map(async (p) => {
      if (p.rating) return `${shown(p.rating, p.rating.after)} ${signed(p.rating.change)}`;
      if (!p.account) return "";
      if (!users.has(p.account)) users.set(p.account, api("GET", `/api/users/${encodeURIComponent(p.account)}`).catch(() => null));
      const user = await users.get(p.account);
      if (!user) return "";
      const r = user.ratings[poolOf(view)];
      return r ? shown(r) : "1500?";
    }));
  }

  // What a rated game did to each player's rating, for the game-over panel.
  function ratingLine(view) {
    const changes = view.players.filter((p) => p.rating);
    if (changes.length === 0) return view.rated && view.over && view.result ? "Rating…" : "";
    return changes.map((p) => {
      const c = p.rating;
      const sign = c.change > 0 ? "+" : c.change < 0 ? "−" : "±";
      return `${p.name} ${c.after}${c.provisional ? "?" : ""} (${sign}${Math.abs(c.change)})`;
    }).join(" · ");
  }

  // A seat's name as text inside a link or a line: an account's marked (see the
  // style's .account-name), anyone else's plain.
  function markedName(player, fallback = player.name) {
    if (!player.account) return document.createTextNode(fallback);
    const span = document.createElement("span");
    span.className = "account-name";
    span.title = `${player.name} plays with an account`;
    span.textContent = player.name;
    return span;
  }

  // A seat's name, linked to the profile and marked when an account holds it (an
  // account's name is its owner's alone: nobody else can play under it).
  function nameNode(player) {
    if (!player.account) return document.createTextNode(player.name);
    const a = document.createElement("a");
    a.href = profileHref(player.name);
    a.textContent = player.name;
    a.className = "account-name";
    a.title = `${player.name} plays with an account`;
    return a;
  }

  // How a game in a list went for `seat`.
  function stateFor(g) {
    if (g.over) return g.winner === null ? "a draw" : g.winner === g.seat ? "won" : "lost";
    if (!g.started) return "waiting for an opponent";
    return g.to_move === g.seat ? "your turn" : "their turn";
  }

  function gameItem(g, who) {
    const other = g.players[2 - g.seat];
    const li = document.createElement("li");
    const a = document.createElement("a");
    a.href = `/g/${g.id}`;
    a.append(`${describeRules(g)} against `, markedName(other), `: ${who(g)}`);
    li.append(a);
    return li;
  }

  async function showProfile(name) {
    $("profile").hidden = false;
    await ready;
    document.title = `${name}: Mancala`;
    await Catalogue.load().catch(() => null);
    let user;
    try {
      user = await api("GET", `/api/users/${encodeURIComponent(name)}`);
    } catch (err) {
      $("profile-name").textContent = name;
      $("profile-meta").textContent = err.message;
      return;
    }
    document.title = `${user.name}: Mancala`;
    // One's own profile offers to log out (on a phone the header has no room for it).
    $("profile-logout").hidden = !(me && me.name === user.name);
    $("profile-name").textContent = user.name;
    $("profile-bot").hidden = !user.bot;
    const since = new Date(user.created_at * 1000).toLocaleDateString();
    $("profile-meta").textContent = `Playing here since ${since}.`;
    const pools = Object.entries(user.ratings);
    $("profile-ratings-empty").hidden = pools.length > 0;
    $("profile-ratings").hidden = pools.length === 0;
    $("profile-ratings-body").replaceChildren(...pools.map(([pool, r]) => {
      const tr = document.createElement("tr");
      for (const text of [poolName(pool), shown(r), String(r.rd), String(r.games)]) {
        const td = document.createElement("td");
        td.textContent = text;
        tr.append(td);
      }
      return tr;
    }));
    const outcome = (g) => (stateFor(g) === "your turn" ? `${user.name} to move` : stateFor(g));
    $("profile-games").replaceChildren(...user.games.map((g) => gameItem(g, outcome)));
    $("profile-games-empty").hidden = user.games.length > 0;
    if (me && me.name === user.name) showSettings();
    Challenges.offerOn(user);
  }

  // ------------------------------------------------------- one's own account's safety

  const when = (s) => (s === null ? "unknown" : new Date(s * 1000).toLocaleString());

  // A session or token as a list item: when made and last used, and a button.
  function credentialItem(c, what, button) {
    const li = document.createElement("li");
    const here = c.current ? " (this browser)" : "";
    li.append(`${what}${here}: since ${when(c.created_at)}, last used ${when(c.last_used_at)} `);
    if (button) li.append(button);
    return li;
  }

  async function fillCredentials() {
    const [{ sessions }, { tokens }] = await Promise.all([
      api("GET", "/api/me/sessions"),
      api("GET", "/api/me/tokens"),
    ]);
    $("sessions-list").replaceChildren(...sessions.map((c) => credentialItem(c, "Session")));
    $("tokens-list").replaceChildren(...tokens.map((t) => {
      const revoke = document.createElement("button");
      revoke.type = "button";
      revoke.textContent = "Revoke";
      revoke.addEventListener("click", async () => {
        revoke.disabled = true;
        await api("DELETE", `/api/me/tokens/${encodeURIComponent(t.id)}`).catch(() => null);
        await fillCredentials();
      });
      return credentialItem(t, `Token ${t.id}`, revoke);
    }));
    $("tokens-empty").hidden = tokens.length > 0;
  }

  function showSettings() {
    $("settings-card").hidden = false;
    fillCredentials().catch(() => null);
    $("password-form").addEventListener("submit", async (e) => {
      e.preventDefault();
      const status = $("password-status");
      try {
        const done = await api("POST", "/api/me/password", {
          current: $("password-current").value,
          new: $("password-new").value,
        });
        status.textContent = done.message;
        $("password-form").reset();
      } catch (err) {
        status.textContent = err.message;
      }
      await fillCredentials().catch(() => null);
    });
    $("sessions-end").addEventListener("click", async () => {
      await api("DELETE", "/api/me/sessions").catch(() => null);
      location.href = "/";
    });
  }

  async function showLeaders() {
    $("leaders").hidden = false;
    document.title = "Leaderboard: Mancala";
    await Catalogue.load().catch(() => null);
    const select = $("leaders-pool");
    const wanted = new URLSearchParams(location.search).get("variant") || "kalah";
    const pools = Catalogue.list().map((v) => v.key);
    if (!pools.includes(wanted)) pools.push(wanted);
    select.replaceChildren(...pools.map((pool) => new Option(poolName(pool), pool, false, pool === wanted)));
    select.addEventListener("change", () => {
      history.replaceState(null, "", `/leaderboard?variant=${encodeURIComponent(select.value)}`);
      fillLeaders(select.value);
    });
    await fillLeaders(wanted);
  }

  async function fillLeaders(pool) {
    $("leaders-error").textContent = "";
    let players = [];
    try {
      ({ players } = await api("GET", `/api/leaderboard?variant=${encodeURIComponent(pool)}`));
    } catch (err) {
      $("leaders-error").textContent = err.message;
    }
    $("leaders-list").replaceChildren(...players.map((p) => {
      const li = document.createElement("li");
      const a = document.createElement("a");
      a.href = profileHref(p.name);
      a.textContent = p.name;
      li.append(a, ` ${p.rating}${p.bot ? " (bot)" : ""}, ${p.games} games`);
      return li;
    }));
    $("leaders-empty").hidden = players.length > 0;
  }

  return {
    ready,
    get me() { return me; },
    setupNav,
    ratingLine,
    seatRatings,
    nameNode,
    markedName,
    stateFor,
    gameItem,
    showProfile,
    showLeaders,
  };
})();

Account.setupNav();
{
  const profile = location.pathname.match(/^\/@\/([^/]+)$/);
  if (profile) Account.showProfile(decodeURIComponent(profile[1]));
  else if (location.pathname === "/leaderboard") Account.showLeaders();
}
