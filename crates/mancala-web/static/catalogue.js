// What the server plays, as it describes it: the variants (GET /api/variants: names,
// rules, boards, rule options, what the board has) and the computer players menus offer
// (GET /api/players, with the variants each plays). The home page's form is built from
// them, and every page reads a variant's words here (its name, what its stores are
// called, whether a player must feed the other) by the key a game gives: no page
// compares variant names. The lists never change while the server runs (the browser
// may cache them); a page that cannot fetch them says so and offers to try again.
"use strict";

const Catalogue = (() => {
  const $ = (id) => document.getElementById(id);
  let variants = [];
  let players = [];
  let loading = null;

  async function fetchJson(path) {
    const res = await fetch(path);
    if (!res.ok) {
      let text = `${res.status} ${res.statusText}`;
      try { text = (await res.json()).error || text; } catch { /* not JSON */ }
      throw new Error(text);
    }
    return res.json();
  }

  // Both lists, fetched once per page (again after a failure).
  function load() {
    loading ??= Promise.all([fetchJson("/api/variants"), fetchJson("/api/players")])
      .then(([v, p]) => { variants = v.variants; players = p.players; });
    loading.catch(() => { loading = null; });
    return loading;
  }

  // Games of one's own rules, which no list has: each game view of one carries its
  // entry (`game`), learned here as views arrive.
  const own = new Map();
  function learn(view) {
    if (view && view.game) own.set(view.game.key, view.game);
  }

  // The description of variant `key`; without the lists (they could not be fetched),
  // one that names it by its key and says nothing more.
  function variant(key) {
    return variants.find((v) => v.key === key) || own.get(key) ||
      { key, name: key, rules: "", tip: "", options: [], stores: false, must_feed: false, claim_word: null, bank: "captured" };
  }

  // Words for a key or value: "end-rule" reads "end rule".
  const words = (key) => String(key).replaceAll("-", " ");

  // An option's value as a game's rules hold it (a switch is a boolean there).
  function optionValue(option, rules) {
    const v = rules[option.field];
    if (typeof v === "boolean") return option.values[v ? 1 : 0];
    return v ?? option.values[0];
  }

  // The rule options of `rules` that differ from the variant's defaults, in words:
  // ["empty capture on"].
  function changedOptions(key, rules) {
    return variant(key).options
      .filter((o) => optionValue(o, rules) !== o.values[0])
      .map((o) => `${words(o.key)} ${words(optionValue(o, rules))}`);
  }

  // Every option of `rules`, in words: ["empty capture off", "end rule mover cannot move"].
  function allOptions(key, rules) {
    return variant(key).options.map((o) => `${words(o.key)} ${words(optionValue(o, rules))}`);
  }

  // What a player's banked seeds are called: the bank's word, and the same for a
  // screen reader after a possessive ("your store", "Ann's captured seeds").
  function bank(key) {
    const word = variant(key).bank;
    return { word, spoken: word === "captured" ? "captured seeds" : word };
  }

  // What the game calls a claimed house (its description's word), for a game that
  // has them; "claimed house" otherwise.
  const claimWord = (key) => variant(key).claim_word || "claimed house";

  // ------------------------------------------------------------ the home form

  const isSwitch = (o) => o.values.length === 2 && o.values[0] === "off" && o.values[1] === "on";
  const sentence = (s) => s.charAt(0).toUpperCase() + s.slice(1);

  // The rule options of the chosen variant: a switch as a check box, any other as a
  // select of its values (the default first), each labelled by its summary.
  function buildOptions(v) {
    const box = $("rule-options");
    box.replaceChildren(...v.options.map((o) => {
      const label = document.createElement("label");
      const id = `option-${o.key}`;
      if (isSwitch(o)) {
        label.className = "check";
        const input = document.createElement("input");
        input.type = "checkbox";
        input.id = id;
        input.dataset.field = o.field;
        label.append(input, ` ${sentence(o.summary)}`);
      } else {
        const select = document.createElement("select");
        select.id = id;
        select.dataset.field = o.field;
        for (const value of o.values) select.append(new Option(words(value), value));
        label.append(`${sentence(o.summary)} `, select);
      }
      return label;
    }));
    box.hidden = v.options.length === 0;
  }

  // What the form sends for the rule options shown.
  function chosenOptions() {
    const body = {};
    for (const el of $("rule-options").querySelectorAll("[data-field]")) {
      body[el.dataset.field] = el.type === "checkbox" ? el.checked : el.value;
    }
    return body;
  }

  // The computer players of the chosen variant; the choice is kept when it is still
  // offered, else "medium" when offered, else the first.
  function buildLevels(v) {
    const select = $("level");
    const before = select.value || "medium";
    const offered = players.filter((p) => p.variants.includes(v.key));
    select.replaceChildren(...offered.map((p) => new Option(p.name, p.name)));
    const names = offered.map((p) => p.name);
    select.value = names.includes(before) ? before : names.includes("medium") ? "medium" : names[0] || "";
    describeLevel();
  }

  function describeLevel() {
    const p = players.find((q) => q.name === $("level").value);
    const costs = { instant: "moves at once", fraction: "thinks a fraction of a second", second: "thinks about a second a move" };
    $("level-about").textContent = p ? `${sentence(p.summary)}; ${costs[p.cost] || p.cost}.` : "";
  }

  // The board's fields: the variant's limits, and its board unless the player has
  // typed one.
  function setBoard(v) {
    for (const [id, max, value] of [["houses", v.max_houses, v.default_houses], ["seeds", v.max_seeds, v.default_seeds]]) {
      const input = $(id);
      input.max = String(max);
      if (input.dataset.edited !== "yes") input.value = String(value);
    }
  }

  // The chosen variant's rules, in the "How to play" card.
  function describeVariant(v) {
    $("help-title").textContent = `How to play ${v.name}`;
    $("help-rules").textContent = v.rules;
    $("help-tip").textContent = v.tip ? `Tip: ${v.tip}.` : "";
  }

  function chooseVariant() {
    const v = variant($("variant").value);
    setBoard(v);
    buildOptions(v);
    buildLevels(v);
    describeVariant(v);
  }

  // Continuing a loaded record against the computer: the players that play every
  // variant (the record's is not known before the server reads it).
  function buildImportLevels() {
    const select = $("import-as");
    const keys = variants.map((v) => v.key);
    const anywhere = players.filter((p) => keys.every((k) => p.variants.includes(k)));
    const before = select.value;
    for (const o of [...select.options]) if (o.dataset.computer) o.remove();
    const human = select.querySelector('option[value="human"]');
    for (const p of anywhere) {
      const option = new Option(`continue against the computer (${p.name})`, p.name);
      option.dataset.computer = "yes";
      select.insertBefore(option, human);
    }
    // The choice made while the list was loading stands; else medium.
    const chosen = [...select.options].some((o) => o.value === before) && select.dataset.chosen === "yes";
    select.value = chosen ? before : anywhere.some((p) => p.name === "medium") ? "medium" : before;
  }

  // Folded as the server folds a game's names for `search`: lower case, accents off.
  const fold = (text) => text.normalize("NFD").replace(/\p{Diacritic}/gu, "").toLowerCase();

  // The games the search and the mechanic leave, the best match first: a key or name
  // that starts with the words, then another name that does, then the rest, each in
  // the catalogue's order (as the terminal's search ranks them).
  function found() {
    const query = fold($("variant-find").value).trim();
    const words = query.split(/\s+/).filter(Boolean);
    const mechanic = $("variant-mechanic").value;
    const rank = (v) => {
      if (!words.every((w) => v.search.includes(w))) return null;
      const starts = (name) => fold(name).startsWith(query);
      return starts(v.key) || starts(v.name) ? 0 : (v.aliases || []).some(starts) ? 1 : 2;
    };
    return variants
      .filter((v) => !mechanic || (v.mechanics || []).includes(mechanic))
      .map((v) => [rank(v), v])
      .filter(([r]) => r !== null)
      .sort((a, b) => a[0] - b[0])
      .map(([, v]) => v);
  }

  // The variant list as the search leaves it: the chosen game stays chosen while it
  // is listed, else the best match is chosen; nothing found lists every game again.
  function filterVariants() {
    const filtering = $("variant-find").value.trim() !== "" || $("variant-mechanic").value !== "";
    const shown = filtering ? found() : variants;
    const list = shown.length ? shown : variants;
    const select = $("variant");
    const before = select.value;
    select.replaceChildren(...list.map((v) => new Option(v.name, v.key)));
    select.value = list.some((v) => v.key === before) ? before : list[0].key;
    const n = shown.length;
    $("variant-found").textContent = !filtering ? `${variants.length} games.`
      : n === 0 ? "No game matches: every game is listed."
        : `${n} game${n === 1 ? "" : "s"} ${n === 1 ? "matches" : "match"}${n === 1 ? `: ${list[0].name}` : ""}.`;
    if (select.value !== before) chooseVariant();
  }

  function fill() {
    const mechanics = [...new Set(variants.flatMap((v) => v.mechanics || []))];
    $("variant-mechanic").replaceChildren(new Option("any", ""), ...mechanics.map((m) => new Option(m, m)));
    $("variant").replaceChildren(...variants.map((v) => new Option(v.name, v.key)));
    $("variant-found").textContent = `${variants.length} games.`;
    $("variant-list").textContent = `${variants.map((v) => v.name).join(", ").replace(/, ([^,]*)$/, " or $1")}. `;
    chooseVariant();
    buildImportLevels();
  }

  // Starting is possible only with the lists; until then (or when they could not be
  // fetched) the buttons wait and the page says why.
  function setReady(state, error) {
    document.body.dataset.form = state;
    for (const id of ["quick-computer", "quick-friend", "start"]) $(id).disabled = state !== "ready";
    const problem = $("form-problem");
    problem.hidden = state !== "failed";
    if (state === "failed") {
      $("form-problem-text").textContent =
        `The game settings could not be loaded from the server (${error.message}), so no game can be started yet.`;
    }
  }

  async function setupForm() {
    for (const id of ["houses", "seeds"]) $(id).addEventListener("input", () => { $(id).dataset.edited = "yes"; });
    $("variant").addEventListener("change", chooseVariant);
    $("variant-find").addEventListener("input", filterVariants);
    $("variant-mechanic").addEventListener("change", filterVariants);
    $("level").addEventListener("change", describeLevel);
    $("import-as").addEventListener("change", () => { $("import-as").dataset.chosen = "yes"; });
    $("form-retry").addEventListener("click", () => start());
    const start = async () => {
      setReady("loading");
      try {
        await load();
      } catch (err) {
        setReady("failed", err);
        return;
      }
      fill();
      setReady("ready");
    };
    await start();
  }

  // Every variant the server plays, as it describes them.
  const list = () => variants.slice();

  return { load, learn, list, variant, words, changedOptions, allOptions, bank, claimWord, setupForm, chosenOptions };
})();
