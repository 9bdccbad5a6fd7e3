/* cardcli match viewer: draws recorded matches as a card table from the page's own data.
 *
 * The data (the <script type="application/json"> block) holds, for each step of each match,
 * the protocol event lines the step produced and who may see them (see cardcli/viewer). The
 * table's state is kept by applying those lines, for every seat at once ('all') or for one
 * seat, in the spirit of the human seat's SeatView: a seat's view applies only the lines that
 * seat was sent, so it cannot show what the seat did not know. Every text that comes from a
 * record is put in the page as a text node; nothing is fetched.
 *
 * The first part (the state of a table) is plain data and works without a page: node can
 * require() this file and test it.
 */
(function () {
  "use strict";

  var SUPPORTED_FORMAT_VERSION = 1;  // the record format this viewer reads
  var DATA_VERSION = 1;              // the layout of the page's data (cardcli_viewer)
  var SUITS = "CDHS";
  var RANKS = "23456789TJQKA";
  var SYMBOL = { C: "\u2663", D: "\u2666", H: "\u2665", S: "\u2660" };
  var SUIT_NAME = { C: "clubs", D: "diamonds", H: "hearts", S: "spades" };
  var SAME_COLOUR = { C: "S", S: "C", D: "H", H: "D" };

  /* ---------------------------------------------------------------- cards and tokens */

  function isCard(t) {
    return typeof t === "string" && t.length === 2 && RANKS.indexOf(t[0]) >= 0 && SUITS.indexOf(t[1]) >= 0;
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

  /* The hand card a move spends: the card itself, or the card of a Seep take, throw, build,
   * cement or break (the hand card comes first); null for bids, trumps and passes. */
  function spentCard(token) {
    if (isCard(token)) return token;
    var i = token.indexOf(":");
    if (i < 0) return null;
    var verb = token.slice(0, i), rest = token.slice(i + 1);
    if (verb === "take" || verb === "throw") return rest.split(":")[0];
    if (verb === "build" || verb === "cement" || verb === "break") {
      var j = rest.indexOf(":");
      return rest.slice(j + 1).split(",")[0].split("+")[0];
    }
    return null;
  }

  /* A Seep 'table' line's items: loose cards, then houses h<value>:<c|o>:<owners>:<cards>. */
  function parseTable(items) {
    var floor = { loose: [], houses: [] };
    items.forEach(function (item) {
      if (item[0] === "h") {
        var p = item.slice(1).split(":");
        floor.houses.push({
          value: +p[0], cemented: p[1] === "c",
          owners: p[2] === "" ? [] : p[2].split(",").map(Number),
          cards: p[3] ? p[3].split("+") : []
        });
      } else if (item) {
        floor.loose.push(item);
      }
    });
    return floor;
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
  var SEEP_TAKE = /(^|\n)play [0-9]+ take:/;

  /* Indexes a match once: where each deal starts among the match's steps, the steps that end
   * a trick (or, in Seep, capture), and the faults by step. */
  function prepare(m) {
    if (m._ready) return m;
    m.dealStart = [];
    var s = 1;
    m.trickStops = [];
    (m.deals || []).forEach(function (deal) {
      m.dealStart.push(s);
      var re = m.game === "seep" ? SEEP_TAKE : TAKEN;
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
    m.snaps = {};
    m._ready = true;
    return m;
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
    resetDeal(st);
    return st;
  }

  /* A 'deal' line starts the deal afresh: only the totals carry over (as in SeatView). */
  function resetDeal(st) {
    var n = st.n;
    st.dealer = null;
    st.bidder = null;
    st.hands = nulls(n);        // the cards of each seat, or null where this view does not know them
    st.counts = zeros(n);       // how many cards each seat holds (for the backs)
    st.trickNo = 0;
    st.leader = null;
    st.trick = [];              // {seat, card} in play order
    st.last = null;             // the last trick taken: {n, winner, points, cards}
    st.tricks = zeros(n);
    st.taken = zeros(n);        // card points taken in tricks
    st.dealScore = null;
    st.log = [];
    st.move = null;             // the move of the current step
    st.passing = null;          // Peppa
    st.passes = [];
    st.received = [];
    st.receivedCards = {};
    st.cappotto = [];
    st.floor = null;            // Seep
    st.bid = null;
    st.voided = null;
    st.captured = zeros(n);
    st.seeps = zeros(n);
    st.capture = null;
    st.leftover = null;
    st.cardPoints = null;       // Il Pigugnin
    st.notricks = [];
    st.busche = [];
    st.auction = [];            // Pepper
    st.allpass = false;
    st.contract = null;
    st.trump = null;
    st.fate = null;
  }

  function clone(st) {
    return JSON.parse(JSON.stringify(st));
  }

  function visible(aud, view) {
    return aud === null || view === "all" || aud.indexOf(view) >= 0;
  }

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

  /* Applies one event line; ``aud`` is its audience (null: public). */
  function applyEvent(st, w, aud) {
    var k = w[0], n = st.n, i, seat, cards;
    switch (k) {
      case "deal":
        resetDeal(st);
        st.deal = +w[1];
        st.dealer = +w[2];
        if (w.length > 3) st.bidder = +w[3];
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
      case "passing":
        st.passing = w[1];
        break;
      case "passed":
        seat = aud && aud.length === 1 ? aud[0] : -1;
        cards = w.slice(2);
        st.passes.push({ from: seat, to: +w[1], cards: cards });
        cards.forEach(function (c) { removeCard(st, seat, c); });
        if (st.move) st.move.passTo = +w[1];
        break;
      case "received":
        seat = aud && aud.length === 1 ? aud[0] : -1;
        cards = w.slice(2);
        st.received.push({ seat: seat, from: +w[1], cards: cards });
        if (seat >= 0 && st.hands[seat] !== null) {
          st.hands[seat] = sortCards(st.hands[seat].concat(cards));
          st.counts[seat] = st.hands[seat].length;
        } else if (seat >= 0) {
          st.counts[seat] += cards.length;
        }
        cards.forEach(function (c) { st.receivedCards[c] = seat; });
        break;
      case "trick":
        st.trickNo = +w[1];
        st.leader = +w[2];
        st.trick = [];
        break;
      case "play":
        seat = +w[1];
        if (st.game === "seep") {
          seepPlay(st, seat, w[2]);
        } else {
          st.trick.push({ seat: seat, card: w[2] });
          removeCard(st, seat, w[2]);
        }
        break;
      case "taken":
        st.last = { n: +w[1], winner: +w[2], points: +w[3], cards: st.trick };
        st.trick = [];
        st.tricks[+w[2]] += 1;
        st.taken[+w[2]] += +w[3];
        if (st.move) st.move.taken = st.last;
        break;
      case "cappotto":
        st.cappotto.push(+w[1]);
        break;
      case "score":
        st.dealScore = w.slice(2).map(Number);
        break;
      case "totals":
        st.totals = w.slice(1).map(Number);
        break;
      case "bid":
        if (st.game === "seep") {
          st.bid = { seat: +w[1], value: +w[2] };
        } else {
          st.auction.push({ seat: +w[1], bid: w[2] });
        }
        break;
      case "void":
        st.voided = { seat: +w[1], cards: w.slice(2) };
        break;
      case "table":
        st.floor = parseTable(w.slice(1));
        break;
      case "seep":
        st.seeps[+w[1]] += 1;
        if (st.move) st.move.seep = +w[2];
        break;
      case "leftover":
        cards = w.slice(2);
        st.leftover = { seat: w[1] === "-" ? null : +w[1], cards: cards };
        if (w[1] !== "-") st.captured[+w[1]] += cards.length;
        st.floor = { loose: [], houses: [] };
        break;
      case "points":
        st.cardPoints = w.slice(1).map(Number);
        break;
      case "notricks":
        st.notricks = w.slice(1).map(Number);
        break;
      case "busca":
        st.busche.push({ seat: +w[1], reason: w[2], count: +w[3] });
        break;
      case "allpass":
        st.allpass = true;
        break;
      case "contract":
        st.contract = { seat: +w[1], bid: w[2] };
        break;
      case "trump":
        st.trump = w[2];
        break;
      case "made":
      case "set":
        st.fate = { made: k === "made", seat: +w[1], bid: w[2], tricks: +w[3] };
        break;
      default:
        break;  // a line this viewer does not know changes nothing
    }
  }

  /* A Seep play: the hand card leaves the hand; a take captures the groups and houses it names
   * from the floor as it was before the move (the 'table' line after it gives the new floor). */
  function seepPlay(st, seat, token) {
    var card = spentCard(token);
    if (card) removeCard(st, seat, card);
    if (token.slice(0, 5) !== "take:") return;
    var parts = token.split(":");
    var got = [card];
    (parts[2] || "").split(",").forEach(function (group) {
      if (!group) return;
      if (group[0] === "h") {
        var value = +group.slice(1);
        var house = st.floor && st.floor.houses.filter(function (h) { return h.value === value; })[0];
        if (house) got = got.concat(house.cards);
        else st.problems.push("step " + st.step + ": no house " + value + " on the floor");
      } else {
        got = got.concat(group.split("+"));
      }
    });
    st.captured[seat] += got.length;
    st.capture = { seat: seat, cards: got };
    if (st.move) st.move.capture = got;
  }

  /* Applies step ``i`` of deal ``d`` (``s`` its index in the match) for ``view``. */
  function applyStep(st, m, d, i, s, view) {
    var deal = m.deals[d];
    var step = decodeStep(deal.steps[i], i > 0);
    st.step = s;
    st.capture = null;
    st.move = null;
    if (step.move) {
      var mv = step.move;
      var fb = m.fallback_from && m.fallback_from[mv.seat];
      st.move = {
        step: s, index: i - 1, seat: mv.seat, kind: mv.kind,
        token: mv.token !== null && (view === "all" || view === mv.seat || !privateMove(step, mv)) ? mv.token : null,
        fallback: fb !== null && fb !== undefined && s >= fb, notes: []
      };
    }
    step.events.forEach(function (e) {
      if (visible(e.aud, view)) {
        applyEvent(st, e.words, e.aud);
        if (st.move && isNote(e.words[0])) st.move.notes.push(e.words);
      }
    });
    if (st.move) st.log.push(st.move);
  }

  /* A move whose token no public line of its step says (a Peppa pass): another seat's view
   * of an every-hand page shows that it happened, not what it was. */
  function privateMove(step, mv) {
    return !step.events.some(function (e) {
      return e.aud === null && e.words.slice(1).indexOf(mv.token) >= 0;
    });
  }

  function isNote(kind) {
    return kind === "taken" || kind === "cappotto" || kind === "seep" || kind === "leftover" || kind === "made" ||
      kind === "set" || kind === "contract" || kind === "allpass" || kind === "void" || kind === "score";
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

  /* Pepper's bowers under the named trump: {card: "right" | "left"}. */
  function bowers(trump, leftIsTrump) {
    var out = {};
    if (!trump || trump === "NT" || SUITS.indexOf(trump) < 0) return out;
    out["J" + trump] = "right";
    if (leftIsTrump !== false) out["J" + SAME_COLOUR[trump]] = "left";
    return out;
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

  var core = {
    SUPPORTED_FORMAT_VERSION: SUPPORTED_FORMAT_VERSION, DATA_VERSION: DATA_VERSION,
    isCard: isCard, sortCards: sortCards, spentCard: spentCard, parseTable: parseTable, decodeStep: decodeStep,
    prepare: prepare, locate: locate, newState: newState, applyStep: applyStep, stateAt: stateAt,
    bowers: bowers, problemOf: problemOf, matchProblem: matchProblem, cardText: cardText
  };

  if (typeof module !== "undefined" && module.exports) module.exports = core;
  if (typeof document === "undefined") return;

  /* ---------------------------------------------------------------- the page */

  var $ = function (id) { return document.getElementById(id); };
  var SVG_NS = $("chart").namespaceURI;  // the inline <svg>'s own namespace
  var COLOURS = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e"];

  var data = null;
  var cur = { match: -1, step: 0, view: "all", state: null };
  var timer = null;
  var restricted = null;  // the seat a page made with --seat shows

  function clear(el) {
    while (el.firstChild) el.removeChild(el.firstChild);
    return el;
  }

  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined && text !== null) e.textContent = String(text);
    return e;
  }

  function showError(text) {
    var box = $("error");
    if (text) {
      box.textContent = text;
      box.hidden = false;
    } else {
      box.textContent = "";
      box.hidden = true;
    }
  }

  function match() {
    return data && cur.match >= 0 ? data.matches[cur.match] : null;
  }

  function who(m, seat) {
    if (!(seat >= 0 && seat < m.names.length)) return String(seat);
    return seat + ":" + m.names[seat];
  }

  function cardEl(token, seat, extra) {
    if (!isCard(token)) return el("span", "token", token);
    var c = el("span", "card" + (token[1] === "H" || token[1] === "D" ? " red" : "") + (extra ? " " + extra : ""));
    c.dataset.card = token;
    if (seat !== undefined && seat !== null) c.dataset.seat = String(seat);
    c.title = rankText(token) + " of " + SUIT_NAME[token[1]];
    c.appendChild(el("span", "rank", rankText(token)));
    c.appendChild(el("span", "suit", SYMBOL[token[1]]));
    return c;
  }

  function backEl() {
    var c = el("span", "card back");
    c.title = "a card this view does not see";
    return c;
  }

  /* Text with card tokens drawn as coloured card symbols. */
  function cardsText(parent, cards, sep) {
    cards.forEach(function (t, i) {
      if (i) parent.appendChild(document.createTextNode(sep === undefined ? " " : sep));
      var s = el("span", "sym" + (isCard(t) && (t[1] === "H" || t[1] === "D") ? " red" : ""), cardText(t));
      if (isCard(t)) s.dataset.card = t;
      parent.appendChild(s);
    });
    return parent;
  }

  /* ---- the seats */

  function removeSeats(table) {
    Array.prototype.slice.call(table.querySelectorAll("section.seat")).forEach(function (s) {
      if (handWatch) handWatch.unobserve(s.querySelector(".hand"));
      table.removeChild(s);
    });
  }

  function buildSeats(m) {
    var table = $("table");
    removeSeats(table);
    for (var seat = 0; seat < m.players; seat++) {
      var sec = el("section", "seat");
      sec.dataset.seat = String(seat);
      sec.style.setProperty("--colour", COLOURS[seat % COLOURS.length]);
      var head = el("div", "head");
      head.appendChild(el("span", "num", seat));
      head.appendChild(el("span", "name", m.names[seat]));
      head.appendChild(el("span", "badges"));
      var total = el("span", "total", 0);
      total.title = "running total";
      head.appendChild(total);
      sec.appendChild(head);
      sec.appendChild(el("div", "info"));
      var hand = el("div", "hand");
      sec.appendChild(hand);
      table.appendChild(sec);
      watchHand(hand);
    }
  }

  /* A hand is fanned as much as its panel needs, no more: its cards side by side when they fit,
   * else overlapping evenly, each showing at least SHOW_EM of its left edge (where a fanned
   * card shows its rank and suit: "10" stays whole); when even that is too wide, in rows of
   * equal length. The panel's width is learnt when it changes (a ResizeObserver), so a step
   * reads no layout: the fan is made from the card count and the width last seen. */
  var CARD_EM = 2.3, SHOW_EM = 1.6, GAP_EM = 0.2;
  var handWatch = typeof ResizeObserver === "function" ? new ResizeObserver(function (entries) {
    var changed = [];
    entries.forEach(function (e) {
      var hand = e.target;
      var box = e.borderBoxSize && (e.borderBoxSize[0] || e.borderBoxSize);
      var w = box && box.inlineSize ? box.inlineSize : hand.offsetWidth;
      if (hand._width === w) return;
      hand._width = w;
      hand._font = parseFloat(getComputedStyle(hand).fontSize) || 14;
      changed.push(hand);
    });
    // refanned in the next frame, not while the observer reports (a hand's new height would
    // be a change it has not reported yet)
    if (changed.length) requestAnimationFrame(function () { changed.forEach(fitHand); });
  }) : null;

  function watchHand(hand) {
    if (handWatch) {
      handWatch.observe(hand, { box: "border-box" });
    } else if (typeof requestAnimationFrame === "function") {
      requestAnimationFrame(function () {
        hand._width = hand.offsetWidth;
        hand._font = parseFloat(getComputedStyle(hand).fontSize) || 14;
        fitHand(hand);
      });
    }
  }

  function fitHand(hand) {
    // the hand's whole width (its left padding is room for the overlap of each row's first card)
    var n = hand.children.length, fs = hand._font, w = hand._width;
    if (!n || !w || !fs) return;
    var cw = CARD_EM * fs, gap = GAP_EM * fs, least = SHOW_EM * fs, room = w - 0.5;
    var perRow = n;
    if (n > 1 && n * cw + (n - 1) * gap > room) {
      perRow = Math.max(1, Math.min(n, Math.floor((room - cw) / least) + 1));
      perRow = Math.ceil(n / Math.ceil(n / perRow));  // rows of equal length
    }
    var step = perRow > 1 ? Math.min(cw + gap, (room - cw) / (perRow - 1)) : cw + gap;
    var over = step - cw;
    if (hand._over === over) return;
    hand._over = over;
    hand.style.setProperty("--over", over.toFixed(2) + "px");
    hand.classList.toggle("fanned", over < 0);
  }

  /* Where each seat sits, counted clockwise from the viewing seat at the bottom: its slot in
   * the table's grid (the viewing seat at the bottom, the seat across at the top, the others in
   * the side columns, upper or lower when a side has two) and its place among the seats stacked
   * on a phone. The middle of the table takes the space the seats leave: between the side
   * columns, under the top seat when there is one. */
  function seatSlot(k, n) {
    if (k === 0) return "bottom";
    var a = 2 * Math.PI * k / n, x = -Math.sin(a), y = Math.cos(a);
    if (Math.abs(x) < 0.2) return "top";
    var side = x < 0 ? "left" : "right";
    if (n === 4) return side;
    return side + (y < 0 ? "-upper" : "-lower");
  }

  function placeSeats(m, view) {
    var bottom = typeof view === "number" ? view : 0;
    var n = m.players;
    var slots = {};
    document.querySelectorAll("#table section.seat").forEach(function (sec) {
      var k = ((+sec.dataset.seat - bottom) % n + n) % n;
      var slot = seatSlot(k, n);
      slots[slot] = true;
      sec.dataset.slot = slot;
      sec.dataset.place = slot === "bottom" || slot === "top" ? slot : slot.split("-")[0];
    });
    var table = $("table");
    table.dataset.top = slots.top ? "yes" : "no";
    table.dataset.sides = Object.keys(slots).some(function (s) { return s !== "top" && s !== "bottom"; }) ? "yes" : "no";
  }

  function seatVector(m, seat, view) {
    var bottom = typeof view === "number" ? view : 0;
    var n = m.players;
    var a = 2 * Math.PI * (((seat - bottom) % n + n) % n) / n;
    return { x: -Math.sin(a), y: Math.cos(a) };
  }

  function drawSeats(m, st, view) {
    var bw = m.game === "pepper" ? bowers(st.trump, m.options && m.options.left_bower_is_trump) : {};
    var forfeit = forfeits(m, st.step);
    document.querySelectorAll("#table section.seat").forEach(function (sec) {
      var seat = +sec.dataset.seat;
      sec.querySelector(".total").textContent = String(st.totals[seat]);
      var badges = clear(sec.querySelector(".badges"));
      if (st.deal && st.dealer === seat) badges.appendChild(el("span", "badge dealer", "dealer"));
      if (st.bidder === seat) badges.appendChild(el("span", "badge bidder", "bidder"));
      if (st.contract && st.contract.seat === seat) badges.appendChild(el("span", "badge declarer", "declarer"));
      if (forfeit[seat]) badges.appendChild(el("span", "badge forfeit", forfeit[seat]));
      sec.classList.toggle("forfeit", !!forfeit[seat]);
      sec.classList.toggle("viewer", view === seat);
      sec.classList.toggle("to-move", !!(st.move && st.move.seat === seat));
      var lead = st.trick.length ? st.trick[0].seat : st.leader;
      sec.classList.toggle("leader", st.trick.length < m.players && lead === seat && st.trickNo > 0);
      var info = clear(sec.querySelector(".info"));
      var bits = [];
      if (m.game === "seep") {
        if (st.deal) bits.push("captured " + st.captured[seat]);
        if (st.seeps[seat]) bits.push("seeps " + st.seeps[seat]);
      } else if (st.deal) {
        bits.push("tricks " + st.tricks[seat]);
        if (m.game !== "pepper") bits.push("points " + st.taken[seat]);
      }
      if (st.dealScore) bits.push("deal " + signed(st.dealScore[seat]));
      info.textContent = bits.join(" \u00b7 ");
      var hand = clear(sec.querySelector(".hand"));
      if (st.hands[seat] !== null) {
        st.hands[seat].forEach(function (c) {
          var extra = [];
          if (bw[c]) extra.push("bower " + bw[c]);
          if (st.receivedCards[c] === seat) extra.push("received");
          var ce = cardEl(c, null, extra.join(" "));
          if (bw[c]) ce.title += " (" + bw[c] + " bower)";
          hand.appendChild(ce);
        });
      } else {
        for (var i = 0; i < st.counts[seat]; i++) hand.appendChild(backEl());
      }
      hand.dataset.count = String(st.hands[seat] !== null ? st.hands[seat].length : st.counts[seat]);
      fitHand(hand);
    });
  }

  function signed(v) {
    return v > 0 ? "+" + v : String(v);
  }

  /* Seat -> its mark from its fault on: the fallback player plays for it, or (an aborted
   * match) it faulted. */
  function forfeits(m, step) {
    var out = {};
    (m.faults || []).forEach(function (f) {
      if (f.step <= step) {
        var fb = m.fallback_from ? m.fallback_from[f.seat] : null;
        out[f.seat] = fb !== null && fb !== undefined ? "fallback player" : "faulted";
      }
    });
    return out;
  }

  /* ---- the middle of the table */

  function panel(id, show) {
    var p = clear($(id));
    p.hidden = !show;
    return p;
  }

  function drawCentre(m, st, view) {
    var trickGame = m.game !== "seep";
    var bw = m.game === "pepper" ? bowers(st.trump, m.options && m.options.left_bower_is_trump) : {};
    var info = clear($("deal-info"));
    if (!st.deal) {
      info.textContent = cur.match >= 0 && m.deals.length ? "The match before its first deal" : "No deal was played";
    } else {
      var text = "Deal " + st.deal + " \u00b7 dealer " + who(m, st.dealer);
      if (m.game === "seep" && st.bidder !== null) text += " \u00b7 bidder " + who(m, st.bidder);
      if (st.passing) text += " \u00b7 " + (st.passing === "hold" ? "no pass" : "passing " + st.passing);
      if (trickGame && st.trickNo) text += " \u00b7 trick " + st.trickNo;
      info.textContent = text;
    }

    // the trick in progress, each card towards the seat that played it
    var trick = clear($("trick"));
    trick.hidden = !trickGame;
    st.trick.forEach(function (p) {
      var c = cardEl(p.card, p.seat, bw[p.card] ? "bower " + bw[p.card] : "");
      // who played it: where the seats are stacked (a phone) the card cannot point at its seat
      var by = el("span", "by", p.seat);
      by.style.setProperty("--colour", COLOURS[p.seat % COLOURS.length]);
      c.title += ", played by " + who(m, p.seat);
      c.appendChild(by);
      var v = seatVector(m, p.seat, view);
      c.style.left = (50 + 28 * v.x).toFixed(1) + "%";
      c.style.top = (50 + 26 * v.y).toFixed(1) + "%";
      trick.appendChild(c);
    });
    var last = panel("last-trick", trickGame && !!st.last);
    if (st.last) {
      var head = el("div", "panel-head", "trick " + st.last.n + " to " + who(m, st.last.winner) +
        (m.game === "pepper" ? "" : " (" + st.last.points + ")"));
      last.appendChild(head);
      var row = el("div", "cards");
      st.last.cards.forEach(function (p) { row.appendChild(cardEl(p.card, p.seat, bw[p.card] ? "bower " + bw[p.card] : "")); });
      last.appendChild(row);
    }

    // Peppa: the pass
    var pass = panel("pass", m.game === "peppa" && (st.passes.length > 0 || st.received.length > 0));
    if (!pass.hidden) {
      pass.appendChild(el("div", "panel-head", "the pass (" + st.passing + ")"));
      st.passes.forEach(function (p) {
        var line = el("div", "pass-line");
        line.dataset.from = String(p.from);
        line.dataset.to = String(p.to);
        line.appendChild(el("span", "who", who(m, p.from) + " \u2192 " + who(m, p.to) + ": "));
        p.cards.forEach(function (c) {
          var ce = cardEl(c, p.from);
          ce.dataset.from = String(p.from);
          ce.dataset.to = String(p.to);
          ce.title += ", passed by " + who(m, p.from) + " to " + who(m, p.to);
          line.appendChild(ce);
        });
        pass.appendChild(line);
      });
      if (view !== "all") {
        st.received.forEach(function (r) {
          var line = el("div", "pass-line received");
          line.appendChild(el("span", "who", who(m, r.seat) + " \u2190 " + who(m, r.from) + ": "));
          r.cards.forEach(function (c) {
            var ce = cardEl(c, r.from);
            ce.dataset.from = String(r.from);
            ce.dataset.to = String(r.seat);
            line.appendChild(ce);
          });
          pass.appendChild(line);
        });
      }
      if (st.passes.length === 0 && st.received.length === 0) pass.hidden = true;
    }

    // Seep: the bid, the floor with its houses, the capture
    var bid = panel("bid", m.game === "seep" && !!(st.bid || st.voided));
    if (st.bid) bid.textContent = "bid: " + st.bid.value + " by " + who(m, st.bid.seat);
    if (st.voided) {
      bid.textContent = who(m, st.voided.seat) + " cannot bid: the same dealer deals again ";
      cardsText(bid, st.voided.cards);
    }
    var floor = clear($("floor"));
    floor.hidden = m.game !== "seep" || !st.deal;
    var hidden = clear($("floor-hidden"));
    hidden.hidden = true;
    if (m.game === "seep" && st.deal) {
      if (st.floor === null && !st.voided) {
        hidden.hidden = false;
        hidden.appendChild(el("span", "panel-head", "floor, face down: "));
        for (var i = 0; i < 4; i++) hidden.appendChild(backEl());
        floor.hidden = true;
      } else if (st.floor) {
        st.floor.loose.forEach(function (c) {
          floor.appendChild(cardEl(c));
        });
        st.floor.houses.forEach(function (h) {
          var box = el("div", "house" + (h.cemented ? " cemented" : ""));
          box.dataset.value = String(h.value);
          box.dataset.cemented = h.cemented ? "true" : "false";
          box.dataset.owners = h.owners.join(",");
          box.appendChild(el("span", "house-label", "house " + h.value + (h.cemented ? ", cemented" : "") +
            ", " + (h.owners.length > 1 ? "owners " : "owner ") + h.owners.map(function (o) { return who(m, o); }).join(", ")));
          h.cards.forEach(function (c) { box.appendChild(cardEl(c)); });
          floor.appendChild(box);
        });
        if (!st.floor.loose.length && !st.floor.houses.length) floor.appendChild(el("span", "empty", "the floor is empty"));
      }
    }
    // this step's capture, its seep, and the leftover the deal's last play gave away
    var leftoverNow = !!(st.leftover && st.move && st.move.notes.some(function (w) { return w[0] === "leftover"; }));
    var cap = panel("capture", m.game === "seep" && (!!st.capture || leftoverNow));
    if (st.capture) {
      cap.appendChild(el("span", "panel-head", who(m, st.capture.seat) + " captures "));
      st.capture.cards.forEach(function (c) { cap.appendChild(cardEl(c)); });
      if (st.move && st.move.seep !== undefined) cap.appendChild(el("span", "seep-mark", "SEEP +" + st.move.seep));
    }
    if (leftoverNow) {
      var lo = el("div", "leftover", "leftover to " + (st.leftover.seat === null ? "nobody" : who(m, st.leftover.seat)) + ": ");
      cardsText(lo, st.leftover.cards);
      cap.appendChild(lo);
    }

    // Pepper: the auction and the contract
    var auction = panel("auction", m.game === "pepper" && st.deal > 0);
    if (!auction.hidden) {
      auction.appendChild(el("div", "panel-head", "auction"));
      st.auction.forEach(function (b) {
        var e = el("span", "bid" + (b.bid === "pass" ? " pass" : ""), who(m, b.seat) + ": " + bidText(b.bid));
        e.dataset.seat = String(b.seat);
        e.dataset.bid = b.bid;
        auction.appendChild(e);
      });
      if (st.allpass) auction.appendChild(el("span", "bid allpass", "everybody passed: the deal is thrown in"));
      if (!st.auction.length && !st.allpass) auction.appendChild(el("span", "empty", "no bid yet"));
    }
    var contract = panel("contract", m.game === "pepper" && !!st.contract);
    ["trump", "bidder", "level"].forEach(function (k) { delete contract.dataset[k]; });
    if (st.contract) {
      contract.dataset.bidder = String(st.contract.seat);
      contract.dataset.level = st.contract.bid;
      contract.dataset.trump = st.trump || "";
      var t = el("span", "contract-text", "contract: " + bidText(st.contract.bid) + " by " + who(m, st.contract.seat));
      if (st.trump === "NT") t.appendChild(document.createTextNode(", no trump"));
      if (st.trump && SYMBOL[st.trump]) {
        t.appendChild(document.createTextNode(", trump "));
        t.appendChild(el("span", "sym" + (st.trump === "H" || st.trump === "D" ? " red" : ""), SYMBOL[st.trump]));
      }
      contract.appendChild(t);
      var names = Object.keys(bw);
      if (names.length) {
        var bl = el("span", "bowers", "; bowers: ");
        names.forEach(function (c, i) {
          if (i) bl.appendChild(document.createTextNode(", "));
          bl.appendChild(document.createTextNode(bw[c] + " "));
          cardsText(bl, [c]);
        });
        contract.appendChild(bl);
      }
      if (st.fate) {
        contract.appendChild(el("span", "fate " + (st.fate.made ? "made" : "set"),
          " \u2014 " + (st.fate.made ? "made" : "SET") + " with " + st.fate.tricks + " tricks"));
      }
    }
    var dead = panel("dead", m.game === "pepper" && view === "all" && st.deal > 0 &&
      !!(m.deals[st.dealIndex] && m.deals[st.dealIndex].dead));
    if (!dead.hidden) {
      dead.appendChild(el("span", "panel-head", "dead hand (nobody's, face down): "));
      m.deals[st.dealIndex].dead.forEach(function (c) { dead.appendChild(cardEl(c)); });
    }

    // the deal's end: Il Pigugnin's busche, points, the score
    var busche = panel("busche", m.game === "pigugnin" && (st.busche.length > 0 || st.notricks.length > 0 ||
      !!st.cardPoints));
    if (!busche.hidden) {
      busche.appendChild(el("div", "panel-head", "busche"));
      if (st.cardPoints) busche.appendChild(el("div", "", "card points: " + st.cardPoints.map(function (p, s) {
        return who(m, s) + " " + p; }).join(", ")));
      if (st.notricks.length) busche.appendChild(el("div", "", "no trick for " + st.notricks.map(function (s) {
        return who(m, s); }).join(", ") + ": points are not counted"));
      st.busche.forEach(function (b) {
        var e = el("div", "busca", who(m, b.seat) + " pays " + b.count + " (" + b.reason.replace(/_/g, " ") + ")");
        e.dataset.seat = String(b.seat);
        e.dataset.reason = b.reason;
        e.dataset.count = String(b.count);
        busche.appendChild(e);
      });
    }
    var end = panel("deal-end", !!st.dealScore);
    if (st.dealScore) {
      end.appendChild(el("div", "panel-head", "deal " + st.deal + " scored"));
      end.appendChild(el("div", "", st.dealScore.map(function (p, s) { return who(m, s) + " " + signed(p); })
        .join("  \u00b7  ")));
      st.cappotto.forEach(function (s) { end.appendChild(el("div", "cappotto", "CAPPOTTO by " + who(m, s))); });
      var deal = m.deals[st.dealIndex];
      if (deal && deal.notes && deal.notes.length) end.appendChild(el("div", "notes", deal.notes.join("; ")));
    }
  }

  function bidText(b) {
    if (b === "pass") return "pass";
    if (b === "small") return "small pepper";
    if (b === "big") return "big pepper";
    return b;
  }

  /* ---- the log of the deal */

  function moveWords(m, mv) {
    var out = el("span", "what");
    var t = mv.token;
    if (mv.kind === "pass") {
      if (t === null) {
        out.textContent = "passes 3 cards";
      } else {
        out.appendChild(document.createTextNode("passes "));
        cardsText(out, t.split("+"));
        if (mv.passTo !== undefined) out.appendChild(document.createTextNode(" to " + who(m, mv.passTo)));
      }
      return out;
    }
    if (t === null) { out.textContent = mv.kind; return out; }
    if (mv.kind === "bid") { out.textContent = m.game === "seep" ? "bids " + t : (t === "pass" ? "passes" : "bids " + bidText(t)); return out; }
    if (mv.kind === "trump") {
      if (t === "NT" || !SYMBOL[t]) { out.textContent = t === "NT" ? "names no trump" : "names " + t; return out; }
      out.appendChild(document.createTextNode("names trump "));
      out.appendChild(el("span", "sym" + (t === "H" || t === "D" ? " red" : ""), SYMBOL[t]));
      return out;
    }
    if (isCard(t)) { out.appendChild(document.createTextNode("plays ")); cardsText(out, [t]); return out; }
    seepWords(out, t);
    return out;
  }

  /* ``take:JS:2C+3D+6H,h11`` as ``takes with J♠: 2♣ 3♦ 6♥ | house 11``, as replay writes it. */
  function seepWords(out, token) {
    var parts = token.split(":");
    var verb = parts[0];
    var add = function (s) { out.appendChild(document.createTextNode(s)); };
    var groups = function (text) {
      text.split(",").forEach(function (g, i) {
        if (i) add(" | ");
        if (g[0] === "h") add("house " + g.slice(1)); else cardsText(out, g.split("+"));
      });
    };
    if (verb === "throw") { add("throws "); cardsText(out, [parts[1]]); return; }
    if (verb === "take") { add("takes with "); cardsText(out, [parts[1]]); add(": "); groups(parts[2] || ""); return; }
    if (verb === "build" || verb === "cement") { add((verb === "build" ? "builds " : "cements ") + parts[1] + ": "); groups(parts[2] || ""); return; }
    if (verb === "break") {
      var rest = (parts[2] || "").split(",");
      add("breaks house " + parts[1] + " with ");
      cardsText(out, [rest[0]]);
      if (rest.length > 1) { add(", taking in "); groups(rest.slice(1).join(",")); }
      return;
    }
    add(token);
  }

  function noteText(m, w) {
    switch (w[0]) {
      case "taken": return "trick " + w[1] + " to " + who(m, +w[2]) + (m.game === "pepper" ? "" : " (" + w[3] + ")");
      case "cappotto": return "cappotto by " + who(m, +w[1]);
      case "seep": return "SEEP +" + w[2];
      case "leftover": return "leftover to " + (w[1] === "-" ? "nobody" : who(m, +w[1]));
      case "made": return "made " + bidText(w[2]) + " with " + w[3] + " tricks";
      case "set": return "SET: " + bidText(w[2]) + " with " + w[3] + " tricks";
      case "contract": return "contract " + bidText(w[2]) + " by " + who(m, +w[1]);
      case "allpass": return "everybody passed";
      case "void": return "void deal";
      case "score": return "deal scored";
      default: return w.join(" ");
    }
  }

  function faultEl(m, f) {
    var e = el("li", "fault");
    e.dataset.kind = f.kind;
    e.dataset.seat = String(f.seat);
    e.dataset.step = String(f.step);
    var where = f.deal === 0 ? "before the first deal" : "deal " + f.deal + ", move " + (f.move + 1);
    e.appendChild(el("span", "fault-head", "fault: " + who(m, f.seat) + " " + f.kind + " (" + where + "): "));
    e.appendChild(el("span", "fault-detail", f.detail));
    return e;
  }

  function drawLog(m, st) {
    var log = clear($("log"));
    var first = st.deal ? m.dealStart[st.dealIndex] : 0;
    var faults = function (s, after) {
      (m.faultsAt[s] || []).forEach(function (f) {
        if (after === undefined || !!f.after === after) log.appendChild(faultEl(m, f));
      });
    };
    faults(first);  // at the match's start or the deal's: no move there
    st.log.forEach(function (mv) {
      faults(mv.step, false);
      var li = el("li", "move entry" + (mv.fallback ? " fallback" : "") + (mv.capture ? " capture" : "") +
        (mv.seep !== undefined ? " seep" : "") + (mv.step === st.step ? " current" : ""));
      li.value = mv.index + 1;  // the move's number in the deal, as replay and verify count moves
      li.dataset.step = String(mv.step);
      li.dataset.seat = String(mv.seat);
      li.dataset.kind = mv.kind;
      if (mv.token !== null) li.dataset.move = mv.token;
      li.appendChild(el("span", "who", who(m, mv.seat) + " "));
      li.appendChild(moveWords(m, mv));
      if (mv.fallback) li.appendChild(el("span", "fallback-mark", " (fallback player)"));
      mv.notes.forEach(function (w) {
        if (w[0] === "contract" && m.game === "pepper") return;
        li.appendChild(el("span", "note" + (w[0] === "seep" ? " seep" : ""), " \u2014 " + noteText(m, w)));
      });
      log.appendChild(li);
      faults(mv.step, true);  // where an aborted match stopped: after its last move
    });
    scrollLater();
  }

  /* ---- the scores and the chart */

  /* How many deals are over at a state: every deal before the current one, and the current
   * one once its score has been reached. The scores and the chart show no more than these, so
   * stepping through a match does not tell how a deal ends before it has. */
  function dealsDone(st) {
    if (!st.deal) return 0;
    return st.dealIndex + (st.dealScore !== null ? 1 : 0);
  }

  /* One column per seat, headed by the seat's number (its colour, as at the table) over its
   * name, cut to the column's width; the whole name is the header's title. */
  function buildScores(m) {
    var table = clear($("scores"));
    scoreMark = null;
    var cols = el("colgroup");
    cols.appendChild(el("col", "deal-col"));
    for (var i = 0; i < m.players; i++) cols.appendChild(el("col"));
    table.appendChild(cols);
    var head = el("tr");
    head.appendChild(el("th", "deal-col", "deal"));
    m.names.forEach(function (name, seat) {
      var th = el("th");
      th.dataset.seat = String(seat);
      th.title = who(m, seat);
      var num = el("span", "num", seat);
      num.style.setProperty("--colour", COLOURS[seat % COLOURS.length]);
      th.appendChild(num);
      th.appendChild(el("span", "seat-name", name));
      head.appendChild(th);
    });
    var thead = el("thead");
    thead.appendChild(head);
    table.appendChild(thead);
    var body = el("tbody");
    m.deals.forEach(function (deal) {
      var tr = el("tr", "future");
      tr.dataset.deal = String(deal.number);
      tr.appendChild(el("td", "deal-col", deal.number));
      for (var seat = 0; seat < m.players; seat++) {
        var td = el("td");
        if (deal.points && deal.totals) {
          // the deal's points, then the total after it: on one line when the column is wide
          // enough, else the points over the total
          td.appendChild(el("span", "pts", signed(deal.points[seat])));
          td.appendChild(document.createTextNode(" "));
          td.appendChild(el("span", "tot", deal.totals[seat]));
          td.title = who(m, seat) + ": " + signed(deal.points[seat]) + " in deal " + deal.number + ", total " +
            deal.totals[seat];
        } else {
          td.textContent = "\u2013";
        }
        tr.appendChild(td);
      }
      if (deal.notes && deal.notes.length) tr.title = deal.notes.join("; ");
      body.appendChild(tr);
    });
    table.appendChild(body);
  }

  /* Shows the rows of the deals that are over and the current deal's row (its cells empty
   * until it is scored); later deals are not shown. Only the rows between the deal marked
   * before and this one are touched (a 500-deal table is not restyled per move). */
  var scoreMark = null;

  function markScores(m, st) {
    var body = $("scores").tBodies[0];
    var rows = body ? body.rows : [];
    var now = st.deal ? st.dealIndex : -1;
    var scored = st.dealScore !== null;
    var lo = scoreMark === null ? 0 : Math.max(0, Math.min(scoreMark, now));
    var hi = scoreMark === null ? rows.length - 1 : Math.min(rows.length - 1, Math.max(scoreMark, now));
    for (var d = lo; d <= hi; d++) {
      var isCur = d === now;
      rows[d].classList.toggle("current", isCur);
      rows[d].classList.toggle("pending", isCur && !scored);
      rows[d].classList.toggle("future", d > now);
    }
    if (scoreMark !== now) scrollLater();
    scoreMark = now;
  }

  /* Scrolling the log and the scores to the current lines waits for the next frame: reading
   * the layout in goto() would lay the whole page out at every step. The log, scrolled to its
   * end, starts with a whole line: the room a line would have been cut in is left at its
   * bottom. */
  var scrollPending = false;

  function scrollLater() {
    if (scrollPending || typeof requestAnimationFrame !== "function") return;
    scrollPending = true;
    requestAnimationFrame(function () {
      scrollPending = false;
      var log = $("log");
      log.style.paddingBottom = "";
      var room = log.clientHeight;
      if (log.scrollHeight > room) {
        var used = 0, items = log.children;
        for (var i = items.length - 1; i >= 0; i--) {
          var h = items[i].offsetHeight;
          if (used + h > room) break;
          used += h;
        }
        if (room - used > 0) log.style.paddingBottom = (room - used) + "px";
      }
      log.scrollTop = log.scrollHeight;
      var row = $("scores").querySelector("tr.current");
      var box = $("scores-box");
      if (row) box.scrollTop = Math.max(0, row.offsetTop - box.clientHeight / 2);
    });
  }

  function svg(tag, attrs, text) {
    var e = document.createElementNS(SVG_NS, tag);
    Object.keys(attrs || {}).forEach(function (k) { e.setAttribute(k, String(attrs[k])); });
    if (text !== undefined) e.textContent = text;
    return e;
  }

  /* The lines of the chart: one per side whose seats always have the same totals (partners,
   * as in Pepper and Seep with 4 players), else one per seat; each with the totals before the
   * first deal (0) and after each deal. */
  function chartSeries(m) {
    if (m._series) return m._series;
    var totals = function (seat) {
      var a = [0];
      m.deals.forEach(function (deal) { a.push(deal.totals ? deal.totals[seat] : a[a.length - 1]); });
      return a;
    };
    var grouped = {}, series = [];
    (m.teams || []).forEach(function (team) {
      if (team.length < 2) return;
      var first = totals(team[0]);
      var same = team.every(function (s) {
        return totals(s).every(function (v, d) { return v === first[d]; });
      });
      if (!same) return;
      team.forEach(function (s) { grouped[s] = true; });
      series.push({ seats: team.slice(), values: first });
    });
    for (var s = 0; s < m.players; s++) if (!grouped[s]) series.push({ seats: [s], values: totals(s) });
    series.sort(function (a, b) { return a.seats[0] - b.seats[0]; });
    series.forEach(function (a) {
      var cut = a.seats.length > 1 ? 16 : 10;
      var short = function (s) { var n = m.names[s]; return n.length > cut ? n.slice(0, cut - 1) + "\u2026" : n; };
      a.label = a.seats.join("+") + ":" + (a.seats.length > 1 ? " " : "") + a.seats.map(short).join(" & ");
      a.title = a.seats.map(function (s) { return who(m, s); }).join(" & ");
    });
    m._series = series;
    return series;
  }

  /* The chart of the totals over the deals that are over: the x axis spans the whole match
   * (its number of deals is no secret: the deal list shows it), the y axis the totals drawn so
   * far, so that its scale tells nothing of the deals to come. Drawn again only when another
   * deal is over; a step moves its marker of the current deal. */
  function drawChart(m, st) {
    var chart = $("chart");
    var done = dealsDone(st);
    if (chart._match !== m || chart._done !== done) buildChart(m, done);
    var mark = $("chart-now");
    var d = st.deal ? (st.dealScore !== null ? st.dealIndex + 1 : st.dealIndex + 0.5) : 0;
    mark.setAttribute("x1", chart._x(d));
    mark.setAttribute("x2", chart._x(d));
  }

  function buildChart(m, done) {
    var chart = clear($("chart"));
    var series = chartSeries(m);
    var W = 360, L = 40, R = 8, T = 10, P = 140, CHAR = 6;
    // the legend, in as many rows as its entries need
    var rows = [[]], x = 8;
    series.forEach(function (a) {
      var width = a.seats.length * 10 + 4 + a.label.length * CHAR;
      if (x > 8 && x + width > W - 8) { rows.push([]); x = 8; }
      rows[rows.length - 1].push({ a: a, x: x });
      x += width + 14;
    });
    var legendTop = T + P + 30;
    var H = legendTop + 13 * (rows.length - 1) + 6;
    chart.setAttribute("viewBox", "0 0 " + W + " " + H);
    var lo = 0, hi = 0;
    series.forEach(function (a) {
      for (var d = 0; d <= done; d++) { lo = Math.min(lo, a.values[d]); hi = Math.max(hi, a.values[d]); }
    });
    if (hi === lo) hi = lo + 1;
    var nd = Math.max(1, m.deals.length);
    var X = function (d) { return L + (W - L - R) * d / nd; };
    var Y = function (v) { return T + P * (hi - v) / (hi - lo); };
    chart.appendChild(svg("rect", { x: L, y: T, width: W - L - R, height: P, "class": "plot" }));
    [lo, 0, hi].filter(function (v, i, a) { return a.indexOf(v) === i; }).forEach(function (v) {
      chart.appendChild(svg("line", { x1: L, x2: W - R, y1: Y(v), y2: Y(v), "class": v === 0 ? "axis zero" : "axis" }));
      chart.appendChild(svg("text", { x: L - 4, y: Y(v) + 4, "text-anchor": "end", "class": "tick" }, String(v)));
    });
    chart.appendChild(svg("text", { x: L, y: T + P + 14, "class": "tick" }, "0"));
    chart.appendChild(svg("text", { x: W - R, y: T + P + 14, "text-anchor": "end", "class": "tick" },
      "deal " + m.deals.length));
    series.forEach(function (a) {
      if (!done) return;
      var pts = a.values.slice(0, done + 1).map(function (v, d) { return X(d).toFixed(1) + "," + Y(v).toFixed(1); });
      var line = svg("polyline", { points: pts.join(" "), fill: "none", stroke: COLOURS[a.seats[0] % COLOURS.length],
        "stroke-width": 1.8, "class": "series", "data-seats": a.seats.join(",") });
      line.appendChild(svg("title", {}, a.title));
      chart.appendChild(line);
    });
    rows.forEach(function (row, r) {
      var y = legendTop + 13 * r;
      row.forEach(function (item) {
        var g = svg("g", { "class": "entry", "data-seats": item.a.seats.join(",") });
        g.appendChild(svg("title", {}, item.a.title));
        item.a.seats.forEach(function (s, i) {
          g.appendChild(svg("rect", { x: item.x + 10 * i, y: y - 8, width: 8, height: 8, fill: COLOURS[s % COLOURS.length] }));
        });
        g.appendChild(svg("text", { x: item.x + 10 * item.a.seats.length + 3, y: y, "class": "legend" }, item.a.label));
        chart.appendChild(g);
      });
    });
    chart.appendChild(svg("line", { id: "chart-now", x1: L, x2: L, y1: T, y2: T + P, "class": "now" }));
    if (!done) {
      chart.appendChild(svg("text", { x: L + (W - L - R) / 2, y: T + P / 2, "text-anchor": "middle", "class": "none" },
        m.deals.length ? "no deal scored yet" : "no deal was played"));
    }
    chart.dataset.deals = String(m.deals.length);
    chart.dataset.shown = String(done);
    chart._x = X;
    chart._match = m;
    chart._done = done;
  }

  var STOPPED = {aborted: "aborted by the fault policy: no result",
                 interrupted: "interrupted (Ctrl-C or SIGTERM) before its end: no result"};

  function drawResult(m, st) {
    var box = clear($("result"));
    if (st.step !== m.nsteps - 1) return;
    var r = m.result;
    if (!r) { box.textContent = STOPPED[m.status] || ""; return; }
    var list = function (seats) { return seats.length ? seats.map(function (s) { return who(m, s); }).join(", ") : "-"; };
    box.appendChild(el("div", "", "final: " + r.scores.map(function (v, s) { return who(m, s) + " " + v; }).join("  ")));
    if (r.annulled) { box.appendChild(el("div", "", "the match is annulled: nobody wins or loses")); return; }
    box.appendChild(el("div", "", "winners: " + list(r.winners) + "   losers: " + list(r.losers) +
      (r.draws.length ? "   draws: " + list(r.draws) : "")));
    if (r.forfeits.length) box.appendChild(el("div", "", "forfeits: " + list(r.forfeits)));
    if (m.adjudicated) box.appendChild(el("div", "", "adjudicated at the deal limit, by the totals"));
  }

  /* ---- position, navigation */

  function positionText(m, st) {
    var parts = [];
    if (data.matches.length > 1) parts.push("match " + (cur.match + 1) + " of " + data.matches.length);
    if (!st.deal) {
      parts.push("before the first deal");
    } else {
      var deal = m.deals[st.dealIndex];
      parts.push("deal " + st.deal + " of " + m.deals.length);
      var moves = deal.steps.length - 1;
      parts.push(st.move ? "move " + (st.move.index + 1) + " of " + moves : "dealt (" + moves + " moves)");
    }
    parts.push("step " + st.step + " of " + (m.nsteps - 1));
    parts.push(cur.view === "all" ? "every hand shown" : "as seat " + cur.view + " saw it");
    return parts.join(" \u00b7 ");
  }

  function position() {
    if (cur.match < 0) return { match: 0, step: 0, deal: 0, move: null };
    var st = cur.state;
    return {
      match: cur.match, step: cur.step, deal: st ? st.deal : 0,
      move: st && st.move ? st.move.index : null
    };
  }

  function fragment() {
    return "m=" + cur.match + "&s=" + cur.step + "&v=" + cur.view;
  }

  /* Browsers ignore a page's address changes past about 200 in 10 seconds (and say so in
   * the console): past 150, the last position is written once the 10 seconds have passed. */
  var written = [];
  var pendingWrite = null;

  function writeFragment() {
    var text = "#" + fragment();
    if (location.hash === text) return;
    var now = Date.now();
    while (written.length && now - written[0] > 10000) written.shift();
    if (written.length >= 150) {
      if (pendingWrite === null) {
        pendingWrite = setTimeout(function () { pendingWrite = null; writeFragment(); }, 10050 - (now - written[0]));
      }
      return;
    }
    written.push(now);
    try {
      history.replaceState(null, "", text);
    } catch (e) {
      try { location.replace(text); } catch (e2) { /* a page without an address to change */ }
    }
  }

  function readFragment() {
    var out = {};
    location.hash.replace(/^#/, "").split("&").forEach(function (kv) {
      var i = kv.indexOf("=");
      if (i > 0) out[decodeURIComponent(kv.slice(0, i))] = decodeURIComponent(kv.slice(i + 1));
    });
    return out;
  }

  function parseView(v) {
    if (v === "all" || v === undefined || v === null || v === "") return "all";
    var n = typeof v === "number" ? v : (/^[0-9]+$/.test(String(v)) ? +v : NaN);
    return n === n ? n : null;
  }

  function allowedView(m, v) {
    if (restricted !== null) return restricted;
    if (v === "all") return "all";
    return typeof v === "number" && v >= 0 && v < m.players ? v : "all";
  }

  function selectMatch(mi) {
    cur.match = mi;
    cur.state = null;
    var m = data.matches[mi];
    $("match").value = String(mi);
    var problem = matchProblem(m);
    if (problem) {
      showError(problem);
      return false;
    }
    showError(problems.length ? problems.join("\n") : "");
    prepare(m);
    buildSeats(m);
    buildScores(m);
    $("chart")._match = null;
    var dealSel = clear($("deal"));
    var start = el("option", "", "start");
    start.value = "0";
    dealSel.appendChild(start);
    m.deals.forEach(function (deal, d) {
      var o = el("option", "", String(deal.number));
      o.value = String(m.dealStart[d]);
      dealSel.appendChild(o);
    });
    var viewSel = clear($("view"));
    if (restricted === null) {
      var all = el("option", "", "every hand");
      all.value = "all";
      viewSel.appendChild(all);
    }
    for (var s = 0; s < m.players; s++) {
      if (restricted !== null && s !== restricted) continue;
      var o = el("option", "", "as seat " + s + ":" + m.names[s]);
      o.value = String(s);
      viewSel.appendChild(o);
    }
    viewSel.disabled = restricted !== null;
    $("slider").max = String(m.nsteps - 1);
    document.body.dataset.game = m.game;
    var about = "";
    about += m.title + ", variant " + m.variant + ", " + m.players + " players, seed " + m.seed;
    if (m.tournament !== null && m.tournament !== undefined) about += ", tournament match " + m.tournament;
    about += "; " + m.where + "; written by " + m.software + " (record format " + m.format_version + ")";
    $("about").textContent = about;
    return true;
  }

  function show(mi, s, view) {
    if (!data) return position();
    try {
      return draw(mi, s, view);
    } catch (err) {
      showError("the viewer failed at match " + mi + ", step " + s + ": " + (err && err.message ? err.message : err));
      return position();
    }
  }

  function draw(mi, s, view) {
    mi = Math.max(0, Math.min(data.matches.length - 1, mi | 0));
    if (mi !== cur.match && !selectMatch(mi)) { clearTable(); return position(); }
    var m = data.matches[mi];
    if (matchProblem(m)) { showError(matchProblem(m)); clearTable(); return position(); }
    var v = allowedView(m, view === undefined ? cur.view : view);
    if (v !== cur.view || !cur.state) placeSeats(m, v);
    s = Math.max(0, Math.min(m.nsteps - 1, s | 0));
    var prev = cur.state && cur.view === v ? cur.state : null;
    var st = stateAt(m, s, v, prev);
    cur.view = v;
    cur.step = s;
    cur.state = st;
    $("view").value = String(v);
    drawSeats(m, st, v);
    drawCentre(m, st, v);
    drawLog(m, st);
    markScores(m, st);
    drawChart(m, st);
    drawResult(m, st);
    var pos = $("position");
    clear(pos).appendChild(el("span", "", positionText(m, st)));
    (m.faultsAt[s] || []).forEach(function (f) {
      pos.appendChild(el("span", "fault-now", " \u26a0 " + who(m, f.seat) + " " + f.kind + ": " + f.detail));
    });
    $("slider").value = String(s);
    $("deal").value = String(st.deal ? m.dealStart[st.dealIndex] : 0);
    document.body.dataset.view = String(v);
    writeFragment();
    return position();
  }

  function clearTable() {
    cur.state = null;
    var table = $("table");
    removeSeats(table);
    ["trick", "last-trick", "floor", "floor-hidden", "auction", "contract", "pass", "dead", "deal-end", "busche",
      "capture", "bid", "log", "scores", "chart", "result", "deal-info"].forEach(function (id) { clear($(id)); });
    $("chart")._match = null;
  }

  function go(delta) {
    show(cur.match, cur.step + delta);
  }

  function dealJump(dir) {
    var m = match();
    if (!m || !m._ready) return;
    var at = locate(m, cur.step);
    if (dir < 0) {
      if (at.deal < 0) return;
      if (at.i > 0) show(cur.match, m.dealStart[at.deal]);
      else show(cur.match, at.deal > 0 ? m.dealStart[at.deal - 1] : 0);
    } else {
      show(cur.match, at.deal + 1 < m.dealStart.length ? m.dealStart[at.deal + 1] : m.nsteps - 1);
    }
  }

  function trickJump(dir) {
    var m = match();
    if (!m || !m._ready) return;
    var stops = m.trickStops, s = cur.step, target = null, i;
    if (dir > 0) {
      for (i = 0; i < stops.length; i++) if (stops[i] > s) { target = stops[i]; break; }
      show(cur.match, target === null ? m.nsteps - 1 : target);
    } else {
      for (i = stops.length - 1; i >= 0; i--) if (stops[i] < s) { target = stops[i]; break; }
      var at = locate(m, s);
      var start = at.deal >= 0 ? m.dealStart[at.deal] : 0;
      show(cur.match, target === null || (target < start && s > start) ? start : target);
    }
  }

  function playing() {
    return timer !== null;
  }

  function setPlaying(on) {
    if (timer !== null) { clearInterval(timer); timer = null; }
    if (on) {
      timer = setInterval(function () {
        var m = match();
        if (!m || cur.step >= m.nsteps - 1) { setPlaying(false); return; }
        go(1);
      }, +$("speed").value || 500);
    }
    var play = $("play");
    play.querySelector(".ic").textContent = on ? "||" : "\u25b6";
    play.querySelector(".word").textContent = on ? "pause" : "play";
    $("play").setAttribute("aria-pressed", on ? "true" : "false");
  }

  function onKey(e) {
    var tag = e.target && e.target.tagName;
    if (tag === "SELECT" || tag === "TEXTAREA" || (tag === "INPUT" && e.target.type !== "range")) return;
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    var m = match();
    var done = true;
    switch (e.key) {
      case "ArrowRight": if (e.shiftKey) trickJump(1); else go(1); break;
      case "ArrowLeft": if (e.shiftKey) trickJump(-1); else go(-1); break;
      case "ArrowDown": case "PageDown": dealJump(1); break;
      case "ArrowUp": case "PageUp": dealJump(-1); break;
      case " ": case "Spacebar": setPlaying(!playing()); break;
      case "Home": show(cur.match, 0); break;
      case "End": if (m) show(cur.match, (m.nsteps || 1) - 1); break;
      default: done = false;
    }
    if (done) e.preventDefault();
  }

  var problems = [];

  function init() {
    var block = $("cardcli-data");
    try {
      data = JSON.parse(block ? block.textContent : "null");
    } catch (err) {
      data = null;
      showError("the page's match data cannot be read: " + err.message);
      return;
    }
    var problem = problemOf(data);
    if (problem) { showError(problem); data = null; return; }
    restricted = typeof data.seat === "number" ? data.seat : null;
    problems = [];
    data.matches.forEach(function (m) {
      var p = matchProblem(m);
      if (p) problems.push(p);
    });
    var pick = $("match");
    data.matches.forEach(function (m, i) {
      var label = (i + 1) + ": " + (m.title || m.game) + " seed " + m.seed;
      if (m.tournament !== null && m.tournament !== undefined) label += " (tournament match " + m.tournament + ")";
      if (matchProblem(m)) label += " (cannot be shown)";
      var o = el("option", "", label);
      o.value = String(i);
      pick.appendChild(o);
    });
    $("match-pick").hidden = data.matches.length < 2;
    pick.addEventListener("change", function () { setPlaying(false); show(+pick.value, 1, cur.view); });
    $("view").addEventListener("change", function () { show(cur.match, cur.step, parseView($("view").value)); });
    $("first").addEventListener("click", function () { show(cur.match, 0); });
    $("last").addEventListener("click", function () { var m = match(); show(cur.match, m && m.nsteps ? m.nsteps - 1 : 0); });
    $("prev").addEventListener("click", function () { go(-1); });
    $("next").addEventListener("click", function () { go(1); });
    $("prev-trick").addEventListener("click", function () { trickJump(-1); });
    $("next-trick").addEventListener("click", function () { trickJump(1); });
    $("prev-deal").addEventListener("click", function () { dealJump(-1); });
    $("next-deal").addEventListener("click", function () { dealJump(1); });
    $("play").addEventListener("click", function () { setPlaying(!playing()); });
    $("speed").addEventListener("change", function () { if (playing()) setPlaying(true); });
    $("deal").addEventListener("change", function () { show(cur.match, +$("deal").value); });
    $("slider").addEventListener("input", function () { show(cur.match, +$("slider").value); });
    document.addEventListener("keydown", onKey);
    window.addEventListener("hashchange", function () { fromFragment(); });
    if (problems.length) showError(problems.join("\n"));
    fromFragment(true);
  }

  function fromFragment(first) {
    var f = readFragment();
    var mi = /^[0-9]+$/.test(f.m || "") ? +f.m : 0;
    mi = Math.min(mi, data.matches.length - 1);
    var m = data.matches[mi];
    var s = /^[0-9]+$/.test(f.s || "") ? +f.s : null;
    if (s === null) s = first || mi !== cur.match ? (m && m.deals && m.deals.length ? 1 : 0) : cur.step;
    var v = parseView(f.v);
    if (v === null) v = "all";
    if (!first && mi === cur.match && s === cur.step && v === cur.view) return;
    show(mi, s, v);
  }

  window.cardcliViewer = {
    matches: function () { return data ? data.matches.length : 0; },
    steps: function (m) {
      var x = data && data.matches[m];
      if (!x || matchProblem(x)) return 0;
      return prepare(x).nsteps;
    },
    goto: function (m, s) { return show(m, s); },
    position: position,
    view: function (v) {
      if (arguments.length && data) {
        var pv = parseView(v);
        if (pv !== null) show(cur.match < 0 ? 0 : cur.match, cur.step, pv);
      }
      return cur.view;
    },
    state: function () { return cur.state ? clone(cur.state) : null; }
  };

  try {
    init();
  } catch (err) {
    showError("the viewer failed: " + (err && err.message ? err.message : String(err)));
  }
})();
