// Challenges in the browser, for a person logged in: the challenges sent to them, as a
// notice under the header on every page (Accept opens the new game, Decline says no),
// and on another account's profile the form that challenges it and waits for the
// answer. The notice asks the server every few seconds while the page is visible (an
// event stream would hold one of the six connections a browser gives a site); the
// form follows the account's event stream only while its challenge waits.
"use strict";

const Challenges = (() => {
  const LOOK_EVERY_MS = 8000;

  // "Kalah 4×3, rated, 3+2": the game a challenge asks for.
  function describe(ch) {
    const v = Catalogue.variant(ch.variant);
    const houses = ch.houses ?? v.default_houses;
    const seeds = ch.seeds ?? v.default_seeds;
    let text = `${v.name}${houses && seeds ? ` ${houses}×${seeds}` : ""}`;
    if (ch.rated) text += ", rated";
    const tc = ch.time_control;
    if (tc && tc.per_move_s !== undefined) text += `, ${tc.per_move_s} s a move`;
    else if (tc) text += `, ${tc.initial_s / 60}+${tc.increment_s}`;
    return text;
  }

  const showError = (text) => { $("challenge-error").textContent = text; };

  function button(text, primary, act) {
    const b = document.createElement("button");
    b.type = "button";
    b.textContent = text;
    if (primary) b.className = "primary";
    b.addEventListener("click", async () => {
      b.disabled = true;
      try { await act(); } catch (err) { showError(capitalised(err.message)); }
      b.disabled = false;
      look();
    });
    return b;
  }

  function item(ch) {
    const li = document.createElement("li");
    li.dataset.challenge = ch.id;
    const what = document.createElement("span");
    what.className = "what";
    what.append(Account.nameNode({ name: ch.from, account: ch.from.toLowerCase() }), ` challenges you: ${describe(ch)}`);
    const accept = button("Accept", true, async () => {
      const seat = await api("POST", `/api/challenges/${encodeURIComponent(ch.id)}/accept`);
      saveSeat(seat.id, seat.seat, seat.token);
      location.assign(`/g/${seat.id}`);
    });
    accept.classList.add("accept");
    const decline = button("Decline", false, () =>
      api("POST", `/api/challenges/${encodeURIComponent(ch.id)}/decline`));
    decline.classList.add("decline");
    li.append(what, accept, decline);
    return li;
  }

  // Shows the challenges sent to the person logged in.
  async function look() {
    if (document.hidden) return;
    let list;
    try {
      list = await api("GET", "/api/challenges");
    } catch {
      return; // Logged out meanwhile, or the server is busy: the next look tries again.
    }
    await Catalogue.load().catch(() => null);
    $("challenge-list").replaceChildren(...list.in.map(item));
    $("challenges").hidden = list.in.length === 0;
  }

  async function start() {
    const me = await Account.ready;
    if (!me) return;
    look();
    setInterval(look, LOOK_EVERY_MS);
    document.addEventListener("visibilitychange", look);
  }

  // On the profile of `user` (not one's own), logged in: the form that challenges it.
  async function offerOn(user) {
    const me = await Account.ready;
    if (!me || me.name.toLowerCase() === user.name.toLowerCase()) return;
    await Catalogue.load().catch(() => null);
    const select = $("challenge-variant");
    select.replaceChildren(...Catalogue.list().map((v) => {
      const o = document.createElement("option");
      o.value = v.key;
      o.textContent = v.name;
      return o;
    }));
    const form = $("challenge-form");
    form.hidden = false;
    form.addEventListener("submit", (e) => {
      e.preventDefault();
      send(user.name);
    });
  }

  const status = (text) => { $("challenge-status").textContent = text; };

  // Sends the challenge and waits for its answer on the account's event stream (opened
  // first, so that a quick answer is not missed).
  function send(to) {
    const sendButton = $("challenge-send");
    const cancel = $("challenge-cancel");
    sendButton.disabled = true;
    const events = new EventSource("/api/stream/event");
    let id = null;
    const done = (text) => {
      events.close();
      status(text);
      sendButton.disabled = false;
      cancel.hidden = true;
    };
    events.onmessage = (m) => {
      const ev = JSON.parse(m.data);
      if (ev.type === "gameStart" && id && ev.game.players.some((p) => p.account === to.toLowerCase())) {
        events.close();
        location.assign(`/g/${ev.game.id}`);
      } else if (ev.type === "challengeDeclined" && ev.challenge.id === id) {
        done(`${to} declined${ev.reason ? `: ${ev.reason}` : "."}`);
      } else if (ev.type === "challengeCanceled" && ev.challenge.id === id) {
        done("Challenge withdrawn.");
      }
    };
    events.onerror = () => {
      // Refused (too many streams, logged out): the browser does not try again.
      if (events.readyState === EventSource.CLOSED && !id) done("The challenge could not be sent: try again.");
    };
    events.onopen = async () => {
      if (id) return; // A reconnection: the challenge is out already.
      const body = { to, variant: $("challenge-variant").value, rated: $("challenge-rated").checked };
      try {
        const ch = await api("POST", "/api/challenges", body);
        id = ch.id;
        status(`Challenge sent to ${to}: waiting for an answer (it expires in 10 minutes).`);
        cancel.hidden = false;
        cancel.onclick = () => api("DELETE", `/api/challenges/${encodeURIComponent(id)}`).catch((err) => status(capitalised(err.message)));
      } catch (err) {
        done(capitalised(err.message));
      }
    };
  }

  return { start, offerOn };
})();

Challenges.start();
