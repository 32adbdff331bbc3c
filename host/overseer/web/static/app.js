// Overseer's page on the table's phones: follows the game by server-sent events (the
// browser's EventSource resumes with Last-Event-ID after a dropped connection), fills the
// glass, the question and the log, and fetches the party and story pages again when the game
// changes. Plain JavaScript, no library: the table has no internet.
"use strict";
(function () {
  const page = document.body.dataset.page;
  const paired = document.body.dataset.paired === "1";
  const $ = (id) => document.getElementById(id);
  const el = (tag, cls, text) => {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  };
  let groups = null; // the log's current round and activation lists
  let question = null;

  async function post(path, body) {
    const r = await fetch(path, {method: "POST", headers: {"content-type": "application/json"},
                                 body: JSON.stringify(body), credentials: "same-origin"});
    let said = "";
    try { said = (await r.json()).said; } catch (e) { said = r.statusText; }
    return {ok: r.ok, said: said};
  }

  // ------------------------------------------------------------------ the log
  function resetLog() {
    const log = $("log");
    if (log) log.replaceChildren();
    groups = null;
  }
  function lastGroups(log) {
    // where the log stands: its last round and the last activation in it
    const rounds = log.querySelectorAll(":scope > li.round");
    if (!rounds.length) return {round: undefined, actor: undefined};
    const r = rounds[rounds.length - 1];
    const acts = r.querySelectorAll(":scope > ol > li.activation");
    const a = acts.length ? acts[acts.length - 1] : null;
    return {round: r.dataset.round, roundList: r.querySelector("ol"),
            actor: a ? a.dataset.actor : undefined, list: a ? a.querySelector("ol") : null};
  }
  function groupFor(round, actor) {
    const log = $("log");
    if (!log) return null;
    if (groups === null) groups = lastGroups(log);
    const r = JSON.stringify(round);
    if (r !== groups.round) {
      const li = el("li", "round");
      li.dataset.round = r;
      li.append(el("h3", "", round === null ? "Setup" : "Round " + round));
      groups.roundList = el("ol");
      li.append(groups.roundList);
      log.append(li);
      groups.round = r;
      groups.actor = undefined;
    }
    if (actor !== groups.actor) {
      const li = el("li", "activation");
      li.dataset.actor = actor;
      if (actor) li.append(el("h4", "", actor));
      groups.list = el("ol");
      li.append(groups.list);
      groups.roundList.append(li);
      groups.actor = actor;
    }
    return groups.list;
  }
  function addStep(s) {
    const list = groupFor(s.round, s.actor);
    if (!list) return;
    const li = el("li", "step" + (s.verified ? "" : " unprinted"));
    li.dataset.n = s.n;
    li.dataset.kind = s.kind;
    if (!s.verified) li.append(el("span", "mark", "! "));
    li.append(el("span", "text", s.text));
    li.append(el("span", "rule", s.rule));
    list.append(li);
  }
  function addAnswer(a, where) {
    let list = where;
    if (!list) {
      const log = $("log");
      if (!log) return;
      if (groups === null) groups = lastGroups(log);
      list = groups.list || groupFor(null, "");
    }
    const li = el("li", "answer");
    li.dataset.seq = a.seq;
    li.append(el("span", "mark", "? "));
    if (a.question) li.append(el("span", "text", a.question + " "));
    li.append(el("strong", "", a.answer));
    li.append(el("span", "by", " by " + a.by));
    list.append(li);
  }
  function cut(c) {
    const log = $("log");
    if (!log) return;
    log.querySelectorAll("li.step").forEach((li) => {
      if (Number(li.dataset.n) >= c.steps) li.remove();
    });
    log.querySelectorAll("li.answer").forEach((li) => {
      if (Number(li.dataset.seq) >= c.head) li.remove();
    });
    log.querySelectorAll("li.activation, li.round").forEach((li) => {
      if (!li.querySelector("li.step, li.answer")) li.remove();
    });
    groups = null; // the next step finds where the log stands
  }

  // ------------------------------------------------------------------ the question
  function showQuestion(q) {
    question = q;
    const box = $("question");
    if (!box) return;
    box.replaceChildren();
    if (!q) { box.hidden = true; return; }
    box.hidden = false;
    box.append(el("h2", "", "Question"), el("p", "prompt", q.prompt));
    if (!q.phone || !paired) {
      box.append(el("p", "hint", q.phone ? "Answer on the box, or pair this phone."
                                          : "Answer this one on the box."));
      return;
    }
    const said = el("p", "said");
    const send = async (value) => {
      const r = await post("/answer", {asked: q.asked, value: value});
      said.textContent = r.said;
    };
    if (q.options && q.kind !== "ChooseSome") {
      q.options.forEach((o) => {
        const b = el("button", "option", o.label);
        b.addEventListener("click", () => send(o.value));
        box.append(b);
      });
    } else if (q.options) {
      q.options.forEach((o, n) => {
        const label = el("label", "option");
        const box2 = el("input");
        box2.type = "checkbox"; box2.value = n;
        label.append(box2, " " + o.label);
        box.append(label);
      });
      const b = el("button", "send", "Send");
      b.addEventListener("click", () => {
        const ticked = [...box.querySelectorAll("input:checked")].map((i) => q.options[i.value].value);
        send(ticked);
      });
      box.append(b);
    } else {
      const input = el("input", "number");
      input.type = "number"; input.min = q.low; input.max = q.high; input.value = q.low;
      const b = el("button", "send", "Send");
      b.addEventListener("click", () => send(Number(input.value)));
      box.append(input, b);
    }
    box.append(said);
  }

  // ------------------------------------------------------------------ the other pages
  let refetching = null;
  function refetch() {
    if (page !== "party" && page !== "story") return;
    if (refetching) { refetching.again = true; return; }
    refetching = {again: false};
    fetch("/" + page + "?part=1", {credentials: "same-origin"}).then((r) => r.text()).then((html) => {
      const old = $(page);
      const t = document.createElement("template");
      t.innerHTML = html;
      if (old && t.content.firstElementChild) old.replaceWith(t.content.firstElementChild);
      wirePrint();
    }).finally(() => {
      const again = refetching.again;
      refetching = null;
      if (again) refetch();
    });
  }
  function wirePrint() {
    const p = $("print");
    if (p) p.addEventListener("click", () => window.print());
  }
  wirePrint();

  // ------------------------------------------------------------------ the events
  const source = new EventSource("/events");
  const on = (kind, fn) => source.addEventListener(kind, (e) => {
    fn(JSON.parse(e.data));
    document.body.dataset.last = e.lastEventId;
  });
  on("game", (g) => {
    resetLog();
    showQuestion(null);
    const name = $("game");
    if (name) name.textContent = g ? g.title + " #" + g.id : "No game yet";
    refetch();
  });
  on("step", addStep);
  on("action", () => {});
  on("answer", (a) => addAnswer(a));
  on("earlier", (list) => {
    const log = $("log");
    if (!log || !list.length) return;
    const li = el("li", "earlier");
    li.append(el("h3", "", "Answered before this page followed the game"));
    const ol = el("ol");
    list.forEach((a) => addAnswer(a, ol));
    li.append(ol);
    log.append(li);
  });
  on("cut", cut);
  on("ask", showQuestion);
  // The glass: its bits from the event (the Pico's own frame: 8 pages of 128 bytes, a page's
  // byte a column of 8 pixels, bit 0 the top one), else its picture from the box. Only the
  // last of a burst of events is drawn.
  let picture = null;
  function draw(canvas, g) {
    const ctx = canvas.getContext("2d");
    if (!g.bits) {
      const img = new Image();
      img.onload = () => ctx.drawImage(img, 0, 0, 128, 64);
      img.src = "/glass.png?v=" + g.v;
      return;
    }
    const bytes = Uint8Array.from(atob(g.bits), (c) => c.charCodeAt(0));
    const pixels = ctx.createImageData(128, 64);
    for (let y = 0; y < 64; y++) {
      for (let x = 0; x < 128; x++) {
        const on = bytes[(y >> 3) * 128 + x] & (1 << (y & 7));
        const i = (y * 128 + x) * 4;
        pixels.data[i] = pixels.data[i + 1] = pixels.data[i + 2] = on ? 255 : 0;
        pixels.data[i + 3] = 255;
      }
    }
    ctx.putImageData(pixels, 0, 0);
  }
  on("glass", (g) => {
    const canvas = $("glass");
    if (canvas) {
      if (picture === null) setTimeout(() => { draw(canvas, picture); picture = null; }, 30);
      picture = g;
    }
    const text = $("glass-text");
    if (text) {
      const lines = [g.title + (g.mark ? "  " + g.mark : "")];
      if (g.key) lines.push(g.key);
      lines.push(...g.lines, ...g.rows);
      if (g.number !== null) lines.push(String(g.number));
      text.textContent = lines.join("\n");
    }
  });
  on("party", () => { refetch(); refetchHand(); });
  on("glass", () => { if (Date.now() < claiming) refetchHand(); }); // its card may have come
  source.addEventListener("reload", () => location.reload());

  // ------------------------------------------------------------------ the phone's hand
  // A paired phone's part of the live page (a hand it holds, else the claim's buttons): its
  // own request, never the events every page gets (web/hands.py).
  let claiming = 0; // a claim waits until then (web/hands.py's WAIT)
  let handing = null;
  function wireHand() {
    document.querySelectorAll("#hand button.claim").forEach((b) => {
      b.addEventListener("click", async () => {
        const r = await post("/claim", {player: b.dataset.player});
        claiming = r.ok ? Date.now() + 60000 : 0;
        const said = $("claim-said");
        if (said) said.textContent = r.said;
      });
    });
  }
  function refetchHand() {
    const old = $("hand");
    if (!old || !paired) return;
    if (handing) { handing.again = true; return; }
    handing = {again: false};
    fetch("/hand", {credentials: "same-origin"}).then((r) => r.ok ? r.text() : "").then((html) => {
      const t = document.createElement("template");
      t.innerHTML = html;
      const part = t.content.firstElementChild;
      const now = $("hand");
      if (!part || !now) return;
      const said = $("claim-said");
      const keep = said ? said.textContent : "";
      if (part.dataset.held) claiming = 0;
      now.replaceWith(part);
      const again = $("claim-said");
      if (again && Date.now() < claiming) again.textContent = keep;
      wireHand();
    }).finally(() => {
      const again = handing.again;
      handing = null;
      if (again) refetchHand();
    });
  }
  wireHand();

  // ------------------------------------------------------------------ pairing
  const form = $("pair");
  if (form) {
    form.addEventListener("submit", async (e) => {
      e.preventDefault();
      const r = await post("/pair", {code: form.code.value});
      $("pair-said").textContent = " " + r.said;
      if (r.ok) location.reload();
    });
    $("show-code").addEventListener("click", async () => {
      const r = await post("/show-code", {});
      $("pair-said").textContent = " " + r.said;
    });
  }
})();
