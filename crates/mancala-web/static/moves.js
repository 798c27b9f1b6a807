// The game page's move list (moves.js, a base of app.js's GamePage): the moves in
// numbered turns under the players' names, each in the record notation with its words
// for screen readers, scrolled within itself so that its top row is whole.
"use strict";

class MoveList extends LiveGame {
  // One move in the record notation (docs/records.md): the house, `x` after a capture,
  // `+` when the same player moves again.
  static moveText(m) {
    return `${m.house}${m.captured ? "x" : ""}${m.again ? "+" : ""}`;
  }

  moveWords(view, m) {
    const notes = [];
    if (m.captured) notes.push(`captures ${m.captured}`);
    if (m.claim) notes.push(`claims a ${Catalogue.claimWord(view.variant)} on house ${m.claim}`);
    if (m.again) notes.push("moves again");
    return [`${this.nameOf(view, m.seat)}: house ${m.house}`, ...notes].join(", ");
  }

  // The moves in numbered turns, as records number them: a move of player 1 after one
  // of player 2 opens the next number, and a player's moves in a row share it. The
  // numbers are text in a column of their own, so no width cuts them (the list's
  // markers used to sit outside its scrolling box, which clipped "10." to "l0.").
  renderHistory(view) {
    const box = $("history");
    const key = `${view.history.length}:${view.over}`;
    if (box.dataset.key === key) return;
    box.dataset.key = key;
    box.innerHTML = "";
    // The columns' heads: whose moves each holds (the players' names, as text).
    const heads = document.createElement("div");
    heads.className = "heads";
    heads.append(document.createElement("span"), ...[1, 2].map((seat) => {
      const head = document.createElement("span");
      head.textContent = this.nameOf(view, seat);
      return head;
    }));
    box.append(heads);
    let round = null;
    let number = 0;
    let previous = 2;
    view.history.forEach((m, ply) => {
      if (!round || (m.seat === 1 && previous === 2)) {
        number += 1;
        round = document.createElement("div");
        // The first turn, when player 2 moved first, shows "…" for player 1's move.
        round.className = number === 1 ? "round opening" : "round";
        const num = document.createElement("span");
        num.className = "num";
        num.textContent = `${number}.`;
        round.append(num, document.createElement("ol"), document.createElement("ol"));
        box.append(round);
      }
      const li = document.createElement("li");
      li.textContent = MoveList.moveText(m);
      li.title = this.moveWords(view, m);
      li.setAttribute("aria-label", li.title);
      li.dataset.ply = ply + 1;
      li.dataset.seat = m.seat;
      round.children[m.seat].append(li);
      previous = m.seat;
    });
    if (view.over && view.result) {
      const end = document.createElement("div");
      end.className = "round result-mark";
      const w = view.result.winner;
      end.textContent = w === 1 ? "1-0" : w === 2 ? "0-1" : "½-½";
      end.title = view.end ? view.end.text : "";
      box.append(end);
    }
    // The end of the list in sight, its top row whole (not cut in half).
    MoveList.showRow(box, box.lastElementChild);
  }

  // Scrolls the list `box` (and nothing else) so that its row `row` is in sight and
  // the top of the box falls on a row's edge.
  // (The box is positioned: its rows' offsets are from its top.)
  static showRow(box, row) {
    if (!row) return;
    box.style.paddingBottom = "";
    const top = row.offsetTop;
    const bottom = top + row.offsetHeight;
    let scroll = box.scrollTop;
    if (top < scroll) scroll = top;
    else if (bottom > scroll + box.clientHeight) scroll = bottom - box.clientHeight;
    // Down to the first row that starts at or below that point, so none is cut; the
    // box gets the room below its last row that this needs.
    const first = [...box.children].find((r) => r.offsetTop >= scroll - 1);
    if (!first || first.offsetTop === 0) { box.scrollTop = first ? 0 : scroll; return; }
    const short = first.offsetTop + box.clientHeight - box.scrollHeight;
    if (short > 0) box.style.paddingBottom = `${short}px`;
    box.scrollTop = first.offsetTop;
  }
}
