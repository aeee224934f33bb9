// The experiment app's page: consent, timed QA (calibration + trials) or Maze.
// Times come from performance.now(); every answer is posted at once and the server decides
// what comes next (so a reload resumes where the participant stopped).
"use strict";
(function () {
  const $ = (id) => document.getElementById(id);
  const EXPERIMENT = document.body.dataset.experiment;
  // Timing log for inspection (the browser test reads it): one entry per timed sentence.
  window.cgLog = { timings: [], maze: [], states: 0 };
  let key = null;

  function show(id) {
    for (const s of ["consent", "qa", "maze", "done"]) $(s).hidden = (s !== id);
  }

  async function api(method, path, body) {
    const token = document.querySelector('meta[name="csrf-token"]').getAttribute("content");
    const opts = { method, headers: { "Content-Type": "application/json", "X-CSRF-Token": token } };
    if (body !== undefined) opts.body = JSON.stringify(body);
    const res = await fetch(path, opts);
    let data = {};
    try { data = await res.json(); } catch (e) { data = { error: "the server sent no JSON" }; }
    if (!res.ok) { const err = new Error(data.error || res.statusText); err.status = res.status; throw err; }
    return data;
  }

  const nextFrame = () => new Promise((r) => requestAnimationFrame(() => r(performance.now())));

  function urlKey() {
    const q = new URLSearchParams(location.search);
    return q.get("key") || q.get("PROLIFIC_PID") || q.get("workerId") || null;
  }

  async function begin() {
    const given = urlKey() || localStorage.getItem("cg-experiment-key");
    if (given) {
      $("key").value = given;
      try {                                   // a known key resumes without the consent page
        const st = await api("GET", "/api/state?key=" + encodeURIComponent(given));
        key = given; return route(st);
      } catch (e) { if (e.status !== 404) $("start-error").textContent = e.message; }
    }
    show("consent");
  }

  $("start").addEventListener("click", async () => {
    $("start-error").textContent = "";
    try {
      const st = await api("POST", "/api/start", { key: $("key").value.trim(), consent: $("agree").checked });
      key = st.key; localStorage.setItem("cg-experiment-key", key);
      route(st);
    } catch (e) { $("start-error").textContent = e.message; }
  });

  async function refresh() {
    try { route(await api("GET", "/api/state?key=" + encodeURIComponent(key))); }
    catch (e) { $(EXPERIMENT === "qa" ? "qa-error" : "maze-error").textContent = e.message; }
  }

  function route(st) {
    window.cgLog.states += 1;
    $("progress").textContent = `${st.answered} of ${st.total} done`;
    if (st.done) return finish(st);
    if (st.experiment === "qa") return qaTrial(st);
    return mazeSentence(st);
  }

  function finish(st) {
    show("done");
    $("code").textContent = st.code;
    if (st.completion_url) { $("return").hidden = false; $("return-link").href = st.completion_url; }
  }

  // ------------------------------------------------------------------ QA
  let answering = null;   // {position, kind, t0, tq}

  function setButtons(enabled) {
    for (const b of document.querySelectorAll("#answers .answer")) b.disabled = !enabled;
  }

  async function qaTrial(st) {
    show("qa");
    const t = st.trial;
    $("qa-error").textContent = ""; $("feedback").textContent = ""; $("feedback").className = "feedback";
    $("next").hidden = true; $("question").textContent = t.question;
    delete $("question-box").dataset.ready;
    $("sentence").dataset.position = t.position;
    $("sentence").dataset.kind = t.kind;
    if (t.kind === "calibration") {
      $("phase").textContent = `Practice ${t.position + 1} of ${st.calibration}: take your time.`;
      $("sentence").textContent = t.text; $("sentence").hidden = false;
      $("question-box").hidden = false; setButtons(true);
      const t0 = await nextFrame();
      answering = { position: t.position, kind: t.kind, t0, tq: t0 };
      $("question-box").dataset.ready = String(t.position);
      return;
    }
    const n = t.position - st.calibration + 1, of = st.total - st.calibration;
    $("phase").textContent = `Sentence ${n} of ${of}: it disappears after a short time.`;
    $("question-box").hidden = true;
    if (t.shown) {                     // shown before a reload: never again, straight to the question
      $("sentence").hidden = true; $("sentence").textContent = "";
      return askQuestion(t);
    }
    try { await api("POST", "/api/shown", { key, position: t.position }); }
    catch (e) { $("qa-error").textContent = e.message; return; }
    $("sentence").textContent = t.text; $("sentence").hidden = false;
    // t0: the frame that paints the sentence; t1: the first frame painted without it.
    const t0 = await nextFrame();
    const target = t.display_ms;
    let elapsed;
    while ((elapsed = performance.now() - t0) < target) {     // timers may fire a little early
      await new Promise((r) => setTimeout(r, target - elapsed));
    }
    $("sentence").textContent = ""; $("sentence").hidden = true;
    const hiddenAt = performance.now();
    const t1 = await nextFrame();
    const actual = t1 - t0;
    window.cgLog.timings.push({ position: t.position, target, actual, t0, t1, hiddenAt });
    try { await api("POST", "/api/hidden", { key, position: t.position, actual_ms: actual }); }
    catch (e) { $("qa-error").textContent = e.message; }
    askQuestion(t);
  }

  async function askQuestion(t) {
    $("question-box").hidden = false; setButtons(true);
    const tq = await nextFrame();
    answering = { position: t.position, kind: t.kind, t0: null, tq };
    $("question-box").dataset.ready = String(t.position);
  }

  for (const b of document.querySelectorAll("#answers .answer")) {
    b.addEventListener("click", async () => {
      if (!answering) return;
      const now = performance.now(), a = answering;
      setButtons(false);
      delete $("question-box").dataset.ready;
      const body = { key, position: a.position, answer: b.dataset.answer,
                     question_ms: now - a.tq, total_ms: a.t0 === null ? null : now - a.t0 };
      try {
        const res = await api("POST", "/api/answer", body);
        const fb = $("feedback");
        if (res.retry) {
          fb.textContent = "Not quite: read the sentence again and choose another answer.";
          fb.className = "feedback wrong"; setButtons(true);
          $("question-box").dataset.ready = String(a.position); return;
        }
        answering = null;
        fb.textContent = res.correct ? "Right." : `Wrong: the answer was "${res.correct_answer}".`;
        fb.className = "feedback " + (res.correct ? "right" : "wrong");
        $("next").hidden = false; $("next").focus();
      } catch (e) {
        $("qa-error").textContent = e.message;
        if (e.status === 409) { answering = null; $("next").hidden = false; } else setButtons(true);
      }
    });
  }
  $("next").addEventListener("click", () => { $("next").hidden = true; refresh(); });

  // ------------------------------------------------------------------ Maze
  let maze = null;   // {t, i, t0, first, errors}

  function mazeSentence(st) {
    show("maze");
    const t = st.trial;
    $("maze-phase").textContent = `Sentence ${st.answered + 1} of ${st.total}`;
    $("maze-error").textContent = "";
    maze = { t, i: t.next_word, t0: null, first: null, errors: 0, waiting: true };
    $("maze-pair").hidden = true; $("maze-keys").hidden = true;
    $("maze-first").textContent = t.words.slice(0, t.next_word).join(" ");
    $("maze-begin").hidden = false;
  }

  async function mazeWord() {
    const t = maze.t, i = maze.i;
    const right = t.sides[i] === "right";
    $("maze-left").textContent = right ? t.distractors[i] : t.words[i];
    $("maze-right").textContent = right ? t.words[i] : t.distractors[i];
    $("maze-pair").dataset.word = i;
    $("maze-begin").hidden = true; $("maze-pair").hidden = false; $("maze-keys").hidden = false;
    $("maze-error").textContent = "";
    maze.first = null; maze.errors = 0; maze.busy = false; maze.t0 = null;
    delete $("maze-pair").dataset.ready;
    maze.t0 = await nextFrame();
    $("maze-pair").dataset.ready = String(i);
  }

  document.addEventListener("keydown", async (ev) => {
    if (EXPERIMENT !== "maze" || !maze || $("maze").hidden) return;
    if (maze.waiting) {
      if (ev.key === " " || ev.code === "Space") { ev.preventDefault(); maze.waiting = false; mazeWord(); }
      return;
    }
    if (maze.busy || maze.t0 === null) return;
    const k = ev.key.toLowerCase();
    if (k !== "e" && k !== "i") return;
    const now = performance.now() - maze.t0;
    const chosen = k === "e" ? "left" : "right";
    const t = maze.t, i = maze.i;
    if (maze.first === null) maze.first = now;
    if (chosen !== t.sides[i]) {
      maze.errors += 1;
      $("maze-error").textContent = "Wrong word: choose the other one.";
      window.cgLog.maze.push({ position: t.position, word: i, chosen, ok: false, ms: now });
      api("POST", "/api/maze-error", { key, position: t.position, word_index: i, ms: now })
        .catch((e) => { $("maze-error").textContent = e.message; });
      return;
    }
    window.cgLog.maze.push({ position: t.position, word: i, chosen, ok: true, ms: now });
    maze.busy = true;
    try {
      await api("POST", "/api/maze", { key, position: t.position, word_index: i, side: t.sides[i],
                                       n_errors: maze.errors, first_ms: maze.first, correct_ms: now });
    } catch (e) { $("maze-error").textContent = e.message; if (e.status === 409) refresh(); return; }
    if (i + 1 < t.words.length) { maze.i = i + 1; mazeWord(); }
    else { maze = null; refresh(); }
  });

  begin();
})();
