// Behaviour the pages ask for with data- attributes, so that they need no inline script (Content-Security-Policy).
// <select data-submit-on-change>: choosing an option submits its form (the page still has a submit button).
document.addEventListener("change", function (event) {
  var target = event.target;
  if (target instanceof HTMLSelectElement && target.hasAttribute("data-submit-on-change") && target.form) {
    target.form.submit();
  }
});
