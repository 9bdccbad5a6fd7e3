/* cardcli match viewer, the page: draws the core's table state (viewer.js) and moves through
 * the steps. It runs after the core and the scripts of the page's games (the page's one inline
 * script is viewer.js, then each game's script, then this file), so every game's hooks are
 * registered when it starts. It names no game: what a game adds to the table it draws through
 * the hooks the game registered (docs/viewer.md, "A game's part of the viewer"); a game without
 * hooks gets the core's table (the seats, the trick in progress and the last trick taken). */
(function (V) {
  "use strict";

  if (!V || typeof document === "undefined") return;

  var isCard = V.isCard, rankText = V.rankText, cardText = V.cardText, hooksOf = V.hooksOf;
  var SYMBOL = V.SYMBOL, SUIT_NAME = V.SUIT_NAME;
  var prepare = V.prepare, locate = V.locate, stateAt = V.stateAt, clone = V.clone;
  var problemOf = V.problemOf, matchProblem = V.matchProblem;

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
      var side = sideOf(m, seat);
      if (side) {
        // partners: the same mark and colour on each, and each names the other
        sec.classList.add("partnered");
        sec.dataset.side = String(side.index);
        sec.style.setProperty("--side", SIDE_COLOURS[side.index % SIDE_COLOURS.length]);
        var mark = el("span", "side-mark", "side " + SIDE_NAMES[side.index % SIDE_NAMES.length] + " \u00b7 with " +
          side.partners.map(function (p) { return who(m, p); }).join(", "));
        mark.title = "partners: " + side.seats.map(function (p) { return who(m, p); }).join(" & ");
        head.appendChild(mark);
      }
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

  /* The side a seat plays on when it has partners (a team of two or more: Pepper and Seep with
   * 4 players): {index, seats, partners}; null for a seat that plays alone. */
  var SIDE_COLOURS = ["#7a4fd6", "#e07800", "#0f8f8f"];
  var SIDE_NAMES = ["A", "B", "C"];

  function sideOf(m, seat) {
    var sides = (m.teams || []).filter(function (t) { return t.length > 1; });
    for (var i = 0; i < sides.length; i++) {
      if (sides[i].indexOf(seat) >= 0) {
        return { index: i, seats: sides[i], partners: sides[i].filter(function (s) { return s !== seat; }) };
      }
    }
    return null;
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
    var g = hooksOf(m.game);
    var forfeit = forfeits(m, st.step);
    document.querySelectorAll("#table section.seat").forEach(function (sec) {
      var seat = +sec.dataset.seat;
      sec.querySelector(".total").textContent = String(st.totals[seat]);
      var badges = clear(sec.querySelector(".badges"));
      if (st.deal && st.dealer === seat) badges.appendChild(el("span", "badge dealer", "dealer"));
      (g.badges ? g.badges(m, st, seat) || [] : []).forEach(function (b) {
        badges.appendChild(el("span", "badge " + b[0], b[1]));
      });
      if (forfeit[seat]) badges.appendChild(el("span", "badge forfeit", forfeit[seat]));
      sec.classList.toggle("forfeit", !!forfeit[seat]);
      sec.classList.toggle("viewer", view === seat);
      sec.classList.toggle("to-move", !!(st.move && st.move.seat === seat));
      var lead = st.trick.length ? st.trick[0].seat : st.leader;
      sec.classList.toggle("leader", st.trick.length < m.players && lead === seat && st.trickNo > 0);
      var info = clear(sec.querySelector(".info"));
      var bits = [];
      if (g.tricks !== false && st.deal) {
        bits.push("tricks " + st.tricks[seat]);
        if (g.trickPoints !== false) bits.push("points " + st.taken[seat]);
      }
      if (g.seatInfo) bits = bits.concat(g.seatInfo(m, st, seat) || []);
      if (st.dealScore) bits.push("deal " + signed(st.dealScore[seat]));
      info.textContent = bits.join(" \u00b7 ");
      var hand = clear(sec.querySelector(".hand"));
      if (st.hands[seat] !== null) {
        st.hands[seat].forEach(function (c) {
          var mark = g.cardMark ? g.cardMark(m, st, c, "hand", seat) : null;
          var ce = cardEl(c, null, mark && mark.cls);
          if (mark && mark.title) ce.title += " (" + mark.title + ")";
          hand.appendChild(ce);
        });
      } else {
        for (var i = 0; i < st.counts[seat]; i++) hand.appendChild(backEl());
      }
      hand.dataset.count = String(st.hands[seat] !== null ? st.hands[seat].length : st.counts[seat]);
      fitHand(hand);
    });
  }

  /* A card of the trick in progress or of the last trick, with the game's mark (its class). */
  function trickCardEl(g, m, st, p) {
    var mark = g.cardMark ? g.cardMark(m, st, p.card, "trick", p.seat) : null;
    return cardEl(p.card, p.seat, mark && mark.cls);
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

  /* A suit's symbol (red for hearts and diamonds); null for anything else. */
  function suitEl(s) {
    if (!V.isSuit(s)) return null;
    return el("span", "sym" + (s === "H" || s === "D" ? " red" : ""), SYMBOL[s]);
  }

  /* What the page gives a game's drawing hooks: its helpers, which make elements whose text is
   * always text (never markup). */
  var ui = {
    el: el,                 // el(tag, class, text): an element
    card: cardEl,           // card(token, seat, class): a card face (data-card, and data-seat when given)
    back: backEl,           // back(): a card face down
    cards: cardsText,       // cards(parent, tokens, sep): appends tokens as card symbols ("Q\u2660")
    suit: suitEl,           // suit("H"): the suit's symbol
    text: function (parent, text) { parent.appendChild(document.createTextNode(text)); return parent; },
    who: who,               // who(m, seat): "2:bob"
    signed: signed,         // signed(3): "+3"
    panel: panel,           // panel(id, show): the game's element of that id, emptied, shown or hidden
    colour: function (seat) { return COLOURS[seat % COLOURS.length]; }
  };

  /* The elements a game draws into (its hooks' `panels`: {id, place, before, cls}), made when
   * one of its matches is shown and removed when another game's is: `place` is "corner" (the
   * table's corner, under the deal's line), "center" (the middle of the table) or "panels"
   * (below the table); `before` the id of an element there to come before (else at the end);
   * `cls` its class ("panel" unless given). Each starts empty and hidden. */
  var PLACES = { corner: "corner", center: "center", panels: "panels" };
  var mounted = [];

  function unmountPanels() {
    mounted.forEach(function (e) { if (e.parentNode) e.parentNode.removeChild(e); });
    mounted = [];
  }

  function mountPanels(m) {
    unmountPanels();
    (hooksOf(m.game).panels || []).forEach(function (spec) {
      var parent = $(PLACES[spec.place] || "panels");
      var e = el("div", spec.cls === undefined ? "panel" : spec.cls);
      e.id = spec.id;
      e.hidden = true;
      var before = spec.before ? $(spec.before) : null;
      parent.insertBefore(e, before && before.parentNode === parent ? before : null);
      mounted.push(e);
    });
  }

  function drawCentre(m, st, view) {
    var g = hooksOf(m.game);
    var trickGame = g.tricks !== false;
    var info = clear($("deal-info"));
    if (!st.deal) {
      info.textContent = cur.match >= 0 && m.deals.length ? "The match before its first deal" : "No deal was played";
    } else {
      var bits = ["Deal " + st.deal, "dealer " + who(m, st.dealer)];
      if (g.dealInfo) bits = bits.concat(g.dealInfo(ui, m, st) || []);
      if (trickGame && st.trickNo) bits.push("trick " + st.trickNo);
      info.textContent = bits.join(" \u00b7 ");
    }

    // the trick in progress, each card towards the seat that played it
    var trick = clear($("trick"));
    trick.hidden = !trickGame;
    st.trick.forEach(function (p) {
      var c = trickCardEl(g, m, st, p);
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
        (g.trickPoints === false ? "" : " (" + st.last.points + ")"));
      last.appendChild(head);
      var row = el("div", "cards");
      st.last.cards.forEach(function (p) { row.appendChild(trickCardEl(g, m, st, p)); });
      last.appendChild(row);
    }

    // the game's own panels
    if (g.draw) g.draw(ui, m, st, view);

    // the deal's end: the score
    var end = panel("deal-end", !!st.dealScore);
    if (st.dealScore) {
      end.appendChild(el("div", "panel-head", "deal " + st.deal + " scored"));
      end.appendChild(el("div", "", st.dealScore.map(function (p, s) { return who(m, s) + " " + signed(p); })
        .join("  \u00b7  ")));
      if (g.dealEnd) g.dealEnd(ui, m, st, end);
      var deal = m.deals[st.dealIndex];
      if (deal && deal.notes && deal.notes.length) end.appendChild(el("div", "notes", deal.notes.join("; ")));
    }
  }

  /* ---- the log of the deal */

  /* A move as people write it: the game's words when its moveText writes them, else a card
   * played ("plays Q\u2660"), or the kind of move and its token. */
  function moveWords(m, mv) {
    var out = el("span", "what");
    var g = hooksOf(m.game);
    if (g.moveText && g.moveText(ui, m, mv, out)) return out;
    var t = mv.token;
    if (t === null) { out.textContent = mv.kind; return out; }
    if (isCard(t)) { out.appendChild(document.createTextNode("plays ")); cardsText(out, [t]); return out; }
    out.textContent = mv.kind + " " + t;
    return out;
  }

  /* A line told after a move, as [text, class]: the game's words (noteText gives a text, or
   * [text, class], or null for a line it does not tell), else the core's. */
  function noteOf(g, m, w) {
    var said = g.noteText ? g.noteText(ui, m, w) : undefined;
    if (said === null) return null;
    if (Array.isArray(said)) return said;
    if (said !== undefined) return [said, ""];
    switch (w[0]) {
      case "taken": return ["trick " + w[1] + " to " + who(m, +w[2]) + (g.trickPoints === false ? "" : " (" + w[3] + ")"), ""];
      case "score": return ["deal scored", ""];
      default: return [w.join(" "), ""];
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
    var g = hooksOf(m.game);
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
      var li = el("li", "move entry" + (mv.fallback ? " fallback" : "") + (g.moveClass ? g.moveClass(mv) || "" : "") +
        (mv.step === st.step ? " current" : ""));
      li.value = mv.index + 1;  // the move's number in the deal, as replay and verify count moves
      li.dataset.step = String(mv.step);
      if (m.faultsAt[mv.step]) li.classList.add("at-fault");
      li.dataset.seat = String(mv.seat);
      li.dataset.kind = mv.kind;
      if (mv.token !== null) li.dataset.move = mv.token;
      li.appendChild(el("span", "who", who(m, mv.seat) + " "));
      li.appendChild(moveWords(m, mv));
      if (mv.fallback) li.appendChild(el("span", "fallback-mark", " (fallback player)"));
      if (mv.ms !== null && mv.ms !== undefined) {
        li.dataset.ms = String(mv.ms);
        var think = el("span", "ms", V.msText(mv.ms));
        think.title = "think time: the time charged for this move";
        li.appendChild(think);
      }
      mv.notes.forEach(function (w) {
        var note = noteOf(g, m, w);
        if (note) li.appendChild(el("span", "note" + (note[1] ? " " + note[1] : ""), " \u2014 " + note[0]));
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

  /* Each seat's think time as bars: how long it had thought by this step (dark) of its time
   * over the whole match (light, all seats on one scale), with its moves, mean and longest
   * move. Built once per match; a step moves the dark bars. */
  function drawTimes(m, st) {
    var chart = $("times");
    var T = m.thinking, n = m.players;
    if (chart._match !== m) {
      clear(chart);
      var ROW = 30, W = 360, L = 8, R = 8;
      chart.setAttribute("viewBox", "0 0 " + W + " " + (ROW * n + 4));
      var most = 0;
      T.forEach(function (t) { most = Math.max(most, t.total); });
      chart._scale = function (ms) { return most > 0 ? (W - L - R) * ms / most : 0; };
      chart._bars = [];
      T.forEach(function (t, seat) {
        var y = 4 + ROW * seat;
        var g = svg("g", { "class": "seat-time", "data-seat": seat, "data-total": t.total, "data-moves": t.moves });
        var mean = t.moves ? t.total / t.moves : 0;
        var words = who(m, seat) + ": " + V.msText(t.total) + " in " + t.moves + " moves" +
          (t.moves ? ", " + V.msText(mean) + " a move, longest " + V.msText(t.longest.ms) : "");
        g.appendChild(svg("title", {}, words));
        g.appendChild(svg("rect", { x: L, y: y + 14, width: Math.max(0.5, chart._scale(t.total)), height: 9, "class": "whole",
          fill: COLOURS[seat % COLOURS.length] }));
        var bar = svg("rect", { x: L, y: y + 14, width: 0, height: 9, "class": "so-far", fill: COLOURS[seat % COLOURS.length] });
        g.appendChild(bar);
        var label = svg("text", { x: L, y: y + 11, "class": "legend" }, "");
        g.appendChild(label);
        chart.appendChild(g);
        chart._bars.push({ bar: bar, label: label, g: g, words: words });
      });
      chart._match = m;
    }
    T.forEach(function (t, seat) {
      var now = t.upTo[st.step] || 0, b = chart._bars[seat];
      b.bar.setAttribute("width", chart._scale(now).toFixed(1));
      b.g.setAttribute("data-so-far", String(now));
      b.label.textContent = seat + ":" + m.names[seat].slice(0, 14) + "  " + V.msText(now) + " of " + V.msText(t.total) +
        (t.moves ? " \u00b7 longest " + V.msText(t.longest.ms) : "");
    });
  }

  /* The info lines each bot sent, kept with --keep-info: per seat, in its order, as text. The
   * record does not say at which move each came, so they are not shown at a move. */
  function drawInfo(m) {
    var box = $("info-lines");
    Array.prototype.slice.call(box.querySelectorAll(".seat-info")).forEach(function (e) { box.removeChild(e); });
    var info = Array.isArray(m.info) ? m.info : null;
    box.hidden = !info;
    if (!info) return;
    info.forEach(function (lines, seat) {
      var d = el("details", "seat-info");
      d.dataset.seat = String(seat);
      var sum = el("summary", "", who(m, seat) + ": " + lines.length + " info line" + (lines.length === 1 ? "" : "s"));
      d.appendChild(sum);
      var list = el("ol", "info-list");
      lines.forEach(function (text) { list.appendChild(el("li", "info-line", text)); });
      d.appendChild(list);
      if (lines.length && lines.length <= 20) d.open = true;
      box.appendChild(d);
    });
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
    mountPanels(m);
    buildSeats(m);
    buildScores(m);
    $("chart")._match = null;
    $("times")._match = null;
    drawInfo(m);
    buildMoments(m);
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

  /* ---- motion: a card played travels from its seat's hand to the table, and a trick taken
   * from the table to its taker, when the page steps one move on (a key, a button, play); in
   * the time of the chosen speed, and not at all where the reader asks for reduced motion
   * (prefers-reduced-motion: reduce). The table is drawn at its new state first: the motion is
   * the Web Animations API moving what is drawn (or copies of what was), so no state waits on
   * it, and the CSP's style rules are kept (no style is written into markup). */
  var motions = 0;

  function reducedMotion() {
    return typeof matchMedia === "function" && matchMedia("(prefers-reduced-motion: reduce)").matches;
  }

  /* How long a card travels: most of a move's time at the chosen speed, at most 0.45 s. */
  function motionTime() {
    var every = +$("speed").value || 500;
    return Math.max(60, Math.min(450, Math.round(every * 0.7)));
  }

  function centreOf(e) {
    var r = e.getBoundingClientRect();
    return { x: r.left + r.width / 2, y: r.top + r.height / 2 };
  }

  function seatSection(seat) {
    return document.querySelector('#table section.seat[data-seat="' + seat + '"]');
  }

  /* Before a step is drawn: where the cards of the trick in progress are (they leave the table
   * if the step takes the trick). */
  function motionBefore() {
    return Array.prototype.map.call(document.querySelectorAll("#trick .card[data-card]"), function (c) {
      var r = c.getBoundingClientRect();
      return { card: c.dataset.card, seat: c.dataset.seat, x: r.left, y: r.top, w: r.width, h: r.height };
    });
  }

  function noteMotion(kind, what, ms) {
    motions += 1;
    document.body.dataset.motions = String(motions);
    document.body.dataset.lastMotion = kind + " " + what + " " + ms;
  }

  /* The card the move of this step took from its seat's hand: the move's token when it is a
   * card, else the game's `spentCard(token)` (Seep's take, throw, build...). */
  function playedCard(m, st) {
    var mv = st.move;
    if (!mv || mv.token === null) return null;
    if (isCard(mv.token)) return mv.token;
    var g = hooksOf(m.game);
    var c = g.spentCard ? g.spentCard(mv.token) : null;
    return isCard(c) ? c : null;
  }

  function animateStep(m, st, before) {
    var D = motionTime();
    var mv = st.move;
    var hand = seatSection(mv.seat);
    hand = hand && hand.querySelector(".hand");
    if (!hand) return;
    var from = centreOf(hand);
    var card = playedCard(m, st);
    var target = card ? document.querySelector('#center .card[data-card="' + card + '"]') : null;
    if (target && !mv.taken) {
      var to = centreOf(target);
      var base = getComputedStyle(target).transform;
      base = base && base !== "none" ? base : "";
      var dx = from.x - to.x, dy = from.y - to.y;
      target.animate([{ transform: "translate(" + dx.toFixed(1) + "px, " + dy.toFixed(1) + "px) " + base },
                      { transform: base || "none" }], { duration: D, easing: "ease-out" });
      noteMotion("play", card + " from " + mv.seat + " " + Math.round(dx) + "," + Math.round(dy), D);
    }
    if (mv.taken) {
      var taker = seatSection(mv.taken.winner);
      if (!taker) return;
      var goal = centreOf(taker);
      var layer = $("motion");
      var ghosts = before.map(function (p) {
        return { card: p.card, seat: p.seat, x: p.x, y: p.y };
      });
      if (card) {
        var size = before.length ? before[0] : { w: 0, h: 0 };
        ghosts.push({ card: card, seat: mv.seat, x: from.x - size.w / 2, y: from.y - size.h / 2 });
      }
      ghosts.forEach(function (p) {
        var g = cardEl(p.card, p.seat, "ghost");
        g.style.left = p.x.toFixed(1) + "px";
        g.style.top = p.y.toFixed(1) + "px";
        layer.appendChild(g);
        var r = g.getBoundingClientRect();
        var dx = goal.x - (r.left + r.width / 2), dy = goal.y - (r.top + r.height / 2);
        var a = g.animate([{ transform: "none", opacity: 1 },
                           { transform: "translate(" + dx.toFixed(1) + "px, " + dy.toFixed(1) + "px) scale(.6)", opacity: 0.2 }],
                          { duration: D, easing: "ease-in", fill: "forwards" });
        a.onfinish = function () { if (g.parentNode) g.parentNode.removeChild(g); };
      });
      noteMotion("taken", "trick " + mv.taken.n + " to " + mv.taken.winner, D);
    }
  }

  /* A new step ends the motion of the one before: its copies of a trick leave the page. */
  function endMotion() {
    var layer = $("motion");
    if (layer) clear(layer);
  }

  function show(mi, s, view, moving) {
    if (!data) return position();
    endMotion();
    try {
      if (moving && !reducedMotion() && typeof Element.prototype.animate === "function" &&
          mi === cur.match && cur.state && s === cur.step + 1) {
        var before = motionBefore();
        var pos = draw(mi, s, view);
        if (cur.state && cur.state.move && cur.state.step === s) animateStep(data.matches[mi], cur.state, before);
        return pos;
      }
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
    if (st.move && st.move.ms !== null && st.move.ms !== undefined) {
      pos.appendChild(el("span", "think-now", " \u00b7 " + who(m, st.move.seat) + " thought " + V.msText(st.move.ms)));
    }
    (m.faultsAt[s] || []).forEach(function (f) {
      pos.appendChild(el("span", "fault-now", " \u26a0 " + who(m, f.seat) + " " + f.kind + ": " + f.detail));
    });
    drawTimes(m, st);
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
    unmountPanels();
    ["trick", "last-trick", "deal-end", "log", "scores", "chart", "times", "result", "deal-info"].forEach(function (id) {
      clear($(id));
    });
    $("chart")._match = null;
    $("times")._match = null;
    $("info-lines").hidden = true;
  }

  function go(delta) {
    show(cur.match, cur.step + delta, undefined, delta === 1);
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

  /* The moment kind chosen in the jump list (kept when another match is shown, where it has
   * that kind). */
  var momentKey = null;

  function buildMoments(m) {
    var sel = clear($("moment"));
    m.moments.forEach(function (k) {
      var o = el("option", "", k.label + " (" + k.steps.length + ")");
      o.value = k.key;
      o.dataset.steps = k.steps.join(",");
      sel.appendChild(o);
    });
    if (momentKey !== null && m.moments.some(function (k) { return k.key === momentKey; })) sel.value = momentKey;
    momentKey = sel.value;
    $("moment-status").textContent = "";
  }

  /* To the next (dir 1) or previous (-1) step of the chosen kind of moment; where there is
   * none, the status beside the buttons says so and the page stays. */
  function momentJump(dir) {
    var m = match();
    if (!m || !m._ready) return;
    var key = $("moment").value, kind = null;
    m.moments.forEach(function (k) { if (k.key === key) kind = k; });
    if (!kind) return;
    var target = null, i, steps = kind.steps;
    if (dir > 0) {
      for (i = 0; i < steps.length; i++) if (steps[i] > cur.step) { target = steps[i]; break; }
    } else {
      for (i = steps.length - 1; i >= 0; i--) if (steps[i] < cur.step) { target = steps[i]; break; }
    }
    if (target === null) {
      $("moment-status").textContent = steps.length ? "no " + (dir > 0 ? "later" : "earlier") + " " + kind.label
        : "no " + kind.label + " in this match";
      return;
    }
    show(cur.match, target);
    $("moment-status").textContent = kind.label + ": " + (steps.indexOf(target) + 1) + " of " + steps.length;
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
    if (standingsShown()) return;  // the standings page: the keys are the browser's
    if (tag === "BUTTON" && (e.key === " " || e.key === "Enter")) return;  // a focused button's own key
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
      case "]": momentJump(1); break;
      case "[": momentJump(-1); break;
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
    problems = V.scriptProblems.slice();  // a game's script that failed as the page ran it
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
    pick.addEventListener("change", function () { setPlaying(false); setStandings(false); show(+pick.value, 1, cur.view); });
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
    $("prev-moment").addEventListener("click", function () { momentJump(-1); });
    $("next-moment").addEventListener("click", function () { momentJump(1); });
    $("moment").addEventListener("change", function () { momentKey = $("moment").value; $("moment-status").textContent = ""; });
    $("speed").addEventListener("change", function () { if (playing()) setPlaying(true); });
    $("deal").addEventListener("change", function () { show(cur.match, +$("deal").value); });
    $("slider").addEventListener("input", function () { show(cur.match, +$("slider").value); });
    document.addEventListener("keydown", onKey);
    window.addEventListener("hashchange", function () { fromFragment(); });
    if (problems.length) showError(problems.join("\n"));
    buildStandings();
    fromFragment(true);
  }

  /* ---- a tournament directory's page: its standings (the tournament's own table, made in
   * Python by the code that prints it) and the list of its matches, each opening the table at
   * that match; the page opens on them, and comes back with the "standings" link
   * (#standings). */
  function buildStandings() {
    var s = data.standings;
    if (!s || typeof s.text !== "string") return;
    $("standings-table").textContent = s.text;
    var list = clear($("match-list"));
    var index = function (i) { var t = data.matches[i].tournament; return typeof t === "number" ? t : i; };
    var order = data.matches.map(function (m, i) { return i; });
    order.sort(function (a, b) { return index(a) - index(b) || a - b; });  // in the schedule's order
    order.forEach(function (i) {
      var m = data.matches[i];
      var li = el("li", "match-item");
      var a = el("a", "", "match " + (m.tournament !== null && m.tournament !== undefined ? m.tournament : i + 1));
      a.href = "#m=" + i + "&s=" + (m.deals && m.deals.length ? 1 : 0);
      a.dataset.match = String(i);
      li.appendChild(a);
      var names = Array.isArray(m.names) ? m.names.map(function (n, seat) { return seat + ":" + n; }).join(" \u00b7 ") : "";
      li.appendChild(el("span", "seating", " " + names));
      var r = m.result, said = "";
      if (!r) said = STOPPED[m.status] || "no result";
      else if (r.annulled) said = "annulled";
      else said = "won by " + (r.winners.length ? r.winners.map(function (w) { return w + ":" + m.names[w]; }).join(", ") : "nobody");
      li.appendChild(el("span", "outcome", " \u2014 " + said));
      var faults = (m.faults || []).length;
      if (faults) li.appendChild(el("span", "faults", " \u2014 " + faults + " fault" + (faults === 1 ? "" : "s")));
      list.appendChild(li);
    });
    $("to-standings").hidden = false;
  }

  function standingsShown() {
    return !!(data && data.standings) && !$("standings").hidden;
  }

  function setStandings(on) {
    on = !!on && !!(data && data.standings);
    $("standings").hidden = !on;
    $("controls").hidden = on;
    $("position").hidden = on;
    $("main").hidden = on;
    $("view-pick").hidden = on;
    document.body.dataset.page = on ? "standings" : "match";
    if (on) setPlaying(false);
  }

  function fromFragment(first) {
    var f = readFragment();
    if (data.standings && (f.m === undefined || location.hash === "#standings")) {
      setStandings(true);
      return;
    }
    var wasStandings = standingsShown();
    setStandings(false);
    var mi = /^[0-9]+$/.test(f.m || "") ? +f.m : 0;
    mi = Math.min(mi, data.matches.length - 1);
    var m = data.matches[mi];
    var s = /^[0-9]+$/.test(f.s || "") ? +f.s : null;
    if (s === null) s = first || mi !== cur.match ? (m && m.deals && m.deals.length ? 1 : 0) : cur.step;
    var v = parseView(f.v);
    if (v === null) v = "all";
    if (!first && !wasStandings && mi === cur.match && s === cur.step && v === cur.view) return;
    show(mi, s, v);
  }

  /* The page's interface for tools and tests, on the global the core made (cardcliViewer). */
  var iface = {
    matches: function () { return data ? data.matches.length : 0; },
    steps: function (m) {
      var x = data && data.matches[m];
      if (!x || matchProblem(x)) return 0;
      return prepare(x).nsteps;
    },
    goto: function (m, s) { if (standingsShown()) setStandings(false); return show(m, s); },
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
  Object.keys(iface).forEach(function (k) { V[k] = iface[k]; });

  try {
    init();
  } catch (err) {
    showError("the viewer failed: " + (err && err.message ? err.message : String(err)));
  }
})(typeof cardcliViewer !== "undefined" ? cardcliViewer : null);
