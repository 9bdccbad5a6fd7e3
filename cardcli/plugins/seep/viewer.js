/* Seep's part of the HTML viewer (its spec's `viewer`): the bid and the bidder, the floor with
 * its loose cards and houses, each capture with its seeps, the leftover and a void deal; the
 * moves as replay writes them. Seep plays no tricks: the core's trick area is not shown, and
 * the trick buttons stop at captures. The hooks are described in docs/viewer.md. */
(function (V) {
  "use strict";

  /* The hand card a move spends: the card of a take, throw, build, cement or break (the hand
   * card comes first); null for a token of no such verb. */
  function spentCard(token) {
    if (V.isCard(token)) return token;
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

  /* A 'table' line's items: loose cards, then houses h<value>:<c|o>:<owners>:<cards>. */
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

  /* A play: the hand card leaves the hand; a take captures the groups and houses it names from
   * the floor as it was before the move (the 'table' line after it gives the new floor). The
   * cards captured are the move's (`st.move.capture`). */
  function play(st, seat, token) {
    var card = spentCard(token);
    if (card) V.removeCard(st, seat, card);
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
    if (st.move) st.move.capture = got;
  }

  /* ``take:JS:2C+3D+6H,h11`` as ``takes with J♠: 2♣ 3♦ 6♥ | house 11``, as replay writes it. */
  function words(ui, out, token) {
    var parts = token.split(":");
    var verb = parts[0];
    var add = function (s) { ui.text(out, s); };
    var groups = function (text) {
      text.split(",").forEach(function (g, i) {
        if (i) add(" | ");
        if (g[0] === "h") add("house " + g.slice(1)); else ui.cards(out, g.split("+"));
      });
    };
    if (verb === "throw") { add("throws "); ui.cards(out, [parts[1]]); return; }
    if (verb === "take") { add("takes with "); ui.cards(out, [parts[1]]); add(": "); groups(parts[2] || ""); return; }
    if (verb === "build" || verb === "cement") { add((verb === "build" ? "builds " : "cements ") + parts[1] + ": "); groups(parts[2] || ""); return; }
    if (verb === "break") {
      var rest = (parts[2] || "").split(",");
      add("breaks house " + parts[1] + " with ");
      ui.cards(out, [rest[0]]);
      if (rest.length > 1) { add(", taking in "); groups(rest.slice(1).join(",")); }
      return;
    }
    add(token);
  }

  V.register("seep", {
    spentCard: spentCard,
    parseTable: parseTable,
    tricks: false,
    trickStop: /(^|\n)play [0-9]+ take:/,
    notes: ["seep", "leftover", "void"],
    moments: [{ key: "seep", label: "seeps", re: /(^|\n)seep / }],

    newDeal: function (st, w) {
      st.bidder = w && w.length > 3 ? +w[3] : null;
      st.floor = null;          // {loose, houses}; null while it lies face down
      st.bid = null;
      st.voided = null;
      st.captured = V.zeros(st.n);
      st.seeps = V.zeros(st.n);
      st.leftover = null;
    },

    event: function (st, w) {
      switch (w[0]) {
        case "play":
          play(st, +w[1], w[2]);
          return true;
        case "bid":
          st.bid = { seat: +w[1], value: +w[2] };
          return true;
        case "void":
          st.voided = { seat: +w[1], cards: w.slice(2) };
          return true;
        case "table":
          st.floor = parseTable(w.slice(1));
          return true;
        case "seep":
          st.seeps[+w[1]] += 1;
          if (st.move) st.move.seep = +w[2];
          return true;
        case "leftover":
          var cards = w.slice(2);
          st.leftover = { seat: w[1] === "-" ? null : +w[1], cards: cards };
          if (w[1] !== "-") st.captured[+w[1]] += cards.length;
          st.floor = { loose: [], houses: [] };
          return true;
        default:
          return false;
      }
    },

    panels: [
      { id: "bid", place: "corner" },
      { id: "floor-hidden", place: "center", before: "trick", cls: "" },
      { id: "floor", place: "center", before: "trick", cls: "" },
      { id: "capture", place: "panels", before: "last-trick" }
    ],

    dealInfo: function (ui, m, st) {
      return st.bidder !== null ? ["bidder " + ui.who(m, st.bidder)] : [];
    },

    badges: function (m, st, seat) {
      return st.bidder === seat ? [["bidder", "bidder"]] : [];
    },

    seatInfo: function (m, st, seat) {
      var bits = [];
      if (st.deal) bits.push("captured " + st.captured[seat]);
      if (st.seeps[seat]) bits.push("seeps " + st.seeps[seat]);
      return bits;
    },

    draw: function (ui, m, st) {
      // the bid, or a void deal
      var bid = ui.panel("bid", !!(st.bid || st.voided));
      if (st.bid) bid.textContent = "bid: " + st.bid.value + " by " + ui.who(m, st.bid.seat);
      if (st.voided) {
        bid.textContent = ui.who(m, st.voided.seat) + " cannot bid: the same dealer deals again ";
        ui.cards(bid, st.voided.cards);
      }
      // the floor: face down until the bid, then its loose cards and houses
      var floor = ui.panel("floor", !!st.deal);
      var hidden = ui.panel("floor-hidden", false);
      if (st.deal) {
        if (st.floor === null && !st.voided) {
          hidden.hidden = false;
          hidden.appendChild(ui.el("span", "panel-head", "floor, face down: "));
          for (var i = 0; i < 4; i++) hidden.appendChild(ui.back());
          floor.hidden = true;
        } else if (st.floor) {
          st.floor.loose.forEach(function (c) {
            floor.appendChild(ui.card(c));
          });
          st.floor.houses.forEach(function (h) {
            var box = ui.el("div", "house" + (h.cemented ? " cemented" : ""));
            box.dataset.value = String(h.value);
            box.dataset.cemented = h.cemented ? "true" : "false";
            box.dataset.owners = h.owners.join(",");
            box.appendChild(ui.el("span", "house-label", "house " + h.value + (h.cemented ? ", cemented" : "") +
              ", " + (h.owners.length > 1 ? "owners " : "owner ") + h.owners.map(function (o) { return ui.who(m, o); }).join(", ")));
            h.cards.forEach(function (c) { box.appendChild(ui.card(c)); });
            floor.appendChild(box);
          });
          if (!st.floor.loose.length && !st.floor.houses.length) floor.appendChild(ui.el("span", "empty", "the floor is empty"));
        }
      }
      // this step's capture, its seep, and the leftover the deal's last play gave away
      var capture = st.move && st.move.capture;
      var leftoverNow = !!(st.leftover && st.move && st.move.notes.some(function (w) { return w[0] === "leftover"; }));
      var cap = ui.panel("capture", !!capture || leftoverNow);
      if (capture) {
        cap.appendChild(ui.el("span", "panel-head", ui.who(m, st.move.seat) + " captures "));
        capture.forEach(function (c) { cap.appendChild(ui.card(c)); });
        if (st.move.seep !== undefined) cap.appendChild(ui.el("span", "seep-mark", "SEEP +" + st.move.seep));
      }
      if (leftoverNow) {
        var lo = ui.el("div", "leftover", "leftover to " + (st.leftover.seat === null ? "nobody" : ui.who(m, st.leftover.seat)) + ": ");
        ui.cards(lo, st.leftover.cards);
        cap.appendChild(lo);
      }
    },

    moveText: function (ui, m, mv, out) {
      var t = mv.token;
      if (t === null) return false;
      if (mv.kind === "bid") { out.textContent = "bids " + t; return true; }
      if (V.isCard(t)) return false;
      words(ui, out, t);
      return true;
    },

    moveClass: function (mv) {
      return (mv.capture ? " capture" : "") + (mv.seep !== undefined ? " seep" : "");
    },

    noteText: function (ui, m, w) {
      switch (w[0]) {
        case "seep": return ["SEEP +" + w[2], "seep"];
        case "leftover": return "leftover to " + (w[1] === "-" ? "nobody" : ui.who(m, +w[1]));
        case "void": return "void deal";
        default: return undefined;
      }
    }
  });
})(cardcliViewer);
