/* counter-gap annotation widget: shared by the MTurk template and the local web app.
 *
 * A question is {id, text, pronoun: [start, end], persons: [[[start, end], ...], ...]}.
 * Offsets are Unicode code points (as in Python), converted to/from the browser's UTF-16 units.
 * The worker highlights the name(s) coreferent with the pronoun by selecting text with the
 * mouse (a selection grows to whole words), or ticks "no names are coreferent". The checks
 * on submit mirror pipeline/annotation/core/questions.py:check_answer.
 */
(function (global) {
  "use strict";

  var LEAD = /^[^\p{L}\p{N}]+/u, TRAIL = /[^\p{L}\p{N}]+$/u, POSS = /['\u2019][sS]?$/u;
  var WORD = /[\p{L}\p{N}]/u;

  function points(text) { return Array.from(text); }

  function unitsToPoints(text, units) { return Array.from(text.slice(0, units)).length; }

  function trim(chars, s, e) {
    var piece = chars.slice(s, e).join("");
    var lead = piece.length - piece.replace(LEAD, "").length;
    s += Array.from(piece.slice(0, lead)).length;
    piece = chars.slice(s, e).join("").replace(TRAIL, "");
    piece = piece.replace(POSS, "").replace(TRAIL, "");
    return [s, Math.max(s, s + Array.from(piece).length)];
  }

  function personOf(q, chars, s, e) {
    var t = trim(chars, s, e);
    if (t[1] <= t[0]) { return null; }
    for (var i = 0; i < q.persons.length; i++) {
      for (var j = 0; j < q.persons[i].length; j++) {
        var m = q.persons[i][j];
        if (m[0] <= t[0] && t[1] <= m[1]) { return i; }
      }
    }
    return null;
  }

  /* Returns an error message, or null when the answer passes every check. */
  function check(q, chars, spans, none) {
    if (none && spans.length) {
      return "The box \u201cno names are coreferent\u201d cannot be combined with a highlight: remove the highlight or untick the box.";
    }
    if (!none && !spans.length) {
      return "Highlight the name coreferent with the pronoun, or tick \u201cno names are coreferent\u201d.";
    }
    var people = {};
    for (var k = 0; k < spans.length; k++) {
      var p = personOf(q, chars, spans[k][0], spans[k][1]);
      if (p === null) {
        return "\u201c" + chars.slice(spans[k][0], spans[k][1]).join("") + "\u201d is not a personal name of the text: highlight a name only.";
      }
      people[p] = true;
    }
    if (Object.keys(people).length > 1) {
      return "Your highlights name several people: highlight one person only.";
    }
    return null;
  }

  function el(tag, cls, text) {
    var node = document.createElement(tag);
    if (cls) { node.className = cls; }
    if (text !== undefined) { node.textContent = text; }
    return node;
  }

  /* Build the question's interface inside `root`; returns a controller. */
  function mount(root, q, opts) {
    opts = opts || {};
    var chars = points(q.text);
    var spans = [];
    var prefix = opts.prefix || "cg";
    root.innerHTML = "";
    root.classList.add("cg-widget");
    root.appendChild(el("p", "cg-help", "Highlight with the mouse the name(s) that the highlighted pronoun refers to. Click a highlight to remove it."));
    var textBox = el("div", "cg-text");
    textBox.setAttribute("data-role", "text");
    root.appendChild(textBox);
    var tools = el("div", "cg-tools");
    var addBtn = el("button", "cg-add", "Highlight selection");
    addBtn.type = "button";
    var clearBtn = el("button", "cg-clear", "Clear highlights");
    clearBtn.type = "button";
    tools.appendChild(addBtn);
    tools.appendChild(clearBtn);
    root.appendChild(tools);
    var noneLabel = el("label", "cg-none-label");
    var noneBox = el("input", "cg-none");
    noneBox.type = "checkbox";
    noneBox.id = prefix + "-none";
    noneLabel.appendChild(noneBox);
    noneLabel.appendChild(document.createTextNode(" No names are coreferent with the given pronoun"));
    root.appendChild(noneLabel);
    var flagLabel = el("label", "cg-flag-label", "If this text contradicts common sense (for example a man giving birth), describe the contradiction; otherwise leave this empty:");
    root.appendChild(flagLabel);
    var flagBox = el("textarea", "cg-flag");
    flagBox.rows = 2;
    flagBox.id = prefix + "-contradiction";
    root.appendChild(flagBox);
    var errorBox = el("p", "cg-error");
    errorBox.setAttribute("role", "alert");
    root.appendChild(errorBox);

    function render() {
      var cuts = [0, chars.length, q.pronoun[0], q.pronoun[1]];
      spans.forEach(function (s) { cuts.push(s[0], s[1]); });
      cuts = cuts.filter(function (v, i, a) { return a.indexOf(v) === i; }).sort(function (a, b) { return a - b; });
      textBox.innerHTML = "";
      for (var i = 0; i + 1 < cuts.length; i++) {
        var a = cuts[i], b = cuts[i + 1];
        var piece = chars.slice(a, b).join("");
        var isPronoun = a >= q.pronoun[0] && b <= q.pronoun[1];
        var hl = -1;
        for (var k = 0; k < spans.length; k++) {
          if (a >= spans[k][0] && b <= spans[k][1]) { hl = k; }
        }
        if (!isPronoun && hl < 0) { textBox.appendChild(document.createTextNode(piece)); continue; }
        var node = el(hl >= 0 ? "mark" : "span", "", piece);
        if (isPronoun) { node.classList.add("cg-pronoun"); }
        if (hl >= 0) {
          node.classList.add("cg-highlight");
          node.setAttribute("data-span", spans[hl][0] + "," + spans[hl][1]);
          node.title = "click to remove";
          (function (idx) {
            node.addEventListener("click", function () { spans.splice(idx, 1); render(); });
          })(hl);
        }
        textBox.appendChild(node);
      }
    }

    function offsetIn(node, offset) {
      var r = document.createRange();
      r.selectNodeContents(textBox);
      r.setEnd(node, offset);
      return unitsToPoints(textBox.textContent, r.toString().length);
    }

    function addSelection() {
      var sel = global.getSelection();
      if (!sel || sel.rangeCount === 0 || sel.isCollapsed) { return false; }
      var range = sel.getRangeAt(0);
      if (!textBox.contains(range.startContainer) || !textBox.contains(range.endContainer)) { return false; }
      var s = offsetIn(range.startContainer, range.startOffset);
      var e = offsetIn(range.endContainer, range.endOffset);
      if (e < s) { var t = s; s = e; e = t; }
      while (s > 0 && WORD.test(chars[s - 1]) && WORD.test(chars[s])) { s--; }
      while (e < chars.length && e > 0 && WORD.test(chars[e]) && WORD.test(chars[e - 1])) { e++; }
      var trimmed = trim(chars, s, e);
      sel.removeAllRanges();
      if (trimmed[1] <= trimmed[0]) { return false; }
      spans = spans.filter(function (x) { return x[1] <= trimmed[0] || x[0] >= trimmed[1]; });
      spans.push(trimmed);
      spans.sort(function (x, y) { return x[0] - y[0]; });
      errorBox.textContent = "";
      render();
      return true;
    }

    textBox.addEventListener("mouseup", function () { addSelection(); });
    addBtn.addEventListener("click", function () { addSelection(); });
    clearBtn.addEventListener("click", function () { spans = []; render(); });
    render();

    return {
      question: q,
      validate: function () {
        var err = check(q, chars, spans, noneBox.checked);
        errorBox.textContent = err || "";
        return err;
      },
      answer: function () {
        return {
          id: q.id,
          spans: spans.map(function (s) { return [s[0], s[1], chars.slice(s[0], s[1]).join("")]; }),
          none: noneBox.checked,
          contradiction: flagBox.value.trim()
        };
      },
      showError: function (msg) { errorBox.textContent = msg || ""; }
    };
  }

  global.CounterGap = { mount: mount, check: check, trim: trim, points: points };
})(window);
