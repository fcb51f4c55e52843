/* Public board: a full-screen mode for a projector (the standings refresh via htmx). */
(function () {
  "use strict";
  var button = document.getElementById("fullscreen");
  if (!button) { return; }
  button.addEventListener("click", function () {
    document.body.classList.toggle("fullscreen");
    if (document.fullscreenElement) { document.exitFullscreen(); }
    else if (document.documentElement.requestFullscreen) { document.documentElement.requestFullscreen().catch(function () {}); }
  });
  document.addEventListener("keydown", function (ev) {
    if (ev.key === "Escape") { document.body.classList.remove("fullscreen"); }
  });
})();
