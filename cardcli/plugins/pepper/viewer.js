/* Pepper's part of the HTML viewer (its spec's `viewer`): the auction bid by bid, the contract
 * with its trump and bowers (the cards marked R and L), made or set, the declarer's badge and,
 * with 2 players, the dead hand (only when every hand is shown). Its tricks carry no card
 * points. The hooks are described in docs/viewer.md. */
(function (V) {
  "use strict";

  var SAME_COLOUR = { C: "S", S: "C", D: "H", H: "D" };

  /* The bowers under the named trump: {card: "right" | "left"}. */
  function bowers(trump, leftIsTrump) {
    var out = {};
    if (!V.isSuit(trump)) return out;
    out["J" + trump] = "right";
    if (leftIsTrump !== false) out["J" + SAME_COLOUR[trump]] = "left";
    return out;
  }

  function bowersOf(m, st) {
    return bowers(st.trump, m.options && m.options.left_bower_is_trump);
  }

  function bidText(b) {
    if (b === "pass") return "pass";
    if (b === "small") return "small pepper";
    if (b === "big") return "big pepper";
    return b;
  }

  V.register("pepper", {
    bowers: bowers,
    trickPoints: false,
    notes: ["made", "set", "contract", "allpass"],
    moments: [{ key: "set", label: "sets", re: /(^|\n)set / }],

    newDeal: function (st) {
      st.auction = [];          // {seat, bid} in order
      st.allpass = false;
      st.contract = null;       // {seat, bid}
      st.trump = null;          // C, D, H, S or NT
      st.fate = null;           // {made, seat, bid, tricks}
    },

    event: function (st, w) {
      switch (w[0]) {
        case "bid":
          st.auction.push({ seat: +w[1], bid: w[2] });
          return true;
        case "allpass":
          st.allpass = true;
          return true;
        case "contract":
          st.contract = { seat: +w[1], bid: w[2] };
          return true;
        case "trump":
          st.trump = w[2];
          return true;
        case "made":
        case "set":
          st.fate = { made: w[0] === "made", seat: +w[1], bid: w[2], tricks: +w[3] };
          return true;
        default:
          return false;
      }
    },

    panels: [
      { id: "contract", place: "corner" },
      { id: "auction", place: "panels", before: "last-trick" },
      { id: "dead", place: "panels", before: "deal-end" }
    ],

    badges: function (m, st, seat) {
      return st.contract && st.contract.seat === seat ? [["declarer", "declarer"]] : [];
    },

    cardMark: function (m, st, card, place) {
      var side = bowersOf(m, st)[card];
      if (!side) return null;
      return place === "hand" ? { cls: "bower " + side, title: side + " bower" } : { cls: "bower " + side };
    },

    draw: function (ui, m, st, view) {
      // the auction
      var auction = ui.panel("auction", st.deal > 0);
      if (!auction.hidden) {
        auction.appendChild(ui.el("div", "panel-head", "auction"));
        st.auction.forEach(function (b) {
          var e = ui.el("span", "bid" + (b.bid === "pass" ? " pass" : ""), ui.who(m, b.seat) + ": " + bidText(b.bid));
          e.dataset.seat = String(b.seat);
          e.dataset.bid = b.bid;
          auction.appendChild(e);
        });
        if (st.allpass) auction.appendChild(ui.el("span", "bid allpass", "everybody passed: the deal is thrown in"));
        if (!st.auction.length && !st.allpass) auction.appendChild(ui.el("span", "empty", "no bid yet"));
      }
      // the contract, its trump and bowers, made or set
      var contract = ui.panel("contract", !!st.contract);
      ["trump", "bidder", "level"].forEach(function (k) { delete contract.dataset[k]; });
      if (st.contract) {
        contract.dataset.bidder = String(st.contract.seat);
        contract.dataset.level = st.contract.bid;
        contract.dataset.trump = st.trump || "";
        var t = ui.el("span", "contract-text", "contract: " + bidText(st.contract.bid) + " by " + ui.who(m, st.contract.seat));
        if (st.trump === "NT") ui.text(t, ", no trump");
        if (V.isSuit(st.trump)) {
          ui.text(t, ", trump ");
          t.appendChild(ui.suit(st.trump));
        }
        contract.appendChild(t);
        var bw = bowersOf(m, st);
        var names = Object.keys(bw);
        if (names.length) {
          var bl = ui.el("span", "bowers", "; bowers: ");
          names.forEach(function (c, i) {
            if (i) ui.text(bl, ", ");
            ui.text(bl, bw[c] + " ");
            ui.cards(bl, [c]);
          });
          contract.appendChild(bl);
        }
        if (st.fate) {
          contract.appendChild(ui.el("span", "fate " + (st.fate.made ? "made" : "set"),
            " \u2014 " + (st.fate.made ? "made" : "SET") + " with " + st.fate.tricks + " tricks"));
        }
      }
      // with 2 players, the dead hand: only when every hand is shown
      var deal = m.deals[st.dealIndex];
      var dead = ui.panel("dead", view === "all" && st.deal > 0 && !!(deal && deal.dead));
      if (!dead.hidden) {
        dead.appendChild(ui.el("span", "panel-head", "dead hand (nobody's, face down): "));
        deal.dead.forEach(function (c) { dead.appendChild(ui.card(c)); });
      }
    },

    moveText: function (ui, m, mv, out) {
      var t = mv.token;
      if (t === null) return false;
      if (mv.kind === "bid") { out.textContent = t === "pass" ? "passes" : "bids " + bidText(t); return true; }
      if (mv.kind !== "trump") return false;
      if (!V.isSuit(t)) { out.textContent = t === "NT" ? "names no trump" : "names " + t; return true; }
      ui.text(out, "names trump ");
      out.appendChild(ui.suit(t));
      return true;
    },

    noteText: function (ui, m, w) {
      switch (w[0]) {
        case "made": return "made " + bidText(w[2]) + " with " + w[3] + " tricks";
        case "set": return "SET: " + bidText(w[2]) + " with " + w[3] + " tricks";
        case "contract": return null;  // the contract panel says it
        case "allpass": return "everybody passed";
        default: return undefined;
      }
    }
  });
})(cardcliViewer);
