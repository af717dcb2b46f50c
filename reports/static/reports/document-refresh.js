// A document's page while its PDF is queued or rendering: look again every few seconds and put the fresh state in
// place (the section is a polite live region: a screen reader hears it). No <meta refresh>, which reloads the
// whole page under the reader (WCAG 2.2.1); without JavaScript the <noscript> refresh still does the job.
(function () {
  "use strict";
  const state = document.querySelector(".report-state[data-refresh]");
  if (!state) return;
  const delay = (Number(state.dataset.refresh) || 2) * 1000;

  async function look() {
    try {
      const response = await fetch(window.location.href, { credentials: "same-origin", cache: "no-store" });
      if (response.ok) {
        const page = new DOMParser().parseFromString(await response.text(), "text/html");
        const fresh = page.querySelector(".report-state");
        if (fresh) {
          state.innerHTML = fresh.innerHTML;
          if (!fresh.hasAttribute("data-refresh")) return; // done or failed: nothing more to wait for
        }
      }
    } catch (error) {
      // Offline or the server restarting: look again later.
    }
    window.setTimeout(look, delay);
  }

  window.setTimeout(look, delay);
})();
