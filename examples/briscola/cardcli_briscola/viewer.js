/* Briscola's part of the HTML viewer (its spec's `viewer`, shipped as package data): the
 * face-up briscola and who drew it, the cards left in the stock, the hands refilled by the
 * `draw` lines, a partner's hand once shown (`partner`, four players with partners_see_hands),
 * a trump played marked as one, the draws told after the move that ended the trick, and the deal
 * won (more than 60 card points) or by nobody (60-60). The tricks and their card points are the
 * core's. The hooks are described in cardcli's docs/viewer.md ("A game's part of the viewer").
 *
 * The draws: the drawer is told `draw <seat> <card>` and every other seat `draw <seat>` (the
 * briscola, the stock's last card, is drawn in public: `draw <seat> <card>` to all). A page of
 * every hand holds both lines of a draw; where the view knows the drawer's hand, the card's line
 * is the one applied, so that each draw is counted once, in the hand and in the stock. */
(function (V) {
  "use strict";

  var DECK = 40, DEALT = 3;

  function seatOf(aud) {
    return aud && aud.length === 1 ? aud[0] : -1;
  }

  function trumpOf(st) {
    return st.briscola ? st.briscola[1] : null;
  }

  /* One draw, told after the move that ended the trick: the round's draws are one note,
   * ["draws", seat, card or "", seat, card or "", ...], in drawing order. */
  function noteDraw(st, seat, card) {
    if (!st.move) return;
    var notes = st.move.notes, last = notes.length ? notes[notes.length - 1] : null;
    if (!last || last[0] !== "draws") {
      last = ["draws"];
      notes.push(last);
    }
    last.push(String(seat), card || "");
  }

  function wonBy(m, scores) {
    var won = [];
    scores.forEach(function (v, s) { if (+v === 1) won.push(s); });
    return won;
  }

  V.register("briscola", {
    newDeal: function (st) {
      st.briscola = null;       // the turned-up card (its suit is the trump), from the briscola line
      st.stock = 0;             // the cards left to draw, the briscola (the last) counted
      st.briscolaTo = null;     // the seat that drew the briscola, once it has
      st.partners = [];         // {seat, partner}: a partner's hand shown to seat
      st.cardPoints = null;     // each seat's card points at the deal's end (the points line)
    },

    event: function (st, w, aud) {
      var seat, cards;
      switch (w[0]) {
        case "briscola":
          st.briscola = w[1];
          st.stock = DECK - DEALT * st.n;
          return true;
        case "draw":
          seat = +w[1];
          if (!(seat >= 0 && seat < st.n)) { st.problems.push("a draw line without its seat"); return true; }
          if (w.length > 2) {
            V.addCards(st, seat, [w[2]]);
            if (w[2] === st.briscola) st.briscolaTo = seat;
          } else if (st.hands[seat] === null) {
            st.counts[seat] += 1;  // a card this view may not see: one back more
          } else {
            return true;           // the drawer's own line, which this view also holds, says it
          }
          st.stock = Math.max(0, st.stock - 1);
          noteDraw(st, seat, w.length > 2 ? w[2] : "");
          return true;
        case "partner":
          seat = +w[1];
          cards = w.slice(2);
          st.partners.push({ seat: seatOf(aud), partner: seat });
          if (seat >= 0 && seat < st.n && st.hands[seat] === null) {
            st.hands[seat] = V.sortCards(cards);
            st.counts[seat] = cards.length;
          }
          return true;
        case "play":
          if (st.move && V.isCard(w[2]) && w[2][1] === trumpOf(st)) st.move.trump = true;
          return false;            // the core plays the card
        case "points":
          st.cardPoints = w.slice(1).map(Number);
          return true;
        default:
          return false;
      }
    },

    panels: [{ id: "briscola", place: "corner" }],

    dealInfo: function (ui, m, st) {
      if (!st.briscola) return [];
      return [st.stock ? "stock " + st.stock + (st.stock === 1 ? " card" : " cards") : "stock empty"];
    },

    cardMark: function (m, st, card, place) {
      return V.isCard(card) && card[1] === trumpOf(st) ? { cls: "trump", title: "trump" } : null;
    },

    draw: function (ui, m, st) {
      var p = ui.panel("briscola", !!st.briscola);
      delete p.dataset.card;
      delete p.dataset.stock;
      if (!st.briscola) return;
      p.dataset.card = st.briscola;
      p.dataset.stock = String(st.stock);
      ui.text(p, "briscola ");
      p.appendChild(ui.card(st.briscola));
      ui.text(p, " (");
      p.appendChild(ui.suit(st.briscola[1]));
      ui.text(p, " trumps), ");
      ui.text(p, st.briscolaTo !== null ? "drawn by " + ui.who(m, st.briscolaTo) : "under the stock");
      st.partners.forEach(function (s) {
        if (s.seat >= 0) p.appendChild(ui.el("div", "partner", ui.who(m, s.seat) + " sees the hand of partner " + ui.who(m, s.partner)));
      });
    },

    moveText: function (ui, m, mv, out) {
      if (mv.kind !== "play" || !V.isCard(mv.token)) return false;
      ui.text(out, "plays ");
      ui.cards(out, [mv.token]);
      if (mv.trump) ui.text(out, ", a trump");
      return true;
    },

    noteText: function (ui, m, w) {
      if (w[0] === "draws") {
        var drawn = [];
        for (var i = 1; i + 1 < w.length; i += 2) {
          drawn.push(ui.who(m, +w[i]) + " " + (w[i + 1] ? V.cardText(w[i + 1]) : "a card"));
        }
        return "draws: " + drawn.join(", ");
      }
      if (w[0] === "score") {
        var won = wonBy(m, w.slice(2));
        return won.length ? "deal won by " + won.map(function (s) { return ui.who(m, s); }).join(", ")
          : "deal won by nobody (60-60)";
      }
      return undefined;
    },

    dealEnd: function (ui, m, st, box) {
      if (st.cardPoints) {
        box.appendChild(ui.el("div", "card-points", "card points: " + st.cardPoints.map(function (p, s) {
          return ui.who(m, s) + " " + p; }).join(", ")));
      }
      if (st.dealScore) {
        var won = wonBy(m, st.dealScore);
        box.appendChild(ui.el("div", "deal-won", won.length ? "won by " + won.map(function (s) {
          return ui.who(m, s); }).join(", ") : "60-60: won by nobody"));
      }
    }
  });
})(cardcliViewer);
