/* Il Pigugnìn's part of the HTML viewer (its spec's `viewer`): at the deal's end the card
 * points, the seats without a trick and each busca with its reason and count; cappotto. The
 * tricks are the core's. The hooks are described in docs/viewer.md. */
(function (V) {
  "use strict";

  V.register("pigugnin", {
    notes: ["cappotto"],
    moments: [{ key: "busca", label: "busche", re: /(^|\n)busca / },
              { key: "cappotto", label: "cappotti", re: /(^|\n)cappotto / }],

    newDeal: function (st) {
      st.cardPoints = null;     // each seat's card points, once counted
      st.notricks = [];         // the seats that took no trick
      st.busche = [];           // {seat, reason, count} in charging order
      st.cappotto = [];
    },

    event: function (st, w) {
      switch (w[0]) {
        case "points":
          st.cardPoints = w.slice(1).map(Number);
          return true;
        case "notricks":
          st.notricks = w.slice(1).map(Number);
          return true;
        case "busca":
          st.busche.push({ seat: +w[1], reason: w[2], count: +w[3] });
          return true;
        case "cappotto":
          st.cappotto.push(+w[1]);
          return true;
        default:
          return false;
      }
    },

    panels: [{ id: "busche", place: "panels" }],

    draw: function (ui, m, st) {
      var busche = ui.panel("busche", st.busche.length > 0 || st.notricks.length > 0 || !!st.cardPoints);
      if (busche.hidden) return;
      busche.appendChild(ui.el("div", "panel-head", "busche"));
      if (st.cardPoints) busche.appendChild(ui.el("div", "", "card points: " + st.cardPoints.map(function (p, s) {
        return ui.who(m, s) + " " + p; }).join(", ")));
      if (st.notricks.length) busche.appendChild(ui.el("div", "", "no trick for " + st.notricks.map(function (s) {
        return ui.who(m, s); }).join(", ") + ": points are not counted"));
      st.busche.forEach(function (b) {
        var e = ui.el("div", "busca", ui.who(m, b.seat) + " pays " + b.count + " (" + b.reason.replace(/_/g, " ") + ")");
        e.dataset.seat = String(b.seat);
        e.dataset.reason = b.reason;
        e.dataset.count = String(b.count);
        busche.appendChild(e);
      });
    },

    noteText: function (ui, m, w) {
      return w[0] === "cappotto" ? "cappotto by " + ui.who(m, +w[1]) : undefined;
    },

    dealEnd: function (ui, m, st, box) {
      st.cappotto.forEach(function (s) { box.appendChild(ui.el("div", "cappotto", "CAPPOTTO by " + ui.who(m, s))); });
    }
  });
})(cardcliViewer);
