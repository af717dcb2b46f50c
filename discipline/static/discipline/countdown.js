// Live countdown to each protest deadline (9.1, R-51). The server gives the due time and its own time at
// render; the remaining time is (due - server time at render) - time elapsed since the page loaded, so a
// device whose clock is wrong still shows the right countdown.
(function () {
  "use strict";
  var loaded = performance.now();
  function fmt(ms) {
    if (ms <= 0) return "past";
    var s = Math.floor(ms / 1000), h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60);
    s = s % 60;
    var clock = String(m).padStart(2, "0") + " min " + String(s).padStart(2, "0") + " s left";
    // Past two days the hours are counted in days (a deadline far ahead reads "12 d 5 h ...", not "293 h ...").
    if (h >= 48) return Math.floor(h / 24) + " d " + (h % 24) + " h " + clock;
    return h + " h " + clock;
  }
  function tick() {
    var elapsed = performance.now() - loaded;
    document.querySelectorAll("[data-due]").forEach(function (el) {
      var left = Date.parse(el.dataset.due) - Date.parse(el.dataset.serverNow) - elapsed;
      el.textContent = fmt(left);
    });
  }
  tick();
  setInterval(tick, 1000);
})();
