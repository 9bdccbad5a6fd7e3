/* Peppa's part of the HTML viewer (its spec's `viewer`): the pass (where it goes, each seat's
 * three cards as they leave its hand and reach another, the cards received outlined in the
 * hand) and cappotto. The tricks are the core's. The hooks are described in docs/viewer.md. */
(function (V) {
  "use strict";

  function seatOf(aud) {
    return aud && aud.length === 1 ? aud[0] : -1;
  }

  V.register("peppa", {
    notes: ["cappotto"],
    moments: [{ key: "cappotto", label: "cappotti", re: /(^|\n)cappotto / }],

    newDeal: function (st) {
      st.passing = null;        // left, right, across or hold
      st.passes = [];           // {from, to, cards}, as this view was told them
      st.received = [];         // {seat, from, cards}
      st.receivedCards = {};    // card -> the seat that received it
      st.cappotto = [];
    },

    event: function (st, w, aud) {
      var seat, cards;
      switch (w[0]) {
        case "passing":
          st.passing = w[1];
          return true;
        case "passed":
          seat = seatOf(aud);
          cards = w.slice(2);
          st.passes.push({ from: seat, to: +w[1], cards: cards });
          cards.forEach(function (c) { V.removeCard(st, seat, c); });
          if (st.move) st.move.passTo = +w[1];
          return true;
        case "received":
          seat = seatOf(aud);
          cards = w.slice(2);
          st.received.push({ seat: seat, from: +w[1], cards: cards });
          V.addCards(st, seat, cards);
          cards.forEach(function (c) { st.receivedCards[c] = seat; });
          return true;
        case "cappotto":
          st.cappotto.push(+w[1]);
          return true;
        default:
          return false;
      }
    },

    panels: [{ id: "pass", place: "panels", before: "deal-end" }],

    dealInfo: function (ui, m, st) {
      return st.passing ? [st.passing === "hold" ? "no pass" : "passing " + st.passing] : [];
    },

    cardMark: function (m, st, card, place, seat) {
      return place === "hand" && st.receivedCards[card] === seat ? { cls: "received" } : null;
    },

    draw: function (ui, m, st, view) {
      var pass = ui.panel("pass", st.passes.length > 0 || st.received.length > 0);
      if (pass.hidden) return;
      pass.appendChild(ui.el("div", "panel-head", "the pass (" + st.passing + ")"));
      st.passes.forEach(function (p) {
        var line = ui.el("div", "pass-line");
        line.dataset.from = String(p.from);
        line.dataset.to = String(p.to);
        line.appendChild(ui.el("span", "who", ui.who(m, p.from) + " \u2192 " + ui.who(m, p.to) + ": "));
        p.cards.forEach(function (c) {
          var ce = ui.card(c, p.from);
          ce.dataset.from = String(p.from);
          ce.dataset.to = String(p.to);
          ce.title += ", passed by " + ui.who(m, p.from) + " to " + ui.who(m, p.to);
          line.appendChild(ce);
        });
        pass.appendChild(line);
      });
      if (view !== "all") {
        st.received.forEach(function (r) {
          var line = ui.el("div", "pass-line received");
          line.appendChild(ui.el("span", "who", ui.who(m, r.seat) + " \u2190 " + ui.who(m, r.from) + ": "));
          r.cards.forEach(function (c) {
            var ce = ui.card(c, r.from);
            ce.dataset.from = String(r.from);
            ce.dataset.to = String(r.seat);
            line.appendChild(ce);
          });
          pass.appendChild(line);
        });
      }
    },

    moveText: function (ui, m, mv, out) {
      if (mv.kind !== "pass") return false;
      if (mv.token === null) {
        out.textContent = "passes 3 cards";
      } else {
        ui.text(out, "passes ");
        ui.cards(out, mv.token.split("+"));
        if (mv.passTo !== undefined) ui.text(out, " to " + ui.who(m, mv.passTo));
      }
      return true;
    },

    noteText: function (ui, m, w) {
      return w[0] === "cappotto" ? "cappotto by " + ui.who(m, +w[1]) : undefined;
    },

    dealEnd: function (ui, m, st, box) {
      st.cappotto.forEach(function (s) { box.appendChild(ui.el("div", "cappotto", "CAPPOTTO by " + ui.who(m, s))); });
    }
  });
})(cardcliViewer);
