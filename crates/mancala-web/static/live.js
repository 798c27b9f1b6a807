// Following a game live (live.js), for the game page (app.js's GamePage, which extends
// it): over one WebSocket, or server-sent events where WebSockets cannot pass; a
// banner while the connection is lost, the page's kept move sent once it is back, and
// a plain word when the server refuses the stream. Every view that arrives goes to
// the page's `receive`.
"use strict";

class LiveGame {
  constructor() {
    this.online = true; // whether the live connection is up
  }

  // Follows the game over one WebSocket. The server closes it after the game's last
  // view (the one that brings the rematch, or none after a while); any other close (a
  // restart, a lost network) is retried after a pause, under a banner that says so. A
  // browser that cannot open WebSockets here (a proxy in the way) uses server-sent
  // events instead. Either way the tab holds one connection at most, and none once the
  // server has ended it: browsers allow a site only six open event streams over HTTP/1.1,
  // shared by all its tabs, which a page per game would soon use up.
  connect(attempt = 0) {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const socket = new WebSocket(`${scheme}://${location.host}/api/games/${this.id}/ws`);
    let opened = false;
    this.setLive("connecting");
    socket.onopen = () => { opened = true; this.setLive("open"); this.setOnline(true); };
    socket.onmessage = (e) => this.receive(JSON.parse(e.data));
    socket.onclose = async (e) => {
      this.setLive("closed");
      document.body.dataset.liveEnd = `${e.code} ${e.reason}`;
      if (this.shown && this.shown.over) return;
      // A socket refused before it opened says nothing of why: ask the same of the
      // event stream, whose refusal does (the per-client cap, a game gone).
      if (!opened && await this.refused()) return;
      this.setOnline(false);
      if (!opened && attempt >= 1) { this.connectEvents(); return; }
      this.reconnect(() => this.connect(opened ? 0 : attempt + 1));
    };
  }

  // Whether the server refuses this page a live stream; if so the page says why in
  // plain words and asks again later. A stream it grants is closed at once.
  async refused() {
    const stop = new AbortController();
    let res;
    try {
      res = await fetch(`/api/games/${this.id}/live`, { signal: stop.signal });
    } catch {
      return false; // No answer at all: the connection is lost.
    }
    stop.abort();
    if (res.status === 404) { this.fatal("There is no such game (any more)."); return true; }
    if (res.status !== 429 && res.status !== 503) return false;
    const wait = Number(res.headers.get("Retry-After")) || 10;
    this.showBanner("Live updates are paused: this browser follows too many games at once. " +
      "Close some game tabs; this page tries again by itself.", "refused");
    await sleep(wait * 1000);
    this.connect();
    return true;
  }

  // The banner over the game: `text`, or none. Its kind is kept on the body for tests.
  showBanner(text, kind) {
    $("conn-banner").textContent = text || "";
    $("conn-banner").hidden = !text;
    document.body.dataset.banner = text ? kind : "";
  }

  // The connection lost (a banner; moves are kept until it is back) or back again
  // (the banner goes, a kept move is sent).
  setOnline(online) {
    const back = online && !this.online;
    this.online = online;
    if (!online) this.showBanner("Connection lost. Reconnecting…", "offline");
    else if (document.body.dataset.banner) this.showBanner(null);
    if (back && this.pending) this.sendPending();
  }

  connectEvents() {
    const source = new EventSource(`/api/games/${this.id}/live`);
    this.setLive("connecting");
    source.onopen = () => { this.setLive("open"); this.setOnline(true); };
    source.addEventListener("game", (e) => {
      const view = JSON.parse(e.data);
      this.receive(view);
      // A finished game's stream stays open for its rematch, then ends.
      if (view.over && view.rematch) { source.close(); this.setLive("closed"); }
    });
    source.onerror = () => {
      if (this.shown && this.shown.over) { source.close(); return; }
      this.setOnline(false);
      if (source.readyState === EventSource.CLOSED) {
        this.setLive("closed");
        this.reconnect(() => this.connectEvents());
      }
    };
  }

  // Tries again after a pause, unless the game is gone (expired or never existed).
  async reconnect(again) {
    await sleep(2000 + Math.random() * 3000);
    try { await api("GET", `/api/games/${this.id}`); } catch (err) {
      if (err.status === 404) { this.fatal("There is no such game (any more)."); return; }
    }
    again();
  }

  // The state of the live connection, on the page for tests and curious people.
  setLive(state) { document.body.dataset.live = state; }

  fatal(text) {
    $("status").textContent = text;
    $("board-wrap").hidden = true;
  }
}
