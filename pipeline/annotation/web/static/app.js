/* counter-gap local annotation app: name, then one question at a time (see serve.py). */
(function () {
  "use strict";
  var annotator = null, ctl = null, busy = false;
  var $ = function (id) { return document.getElementById(id); };

  function show(id) {
    ["start", "task", "done"].forEach(function (s) { $(s).classList.toggle("hidden", s !== id); });
  }

  function display(state) {
    if (state.done) { show("done"); return; }
    show("task");
    $("progress").textContent = annotator + ": " + state.answered + " answered, " + state.open + " open";
    ctl = CounterGap.mount($("question"), state.question, { prefix: "cg-app" });
    $("question").setAttribute("data-id", state.question.id);
  }

  function request(url, body) {
    var token = document.querySelector('meta[name="csrf-token"]').getAttribute("content");
    var opts = body ? { method: "POST", headers: { "Content-Type": "application/json", "X-CSRF-Token": token },
                        body: JSON.stringify(body) } : { headers: { "X-CSRF-Token": token } };
    return fetch(url, opts).then(function (r) {
      return r.json().then(function (data) { data.status = r.status; return data; });
    });
  }

  function start() {
    var name = $("annotator").value.replace(/\s+/g, " ").trim();
    if (!name) { $("start-error").textContent = "Type your name first."; return; }
    annotator = name;
    try { localStorage.setItem("cg-annotator", name); } catch (e) { /* private mode */ }
    request("/api/next?annotator=" + encodeURIComponent(name)).then(function (data) {
      if (data.error) { $("start-error").textContent = data.error; return; }
      display(data);
    });
  }

  function submit() {
    if (!ctl || busy) { return; }
    if (ctl.validate()) { return; }
    var a = ctl.answer();
    a.annotator = annotator;
    busy = true;
    request("/api/answer", a).then(function (data) {
      busy = false;
      if (data.ok || data.status === 409) { display(data.next); return; }
      ctl.showError(data.error || "the answer was not saved");
    }, function () { busy = false; ctl.showError("The server did not answer; try again."); });
  }

  document.addEventListener("DOMContentLoaded", function () {
    try { $("annotator").value = localStorage.getItem("cg-annotator") || ""; } catch (e) { /* */ }
    $("start-button").addEventListener("click", start);
    $("annotator").addEventListener("keydown", function (e) { if (e.key === "Enter") { start(); } });
    $("submit").addEventListener("click", submit);
  });
})();
