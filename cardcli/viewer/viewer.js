/* cardcli match viewer, its core: the state of a card table, made from the page's own data.
 *
 * The data (the <script type="application/json"> block) holds, for each step of each match,
 * the protocol event lines the step produced and who may see them (see cardcli/viewer). The
 * table's state is kept by applying those lines, for every seat at once ('all') or for one
 * seat, in the spirit of the human seat's SeatView: a seat's view applies only the lines that
 * seat was sent, so it cannot show what the seat did not know. Every text that comes from a
 * record is put in the page as a text node; nothing is fetched.
 *
 * The core knows no game. It keeps what every trick or floor game has (the deal, the dealer,
 * the hands, the trick in progress and the last one taken, the scores) and draws it (page.js);
 * each game's own script (its spec's `viewer`, e.g. cardcli/plugins/<name>/viewer.js) registers
 * the game's hooks under the game's name with `cardcliViewer.register(name, hooks)`, and the
 * core calls the hooks of a match's game where it has them. The page's one script is this file,
 * then the scripts of the page's games, then page.js. The hooks are listed in docs/viewer.md
 * ("A game's part of the viewer"); those of the state are:
 *
 *   newDeal(st, words)     the game's fields of a deal, set afresh at the match's start (words
 *                          null) and at each `deal` line (its words), after the core's
 *   event(st, words, aud)  an event line the view may see, before the core applies it; true
 *                          when the game has applied it (the core then leaves it alone)
 *   notes                  the kinds of line told after a move in the log (the core's: taken,
 *                          score)
 *   trickStop              a RegExp over a step's text: the steps the trick buttons stop at
 *                          (the core's: a `taken` line)
 *   tricks, trickPoints    false: the game plays no tricks / its tricks carry no card points
 *   moments                the game's moments to jump to: [{key, label, re}], `re` a RegExp
 *                          over a step's text (the core's: deal ends, faults)
 *
 * This part is plain data and works without a page: node can require() this file and test it.
 * Required by node, it also requires the viewer scripts of cardcli's own games (every
 * cardcli/plugins/<name>/viewer.js beside this package), so that its stateAt knows them as a
 * page of their matches does; a game of another package is added by requiring its script next.
 */
