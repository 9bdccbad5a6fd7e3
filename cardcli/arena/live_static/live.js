/* The live games' pages: a list of the matches in progress and one match's table, both fed by
 * server-sent events from the same origin, inside the arena's frame (its <main> holds
 * #live-page, which names the page and the match). Every text that comes from a bot, an
 * entrant or a record is set with textContent, never as markup. */
(function () {
  "use strict";
  var main = document.getElementById("live-page");
  var status = document.getElementById("status");
  var received = 0;

  function el(tag, cls, text) {
    var node = document.createElement(tag);
    if (cls) node.className = cls;
    if (text !== undefined && text !== null) node.textContent = String(text);
    return node;
  }
  function setStatus(text, state) {
    status.textContent = text;
    status.setAttribute("data-state", state);
  }

  /* -- the list of matches in progress ----------------------------------------------------- */
  function listPage() {
    var body = document.querySelector("table.live-matches tbody");
    var none = body.querySelector(".empty") ? body.firstElementChild : null;  // the page's "none yet" row
    var rows = {};
    function showNone() {
      var empty = Object.keys(rows).length === 0;
      if (none && empty && !none.parentNode) body.appendChild(none);
      else if (none && !empty && none.parentNode) none.remove();
    }
    function row(m) {
      var tr = rows[m.id];
      if (!tr) {
        tr = el("tr");
        tr.setAttribute("data-match", m.id);
        var link = el("a", null, m.id);
        link.href = "/live/" + encodeURIComponent(m.id);
        var first = el("td");
        first.appendChild(link);
        tr.appendChild(first);
        tr.appendChild(el("td", "seats"));
        tr.appendChild(el("td", "deal"));
        tr.appendChild(el("td", "totals"));
        body.appendChild(tr);
        rows[m.id] = tr;
      }
      tr.querySelector(".seats").textContent = (m.seats || []).join(", ");
      tr.querySelector(".deal").textContent = m.deal === null || m.deal === undefined ? "" : m.deal;
      tr.querySelector(".totals").textContent = m.totals || "";
    }
    var source = new EventSource("/events/live");
    source.onopen = function () { setStatus("live", "live"); };
    source.onerror = function () { setStatus("reconnecting", "waiting"); };
    source.onmessage = function (e) {
      var msg = JSON.parse(e.data);
      received += 1;
      main.setAttribute("data-received", String(received));
      if (msg.type === "matches") {
        body.textContent = "";
        rows = {};
        msg.matches.forEach(row);
      } else if (msg.type === "match") {
        row(msg.match);
      } else if (msg.type === "gone" && rows[msg.id]) {
        rows[msg.id].remove();
        delete rows[msg.id];
      }
      showNone();
      main.setAttribute("data-count", String(Object.keys(rows).length));
    };
  }

  /* -- one match ----------------------------------------------------------------------------- */
  function matchPage() {
    var id = main.getAttribute("data-match");
    var seatsBox = document.getElementById("seats");
    var log = document.getElementById("log");
    var st = null;

    function reset(info) {
      st = { info: info, seats: [], deal: null, trick: null, trickCards: [], floor: "", totals: null, last: 0 };
      seatsBox.textContent = "";
      log.textContent = "";
      (info.seats || []).forEach(function (name, i) {
        var box = el("section", "seat");
        box.setAttribute("data-seat", String(i));
        box.appendChild(el("div", "name", "Seat " + i + ": " + name));
        box.appendChild(el("div", "played"));
        box.appendChild(el("div", "tricks", "tricks 0"));
        box.appendChild(el("div", "total"));
        box.appendChild(el("div", "hand"));
        seatsBox.appendChild(box);
        st.seats.push({ box: box, tricks: 0 });
      });
      document.getElementById("title").textContent = id + " \u2014 " + info.game + " " + (info.seats || []).join(", ");
    }
    function seat(i) { return st.seats[+i]; }
    function part(i, cls) { var s = seat(i); return s ? s.box.querySelector("." + cls) : null; }

    function apply(msg) {
      if (!st) return;
      if (msg.n <= st.last) return;  // already shown (a stream that started again)
      st.last = msg.n;
      var w = msg.line.split(" ");
      if (!msg.to && w[0] === "deal") log.textContent = "";  // the moves of the deal in progress
      var item = el("li", msg.to ? "revealed" : null,
                    msg.to ? "(seat " + msg.to.join(",") + " only, shown after the deal) " + msg.line : msg.line);
      log.insertBefore(item, log.firstChild);
      while (log.childNodes.length > 200) log.removeChild(log.lastChild);
      if (msg.to) {
        if (w[0] === "hand") {
          msg.to.forEach(function (s) { var h = part(s, "hand"); if (h) h.textContent = "hand: " + w.slice(1).join(" "); });
        }
        return;
      }
      switch (w[0]) {
        case "deal":
          st.deal = w[1];
          st.trick = null;  // no trick of the new deal yet: the last deal's is not shown as current
          st.trickCards = [];
          st.floor = "";
          st.seats.forEach(function (s, i) {
            s.tricks = 0;
            part(i, "tricks").textContent = "tricks 0";
            part(i, "played").textContent = "";
            part(i, "hand").textContent = "";
          });
          break;
        case "trick":
          st.trick = w[1];
          st.trickCards = [];
          st.seats.forEach(function (s, i) { part(i, "played").textContent = ""; });
          break;
        case "play":
          st.trickCards.push("seat " + w[1] + ": " + w.slice(2).join(" "));
          var p = part(w[1], "played");
          if (p) p.textContent = w.slice(2).join(" ");
          break;
        case "taken":
          var s = seat(w[2]);
          if (s) { s.tricks += 1; part(w[2], "tricks").textContent = "tricks " + s.tricks; }
          break;
        case "table":
          st.floor = w.slice(1).join(" ");
          break;
        case "totals":
          w.slice(1).forEach(function (t, i) { var p = part(i, "total"); if (p) p.textContent = "total " + t; });
          break;
      }
      document.getElementById("position").textContent =
        "Deal " + (st.deal || "-") + (st.trick ? ", trick " + st.trick : "");
      document.getElementById("trick").textContent = st.trickCards.join("  \u00b7  ");
      document.getElementById("floor").textContent = st.floor ? "floor: " + st.floor : "";
    }

    var source = new EventSource("/events/live/" + encodeURIComponent(id));
    setStatus("waiting for the match", "waiting");
    source.onerror = function () { if (status.getAttribute("data-state") !== "over") setStatus("reconnecting", "waiting"); };
    source.onmessage = function (e) {
      var msg = JSON.parse(e.data);
      received += 1;
      main.setAttribute("data-received", String(received));
      if (msg.type === "start") {
        reset(msg.match);
        setStatus("live", "live");
      } else if (msg.type === "event") {
        apply(msg);
        main.setAttribute("data-last", String(msg.n));
      } else if (msg.type === "end") {
        setStatus("the match is over", "over");
        main.setAttribute("data-over", "1");
        source.close();
      }
    };
  }

  if (main.getAttribute("data-page") === "list") listPage(); else matchPage();
})();
