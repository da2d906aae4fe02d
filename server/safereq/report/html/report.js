// Filters of the trace matrix. The state lives in the URL fragment (#kind=FSR&asil=D&holes=1&q=torque), so
// a filtered view can be bookmarked or sent; without the script every row is shown.
(function () {
  "use strict";
  var table = document.getElementById("matrix");
  if (!table) return;
  var rows = Array.prototype.slice.call(table.tBodies[0].rows);
  var q = document.getElementById("filter-text");
  var kind = document.getElementById("filter-kind");
  var asil = document.getElementById("filter-asil");
  var holes = document.getElementById("filter-holes");
  var shown = document.getElementById("matrix-shown");

  function apply() {
    var text = q.value.trim().toLowerCase();
    var count = 0;
    rows.forEach(function (row) {
      var visible = (!kind.value || row.dataset.kind === kind.value) &&
        (!asil.value || row.dataset.asil === asil.value) &&
        (!holes.checked || row.dataset.hole === "1") &&
        (!text || row.textContent.toLowerCase().indexOf(text) >= 0);
      row.hidden = !visible;
      if (visible) count++;
    });
    shown.textContent = String(count);
  }

  function save() {
    var parts = [];
    if (kind.value) parts.push("kind=" + encodeURIComponent(kind.value));
    if (asil.value) parts.push("asil=" + encodeURIComponent(asil.value));
    if (holes.checked) parts.push("holes=1");
    if (q.value.trim()) parts.push("q=" + encodeURIComponent(q.value.trim()));
    history.replaceState(null, "", parts.length ? "#" + parts.join("&") : location.pathname);
  }

  function load() {
    var hash = location.hash.replace(/^#/, "");
    if (hash.indexOf("=") < 0) return;  // an anchor such as #item-FSR-1, not a filter
    hash.split("&").forEach(function (part) {
      var kv = part.split("=");
      var value = decodeURIComponent(kv[1] || "");
      if (kv[0] === "kind") kind.value = value;
      if (kv[0] === "asil") asil.value = value;
      if (kv[0] === "holes") holes.checked = value === "1";
      if (kv[0] === "q") q.value = value;
    });
  }

  [q, kind, asil, holes].forEach(function (el) {
    el.addEventListener("input", function () { apply(); save(); });
    el.addEventListener("change", function () { apply(); save(); });
  });
  load();
  apply();
})();
