// Live countdown to each protest deadline (9.1, R-51). The server gives the due time and its own time at
// render; the remaining time is (due - server time at render) - time elapsed since the page loaded, so a
// device whose clock is wrong still shows the right countdown. Its words come from Django's JavaScript catalogue
// in the page's language (portal.i18n, loaded before this file); without it, English.
(function () {
  "use strict";
  var gettext = window.gettext || function (msgid) { return msgid; };
  var pgettext = window.pgettext || function (context, msgid) { return msgid; };
  var interpolate = window.interpolate || function (text, params) {
    return text.replace(/%\((\w+)\)s/g, function (match, name) { return String(params[name]); });
  };
  var loaded = performance.now();
  function fmt(ms) {
    if (ms <= 0) return pgettext("deadline", "past");
    var s = Math.floor(ms / 1000), h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60);
    var parts = {days: Math.floor(h / 24), hours: h, minutes: String(m).padStart(2, "0"), seconds: String(s % 60).padStart(2, "0")};
    // Past two days the hours are counted in days (a deadline far ahead reads "12 d 5 h ...", not "293 h ...").
    if (h >= 48) {
      parts.hours = h % 24;
      return interpolate(gettext("%(days)s d %(hours)s h %(minutes)s min %(seconds)s s left"), parts, true);
    }
    return interpolate(gettext("%(hours)s h %(minutes)s min %(seconds)s s left"), parts, true);
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
