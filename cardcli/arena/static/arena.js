// The arena's one script (served from /static: the pages' policy allows no inline script).
// Every page works without it; on the standings page it listens to the server's stream of
// standings (server-sent events) and swaps in each new table and chart, which the server
// rendered and escaped, so the page updates without a reload. The browser's EventSource
// reconnects by itself after a drop; the status line says when the page is not live.
(function () {
  "use strict";
  var box = document.getElementById("standings");
  var status = document.getElementById("live");
  if (!box || !box.dataset.events || !window.EventSource) return;
  var updates = 0;
  var source = new EventSource(box.dataset.events);
  function say(text, stale) {
    if (!status) return;
    status.textContent = text;
    status.classList.toggle("stale", !!stale);
  }
  source.addEventListener("standings", function (event) {
    var keep = document.activeElement && box.contains(document.activeElement) ? document.activeElement : null;
    var keepHref = keep && keep.getAttribute ? keep.getAttribute("href") : null;
    var fresh = document.createElement("template");
    fresh.innerHTML = event.data;
    box.replaceChildren(fresh.content);
    updates += 1;
    box.dataset.updates = String(updates);
    if (keepHref) {  // keep the keyboard's place across an update
      var again = box.querySelector('a[href="' + CSS.escape(keepHref) + '"]');
      if (again) again.focus();
    }
    say("Live: updated " + new Date().toLocaleTimeString() + ".");
  });
  source.addEventListener("open", function () { say("Live: updates as matches are played."); });
  source.addEventListener("error", function () { say("Not live: reconnecting...", true); });
})();
