// Logging out deletes the caches the portal's pages keep in this browser (issue 23): the scorer's console keeps
// its pages in window.caches for offline use (templates/games/console-worker.js), and they must not outlive the
// login on a shared device. <form data-clear-caches="PREFIX">: on submit, the caches whose names start with
// PREFIX are deleted first, then the form is sent. The logout answer also says Clear-Site-Data: "cache".
// IndexedDB (the console's outbox of unsent entries) is left alone.
document.addEventListener("submit", function (event) {
  var form = event.target;
  if (!(form instanceof HTMLFormElement) || !form.hasAttribute("data-clear-caches")) return;
  if (!("caches" in window) || form.dataset.cachesCleared === "yes") return;
  event.preventDefault();
  var prefix = form.getAttribute("data-clear-caches");
  var send = function () {
    form.dataset.cachesCleared = "yes";
    form.submit();
  };
  window.caches.keys().then(function (names) {
    return Promise.all(names.filter(function (name) {
      return name.indexOf(prefix) === 0;
    }).map(function (name) {
      return window.caches.delete(name);
    }));
  }).then(send, send);
});
