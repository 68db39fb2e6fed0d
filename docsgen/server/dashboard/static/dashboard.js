// The dashboard's few behaviours; every page works without them.
(function () {
  "use strict";

  // Copy a freshly created key to the clipboard.
  document.querySelectorAll("[data-copy]").forEach(function (button) {
    button.addEventListener("click", function () {
      var input = document.getElementById(button.getAttribute("data-copy"));
      var note = button.parentNode.querySelector(".copied");
      function done(ok) {
        if (note) note.textContent = ok ? "Copied" : "Select the key and copy it";
      }
      input.focus();
      input.select();
      if (navigator.clipboard && window.isSecureContext) {
        navigator.clipboard.writeText(input.value).then(function () { done(true); }, function () {
          done(document.execCommand("copy"));
        });
      } else {
        done(document.execCommand("copy"));
      }
    });
  });

  // Ask before destructive actions.
  document.querySelectorAll("[data-confirm]").forEach(function (button) {
    button.addEventListener("click", function (event) {
      if (!window.confirm(button.getAttribute("data-confirm"))) event.preventDefault();
    });
  });

  // Select every entry on the page.
  var all = document.querySelector("[data-select-all]");
  if (all) {
    var boxes = document.querySelectorAll('.entries input[name="id"]');
    all.addEventListener("change", function () {
      boxes.forEach(function (box) { box.checked = all.checked; });
    });
    boxes.forEach(function (box) {
      box.addEventListener("change", function () {
        var checked = Array.prototype.filter.call(boxes, function (b) { return b.checked; }).length;
        all.checked = checked === boxes.length;
        all.indeterminate = checked > 0 && checked < boxes.length;
      });
    });
  }

  // Follow a running deployment: reload while it is queued or running.
  var refresh = document.querySelector("[data-refresh]");
  if (refresh) {
    window.setTimeout(function () { window.location.reload(); },
      1000 * Number(refresh.getAttribute("data-refresh") || 2));
  }
})();