(function (root) {
  "use strict";

  var SUPPORTED_FORMAT_VERSION = 1;  // the record format this viewer reads
  var DATA_VERSION = 1;              // the layout of the page's data (cardcli_viewer)
  var SUITS = "CDHS";
  var RANKS = "23456789TJQKA";
  var SYMBOL = { C: "\u2663", D: "\u2666", H: "\u2665", S: "\u2660" };
  var SUIT_NAME = { C: "clubs", D: "diamonds", H: "hearts", S: "spades" };

  /* ---------------------------------------------------------------- the games' hooks */

  var games = {};
  var NONE = {};
  var scriptProblems = [];

  /* Registers a game's hooks (an object whose members are all optional) under its name: the
   * name its matches have in the page's data (`game`, the spec's name). */
  function register(name, hooks) {
    if (typeof name !== "string" || !name) throw new Error("a game registers its viewer hooks under its name");
    games[name] = hooks || {};
    return games[name];
  }

  /* The hooks of a game; an object without any for a game that registered none. */
  function hooksOf(name) {
    return Object.prototype.hasOwnProperty.call(games, name) ? games[name] : NONE;
  }

  /* A game's script that failed as the page ran it: the page says so (its red box) and draws
   * that game's matches with the core's table only. */
  function failed(script, err) {
    scriptProblems.push("the viewer script " + script + " failed: " + (err && err.message ? err.message : String(err)));
  }

  /* ---------------------------------------------------------------- cards and tokens */

  function isCard(t) {
    return typeof t === "string" && t.length === 2 && RANKS.indexOf(t[0]) >= 0 && SUITS.indexOf(t[1]) >= 0;
  }

  function isSuit(t) {
    return typeof t === "string" && t.length === 1 && SUITS.indexOf(t) >= 0;
  }

  function cardKey(t) {
    return SUITS.indexOf(t[1]) * 16 + RANKS.indexOf(t[0]);
  }

  function sortCards(cards) {
    return cards.slice().sort(function (a, b) { return cardKey(a) - cardKey(b); });
  }

  function rankText(t) {
    return t[0] === "T" ? "10" : t[0];
  }

  function cardText(t) {
    return isCard(t) ? rankText(t) + SYMBOL[t[1]] : t;
  }

  /* ---------------------------------------------------------------- the data of a match */

  /* One step's text as {move, events}: see cardcli/viewer/__init__.py, _step_text. */
  function decodeStep(text, isMove) {
    var lines = text === "" ? [] : text.split("\n");
    var move = null, events = [], i = 0;
    if (isMove && lines.length && lines[0][0] === ">") {
      var h = lines[0].slice(1).split(" ");
      move = { seat: +h[0], kind: h[1], token: h[2] === "?" ? null : h[2] };
      i = 1;
    }
    for (; i < lines.length; i++) {
      var line = lines[i], aud = null;
      if (line[0] === "@") {
        var sp = line.indexOf(" ");
        aud = line.slice(1, sp).split(",").map(Number);
        line = line.slice(sp + 1);
      }
      events.push({ aud: aud, words: line.split(" ") });
    }
    if (isMove && !move) {
      var w = events.length ? events[0].words : ["?", "-1", null];
      move = { seat: +w[1], kind: w[0], token: w[2] === undefined ? null : w[2] };
    }
    return { move: move, events: events };
  }

  var TAKEN = /(^|\n)(@[0-9,]+ )?taken /;

  /* Indexes a match once: where each deal starts among the match's steps, the steps that end
   * a trick (or what the game's trickStop names), and the faults by step. */
  function prepare(m) {
    if (m._ready) return m;
    m.dealStart = [];
    var s = 1;
    m.trickStops = [];
    var re = hooksOf(m.game).trickStop || TAKEN;
    (m.deals || []).forEach(function (deal) {
      m.dealStart.push(s);
      for (var i = 1; i < deal.steps.length; i++) {
        if (re.test(deal.steps[i]) || i === deal.steps.length - 1) m.trickStops.push(s + i);
      }
      s += deal.steps.length;
    });
    m.nsteps = s;
    m.faultsAt = {};
    (m.faults || []).forEach(function (f) {
      (m.faultsAt[f.step] = m.faultsAt[f.step] || []).push(f);
    });
    m.moments = moments(m);
    m.thinking = thinking(m);
    m.snaps = {};
    m._ready = true;
    return m;
  }

  var SCORED = /(^|\n)(@[0-9,]+ )?score /;

  /* The moments a page can jump to, each {key, label, steps (ascending)}: the core's (the end
   * of each deal: its step with the score, else its last; each fault), then the game's own,
   * named by its script's `moments` hook ([{key, label, re}], `re` a RegExp over a step's
   * text): the core names no game's moment. */
  function moments(m) {
    var ends = [], faults = [], own = (hooksOf(m.game).moments || []).map(function (k) {
      return { key: String(k.key), label: String(k.label), re: k.re, steps: [] };
    });
    var s = 1;
    (m.deals || []).forEach(function (deal) {
      var end = null;
      for (var i = 0; i < deal.steps.length; i++) {
        var text = deal.steps[i];
        if (end === null && SCORED.test(text)) end = s + i;
        own.forEach(function (k) { if (k.re && k.re.test(text)) k.steps.push(s + i); });
      }
      ends.push(end === null ? s + deal.steps.length - 1 : end);
      s += deal.steps.length;
    });
    (m.faults || []).forEach(function (f) { if (faults.indexOf(f.step) < 0) faults.push(f.step); });
    faults.sort(function (a, b) { return a - b; });
    return [{ key: "deal-end", label: "deal ends", steps: ends }, { key: "fault", label: "faults", steps: faults }]
      .concat(own.map(function (k) { return { key: k.key, label: k.label, steps: k.steps }; }));
  }

  /* Each seat's think time: `total` (the whole match), `moves`, `longest` {ms, step} and
   * `upTo[s]`, the time it had taken by step s, from the moves' recorded `ms`. */
  function thinking(m) {
    var n = m.players, out = [], seat;
    for (seat = 0; seat < n; seat++) out.push({ total: 0, moves: 0, longest: null, upTo: [0] });
    var s = 1, run = zeros(n);
    (m.deals || []).forEach(function (deal) {
      for (var i = 0; i < deal.steps.length; i++) {
        if (i > 0 && deal.ms && typeof deal.ms[i - 1] === "number") {
          var who = +decodeStep(deal.steps[i], true).move.seat, ms = deal.ms[i - 1];
          if (who >= 0 && who < n) {
            run[who] += ms;
            out[who].moves += 1;
            if (!out[who].longest || ms > out[who].longest.ms) out[who].longest = { ms: ms, step: s + i };
          }
        }
        for (seat = 0; seat < n; seat++) out[seat].upTo[s + i] = run[seat];
      }
      s += deal.steps.length;
    });
    for (seat = 0; seat < n; seat++) out[seat].total = run[seat];
    return out;
  }

  /* A think time as people read it: "0.4 ms", "12 ms", "1.25 s". */
  function msText(ms) {
    if (typeof ms !== "number" || ms !== ms) return "?";
    if (ms < 10) return (Math.round(ms * 10) / 10) + " ms";
    if (ms < 1000) return Math.round(ms) + " ms";
    return (ms / 1000).toFixed(ms < 10000 ? 2 : 1) + " s";
  }

  /* Step s of a match as {deal: index in deals or -1, i: index within the deal}. */
  function locate(m, s) {
    var lo = 0, hi = m.dealStart.length - 1, found = -1;
    while (lo <= hi) {
      var mid = (lo + hi) >> 1;
      if (m.dealStart[mid] <= s) { found = mid; lo = mid + 1; } else { hi = mid - 1; }
    }
    return found < 0 ? { deal: -1, i: 0 } : { deal: found, i: s - m.dealStart[found] };
  }

  function zeros(n) {
    var a = [];
    for (var i = 0; i < n; i++) a.push(0);
    return a;
  }

  function nulls(n) {
    var a = [];
    for (var i = 0; i < n; i++) a.push(null);
    return a;
  }

  /* ---------------------------------------------------------------- the state of a table */

  function newState(m) {
    var st = { n: m.players, game: m.game, step: 0, deal: 0, totals: zeros(m.players), problems: [] };
    resetDeal(st, null);
    return st;
  }

  /* A 'deal' line starts the deal afresh: only the totals carry over (as in SeatView). */
  function resetDeal(st, words) {
    var n = st.n;
    st.dealer = null;
    st.hands = nulls(n);        // the cards of each seat, or null where this view does not know them
    st.counts = zeros(n);       // how many cards each seat holds (for the backs)
    st.trickNo = 0;
    st.leader = null;           // who leads the trick in progress; null once it is taken (as in SeatView)
    st.trick = [];              // {seat, card} in play order
    st.last = null;             // the last trick taken: {n, winner, points, cards}
    st.tricks = zeros(n);
    st.taken = zeros(n);        // card points taken in tricks
    st.dealScore = null;
    st.log = [];
    st.move = null;             // the move of the current step
    var g = hooksOf(st.game);
    if (g.newDeal) g.newDeal(st, words);
  }

  function clone(st) {
    return JSON.parse(JSON.stringify(st));
  }

  function visible(aud, view) {
    return aud === null || view === "all" || aud.indexOf(view) >= 0;
  }

  /* A card leaves a seat's hand (one back fewer where the view does not know the hand). */
  function removeCard(st, seat, card) {
    if (!(seat >= 0 && seat < st.n)) { st.problems.push("no seat " + seat); return; }
    var hand = st.hands[seat];
    if (hand === null) {
      st.counts[seat] = Math.max(0, st.counts[seat] - 1);
      return;
    }
    var i = hand.indexOf(card);
    if (i < 0) {
      st.problems.push("step " + st.step + ": seat " + seat + " plays " + card + ", not in its hand");
      return;
    }
    hand.splice(i, 1);
    st.counts[seat] = hand.length;
  }

  /* Cards come to a seat's hand (as many backs more where the view does not know the hand). */
  function addCards(st, seat, cards) {
    if (!(seat >= 0 && seat < st.n)) return;
    if (st.hands[seat] !== null) {
      st.hands[seat] = sortCards(st.hands[seat].concat(cards));
      st.counts[seat] = st.hands[seat].length;
    } else {
      st.counts[seat] += cards.length;
    }
  }

  /* Applies one event line; ``aud`` is its audience (null: public). The game's event hook sees
   * it first; the core knows the lines every trick game shares. */
  function applyEvent(st, w, aud) {
    var g = hooksOf(st.game);
    if (g.event && g.event(st, w, aud) === true) return;
    var k = w[0], n = st.n, i, seat, cards;
    switch (k) {
      case "deal":
        resetDeal(st, w);
        st.deal = +w[1];
        st.dealer = +w[2];
        break;
      case "hand":
        seat = aud && aud.length === 1 ? aud[0] : -1;
        if (!(seat >= 0 && seat < n)) { st.problems.push("a hand line without its seat"); break; }
        cards = w.slice(1);
        var delta = cards.length - st.counts[seat];
        for (i = 0; i < n; i++) {
          if (i !== seat && st.hands[i] === null) st.counts[i] = Math.max(0, st.counts[i] + delta);
        }
        st.hands[seat] = sortCards(cards);
        st.counts[seat] = cards.length;
        break;
      case "trick":
        st.trickNo = +w[1];
        st.leader = +w[2];
        st.trick = [];
        break;
      case "play":
        seat = +w[1];
        st.trick.push({ seat: seat, card: w[2] });
        removeCard(st, seat, w[2]);
        break;
      case "taken":
        st.last = { n: +w[1], winner: +w[2], points: +w[3], cards: st.trick };
        st.trick = [];
        st.leader = null;
        st.tricks[+w[2]] += 1;
        st.taken[+w[2]] += +w[3];
        if (st.move) st.move.taken = st.last;
        break;
      case "score":
        st.dealScore = w.slice(2).map(Number);
        break;
      case "totals":
        st.totals = w.slice(1).map(Number);
        break;
      default:
        break;  // a line this viewer does not know changes nothing
    }
  }

  /* Applies step ``i`` of deal ``d`` (``s`` its index in the match) for ``view``. */
  function applyStep(st, m, d, i, s, view) {
    var deal = m.deals[d];
    var step = decodeStep(deal.steps[i], i > 0);
    st.step = s;
    st.move = null;
    if (step.move) {
      var mv = step.move;
      var fb = m.fallback_from && m.fallback_from[mv.seat];
      st.move = {
        step: s, index: i - 1, seat: mv.seat, kind: mv.kind,
        token: mv.token !== null && (view === "all" || view === mv.seat || !privateMove(step, mv)) ? mv.token : null,
        fallback: fb !== null && fb !== undefined && s >= fb, notes: [],
        ms: deal.ms && typeof deal.ms[i - 1] === "number" ? deal.ms[i - 1] : null
      };
    }
    var notes = hooksOf(m.game).notes || [];
    step.events.forEach(function (e) {
      if (visible(e.aud, view)) {
        applyEvent(st, e.words, e.aud);
        if (st.move && isNote(e.words[0], notes)) st.move.notes.push(e.words);
      }
    });
    if (st.move) st.log.push(st.move);
  }

  /* A move whose token no public line of its step says (a pass of cards to one seat): another
   * seat's view of an every-hand page shows that it happened, not what it was. */
  function privateMove(step, mv) {
    return !step.events.some(function (e) {
      return e.aud === null && e.words.slice(1).indexOf(mv.token) >= 0;
    });
  }

  /* A line told after the move that caused it in the log: a trick taken, a deal scored, and
   * the game's notes. */
  function isNote(kind, notes) {
    return kind === "taken" || kind === "score" || notes.indexOf(kind) >= 0;
  }

  /* The state of the table at step ``s`` of match ``m`` for ``view`` ('all' or a seat).
   * Each deal starts afresh but for the totals, so the state at a step is made from the deal's
   * start, never from the match's: a snapshot is kept per deal and view, and ``from`` (a state
   * of an earlier step of the same deal) is carried forward when given. */
  function stateAt(m, s, view, from) {
    prepare(m);
    s = Math.max(0, Math.min(m.nsteps - 1, s));
    var at = locate(m, s);
    if (at.deal < 0) {
      var st0 = newState(m);
      st0.step = 0;
      return st0;
    }
    var d = at.deal, st, i;
    if (from && from.dealIndex === d && from.step <= s && from.step >= m.dealStart[d] &&
        from.view === view) {
      st = clone(from);
      i = from.step - m.dealStart[d] + 1;
    } else {
      var key = String(view);
      var snaps = m.snaps[key] || (m.snaps[key] = {});
      if (!snaps[d]) {
        var base = newState(m);
        var before = d > 0 ? m.deals[d - 1].totals : null;
        if (before) base.totals = before.slice();
        base.view = view;
        base.dealIndex = d;
        applyStep(base, m, d, 0, m.dealStart[d], view);
        snaps[d] = clone(base);
      }
      st = clone(snaps[d]);
      i = 1;
    }
    for (; i <= at.i; i++) applyStep(st, m, d, i, m.dealStart[d] + i, view);
    st.view = view;
    st.dealIndex = d;
    return st;
  }

  /* What the page must refuse to draw: a layout or record format this viewer does not know. */
  function problemOf(data) {
    if (!data || typeof data !== "object") return "the page holds no match data";
    if (data.cardcli_viewer !== DATA_VERSION) {
      return "this page's data has layout " + String(data.cardcli_viewer) + ", and this viewer reads layout " +
        DATA_VERSION;
    }
    if (!Array.isArray(data.matches) || !data.matches.length) return "the page holds no match";
    return null;
  }

  function matchProblem(m) {
    var v = m && m.format_version;
    var name = "the record " + where(m);
    if (typeof v !== "number" || v !== Math.floor(v)) return name + " has no record format version";
    if (v > SUPPORTED_FORMAT_VERSION) {
      return name + " is of record format version " + v + ", newer than this viewer reads (version " +
        SUPPORTED_FORMAT_VERSION + "): make the page again with a newer cardcli";
    }
    if (v < 1 || !Array.isArray(m.deals) || !Array.isArray(m.names)) {
      return name + " is not one this viewer reads (record format version " + v + ")";
    }
    return null;
  }

  function where(m) {
    return m && typeof m.where === "string" ? m.where : "?";
  }

  /* The one global of the page, `cardcliViewer`: the core's functions (for the games' scripts
   * and for node), and in a page, once page.js has run, the page's interface as well. */
  var core = {
    SUPPORTED_FORMAT_VERSION: SUPPORTED_FORMAT_VERSION, DATA_VERSION: DATA_VERSION,
    SUITS: SUITS, RANKS: RANKS, SYMBOL: SYMBOL, SUIT_NAME: SUIT_NAME,
    register: register, hooksOf: hooksOf, failed: failed, scriptProblems: scriptProblems,
    isCard: isCard, isSuit: isSuit, sortCards: sortCards, rankText: rankText, cardText: cardText,
    zeros: zeros, nulls: nulls, removeCard: removeCard, addCards: addCards,
    decodeStep: decodeStep, prepare: prepare, locate: locate, newState: newState, applyEvent: applyEvent,
    applyStep: applyStep, stateAt: stateAt, clone: clone, problemOf: problemOf, matchProblem: matchProblem,
    where: where, msText: msText
  };
  root.cardcliViewer = core;

  if (typeof module !== "undefined" && module.exports) {
    module.exports = core;
    requireOwnGames();
  }

  /* node only: the viewer scripts of cardcli's own games, every ../plugins/<name>/viewer.js. */
  function requireOwnGames() {
    var fs = require("fs"), path = require("path");
    var dir = path.join(__dirname, "..", "plugins");
    var names = [];
    try { names = fs.readdirSync(dir).sort(); } catch (err) { return; }
    names.forEach(function (name) {
      var file = path.join(dir, name, "viewer.js");
      if (fs.existsSync(file)) require(file);
    });
  }
})(typeof globalThis !== "undefined" ? globalThis : this);
