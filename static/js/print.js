// The printable standings: the "Print" button opens the browser's print dialog.
document.querySelectorAll("[data-print]").forEach(function (button) {
  button.addEventListener("click", function () { window.print(); });
});
