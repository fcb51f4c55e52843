// Behaviour of every page, attached here because the Content-Security-Policy forbids
// inline handlers: a select that submits its form on change (the language switch), a
// print button, and a link that submits a POST form (log out).
document.addEventListener("change", (event) => {
  const field = event.target;
  if (field.matches && field.matches("[data-submit-on-change]") && field.form) {
    field.form.submit();
  }
});

document.addEventListener("click", (event) => {
  if (!(event.target instanceof Element)) return;
  if (event.target.closest("[data-print]")) {
    window.print();
    return;
  }
  const link = event.target.closest("[data-submit-form]");
  if (link) {
    const form = document.getElementById(link.dataset.submitForm);
    if (form) {
      event.preventDefault();
      form.submit();
    }
  }
});
