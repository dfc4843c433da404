(function () {
  "use strict";
  function fallbackCopy(text) {
    var ta = document.createElement("textarea");
    ta.value = text;
    ta.setAttribute("readonly", "");
    ta.className = "offscreen";
    document.body.appendChild(ta);
    ta.select();
    var ok = false;
    try { ok = document.execCommand("copy"); } catch (e) { ok = false; }
    document.body.removeChild(ta);
    return ok;
  }
  function show(btn, ok) {
    btn.textContent = ok ? "Copied" : "Select and copy";
    window.setTimeout(function () { btn.textContent = "Copy"; }, 1600);
  }
  function onClick(ev) {
    var btn = ev.currentTarget;
    var el = document.getElementById(btn.getAttribute("data-copy"));
    if (!el) { return; }
    var text = el.textContent;
    if (navigator.clipboard && navigator.clipboard.writeText) {
      navigator.clipboard.writeText(text).then(function () { show(btn, true); },
        function () { show(btn, fallbackCopy(text)); });
    } else {
      show(btn, fallbackCopy(text));
    }
  }
  var buttons = document.querySelectorAll("button[data-copy]");
  for (var i = 0; i < buttons.length; i++) {
    buttons[i].hidden = false;
    buttons[i].addEventListener("click", onClick);
  }
  document.documentElement.setAttribute("data-js", "ready");
})();
