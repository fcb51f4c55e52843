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

// A preset option's own values (games/forms.py: data-custom-of) show only while its
// choice list (data-preset) says "custom"; hidden, they are ignored when saved.
function showCustomValues() {
  document.querySelectorAll("[data-custom-of]").forEach((input) => {
    const preset = input.form &&
      input.form.querySelector(`[data-preset="${input.dataset.customOf}"]`);
    const holder = input.closest("p") || input.parentElement;
    if (preset && holder) holder.hidden = preset.value !== input.dataset.customValue;
  });
}
document.addEventListener("change", (event) => {
  if (event.target.matches && event.target.matches("[data-preset]")) showCustomValues();
});
showCustomValues();

// A form marked data-once sends once: its submit buttons are disabled while the answer
// comes (a double tap at the door would otherwise sign up twice in a row).
document.addEventListener("submit", (event) => {
  const form = event.target;
  if (!(form instanceof HTMLFormElement) || !form.hasAttribute("data-once")) return;
  if (form.dataset.sent === "1") {
    event.preventDefault();
    return;
  }
  form.dataset.sent = "1";
});
