// Starts ReDoc on the API docs page (templates/drf_spectacular/redoc.html) from the container's data- attributes:
// no inline script, so the page runs under the portal's Content-Security-Policy.
(function () {
  var container = document.getElementById("redoc-container");
  var settings = JSON.parse(container.getAttribute("data-settings") || "{}");
  Redoc.init(container.getAttribute("data-schema-url"), settings, container);
})();
