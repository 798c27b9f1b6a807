// Keyboard play on the game page (issue 53): the focus stays on the board. A house
// played with Enter is disabled while its move is sown and the opponent answers, and a
// disabled button loses the focus to the page, so that the next move needed six Tabs
// through the header again. After each drawing of the board the focus, if it was on
// the board, goes back to it: to the house just played if it is legal again, else to
// the next legal house after it, else (while nothing can be played) to the board
// itself, from which the next drawing moves it to a house. app.js calls in through
// `BoardFocus`.
"use strict";

const BoardFocus = (() => {
  let board = null;
  let wanted = false; // whether the person's focus belongs on the board
  let played = 1;     // the house last played

  // Follows where the focus and the pointer go: onto the board or away from it.
  function setup(boardElement) {
    board = boardElement;
    board.tabIndex = -1;
    document.addEventListener("focusin", (e) => { wanted = board.contains(e.target); });
    document.addEventListener("pointerdown", (e) => { wanted = board.contains(e.target); });
  }

  // A house of the person's row was played.
  function play(house) { played = house; }

  // Puts the focus back on the board if it was there and has been lost.
  function restore() {
    if (!board || !wanted) return;
    const active = document.activeElement;
    const kept = active && active !== board && board.contains(active) && !active.disabled;
    if (kept && active.classList.contains("legal")) return;
    const legal = [...board.querySelectorAll("button.house.legal:not(:disabled)")]
      .sort((a, b) => a.dataset.house - b.dataset.house);
    const next = legal.find((b) => Number(b.dataset.house) >= played) || legal[0];
    if (next) next.focus({ preventScroll: true });
    else if (!kept) board.focus({ preventScroll: true });
  }

  return { setup, play, restore };
})();
