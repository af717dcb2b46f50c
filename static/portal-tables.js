// Tables on a phone (issue 26): under 600px portal.css shows each row of a `table.stack` as a card, so each cell
// is labelled with its column's header here (data-label, drawn before the cell's text and hidden from screen
// readers, which keep the table's own headers). A table marked `keep-table` stays a table (it fits a phone).
(function () {
  "use strict";
  function headers(table) {
    var head = table.tHead && table.tHead.rows.length ? table.tHead.rows[table.tHead.rows.length - 1] : null;
    if (!head) {
      var first = table.rows[0];
      if (!first || first.querySelector("td") || !first.querySelector("th")) return null;
      head = first;
    }
    var labels = [];
    Array.prototype.forEach.call(head.cells, function (cell) {
      var text = (cell.getAttribute("data-label") || cell.getAttribute("title") || cell.innerText || cell.textContent || "").replace(/\s+/g, " ").trim();
      for (var i = 0; i < (cell.colSpan || 1); i++) labels.push(text);
    });
    return { row: head, labels: labels };
  }
  function stack(table) {
    if (table.classList.contains("keep-table") || table.classList.contains("stack") || table.closest(".scoreboard")) return;
    var found = headers(table);
    if (!found) return;
    Array.prototype.forEach.call(table.tBodies, function (body) {
      Array.prototype.forEach.call(body.rows, function (row) {
        if (row === found.row) { row.classList.add("visually-hidden-row"); return; }
        var column = 0;
        Array.prototype.forEach.call(row.cells, function (cell) {
          if (!cell.hasAttribute("data-label")) cell.setAttribute("data-label", found.labels[column] || "");
          column += cell.colSpan || 1;
        });
      });
    });
    table.classList.add("stack");
  }
  function stackAll(root) {
    Array.prototype.forEach.call(root.querySelectorAll("main table"), stack);
  }
  function start() {
    stackAll(document);
    var main = document.querySelector("main");
    if (main && window.MutationObserver) {
      // A live page reads its results again into <main> (scoreboard.js): its new tables are labelled too.
      new MutationObserver(function () { stackAll(document); }).observe(main, { childList: true, subtree: true });
    }
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
