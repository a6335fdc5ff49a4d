// The 够级 table in the browser. It only lays out what the server sends: which plays are
// legal and which buttons exist come from the table manager (the page decides no rule,
// and the server checks every action again). No framework, no build step, no other site.
"use strict";

(function () {
  const ORDER = "3456789TJQKA2SB"; // RULES notation, low to high
  const FACE = { T: "10", S: "小王", B: "大王" };
  const SMALL_FACE = { T: "10", S: "小", B: "大" }; // a narrow card: one character for a joker
  const SEAT_SLOTS = ["me", "r1", "r2", "top", "l2", "l1"]; // counter-clockwise from me
  const $ = (id) => document.getElementById(id);
  const root = $("root");

  const S = {
    table: "", token: "", texts: {}, lang: "zh", view: null, sel: {}, busy: false,
    deadlineAt: 0, source: null, replay: null, asking: false,
  };

  // -- texts ---------------------------------------------------------------------------
  function tr(key, params) {
    let s = S.texts[key] || key;
    for (const [k, v] of Object.entries(params || {})) s = s.split("{" + k + "}").join(String(v));
    return s;
  }
  async function loadTexts(lang) {
    if (S.textsLang === lang) return;
    const r = await fetch("api/texts?lang=" + encodeURIComponent(lang));
    S.texts = await r.json();
    S.textsLang = lang;
    S.lang = lang;
    document.documentElement.lang = lang;
    document.title = tr("web_title");
  }

  // -- cards ---------------------------------------------------------------------------
  function counts(notation) {
    const c = {};
    for (const ch of notation || "") c[ch] = (c[ch] || 0) + 1;
    return c;
  }
  function notation(sel) {
    let s = "";
    for (const ch of ORDER) s += ch.repeat(sel[ch] || 0);
    return s;
  }
  function face(ch) { return FACE[ch] || ch; }
  function cardEl(ch, extra) {
    const el = document.createElement("span");
    el.className = "card" + (ch === "S" || ch === "B" ? " joker" : "") + (ch === "B" ? " big" : "") + (ch === "T" ? " ten" : "") + (extra || "");
    el.textContent = (extra || "").indexOf("small") >= 0 ? SMALL_FACE[ch] || ch : face(ch);
    return el;
  }
  function cardsRow(cards, cls) {
    const row = document.createElement("span");
    row.className = cls || "cards";
    for (const ch of cards || "") row.appendChild(cardEl(ch, " small"));
    return row;
  }

  // -- the table -----------------------------------------------------------------------
  function mySeat() { const p = S.view && S.view.private; return p ? p.seat : 1; }
  function seatStatus(s, pub) {
    if (s.place) return tr("web_place_" + s.place);
    if (s.status === "out") return tr("web_st_out");
    if (s.status === "revolted") return tr("web_st_revolted");
    if (s.status === "dead") return tr("web_st_dead");
    if (s.burning) return tr("web_st_burning");
    if (s.autoplay) return tr("web_st_autoplay");
    if (pub.to_act === s.seat && pub.status === "playing") return tr("web_st_turn");
    return "";
  }
  function seatEl(s, pub, slot) {
    const me = S.view.private;
    const el = document.createElement("div");
    el.className = "seat team" + s.team + " slot-" + slot;
    el.dataset.seat = String(s.seat);
    if (pub.to_act === s.seat && pub.status === "playing") el.classList.add("turn");
    if (me && me.seat === s.seat) el.classList.add("mine");
    const head = document.createElement("div");
    head.className = "who";
    head.textContent = s.name;
    el.appendChild(head);
    const tags = document.createElement("div");
    tags.className = "tags";
    const tag = (text, cls) => { const t = document.createElement("span"); t.className = "tag " + cls; t.textContent = text; tags.appendChild(t); };
    tag(tr("web_seat", { n: s.seat }), "num");
    if (me && me.opposite === s.seat) tag(tr("web_opposite"), "opp");
    if (me && me.seat === s.seat) tag(tr("web_you"), "you");
    const st = seatStatus(s, pub);
    if (st) tag(st, "st");
    if (s.count !== null && s.count !== undefined) tag(tr("web_cards", { n: s.count }), "count");
    el.appendChild(tags);
    const last = document.createElement("div");
    last.className = "last";
    if (s.last === "pass") last.textContent = tr("web_pass_mark");
    else if (s.last === "rang") last.textContent = tr("web_rang_mark");
    else if (s.last) last.appendChild(cardsRow(s.last));
    el.appendChild(last);
    if (S.asking && pub.askable) {
      el.classList.add("askable");
      el.addEventListener("click", () => { S.asking = false; act({ op: "count", target: s.seat }); });
    }
    return el;
  }
  function renderTable(pub) {
    const table = $("table");
    for (const el of Array.from(table.querySelectorAll(".seat"))) el.remove();
    const base = mySeat();
    for (const s of pub.seats) {
      const slot = SEAT_SLOTS[(s.seat - base + 6) % 6];
      table.appendChild(seatEl(s, pub, slot));
    }
    const center = $("center");
    center.textContent = "";
    const top = pub.top || {};
    if (pub.status !== "playing") {
      center.textContent = tr("web_status_" + pub.status);
    } else if (top.cards) {
      const who = document.createElement("div");
      who.className = "topwho";
      const name = pub.seats[top.seat - 1].name;
      who.textContent = tr("web_top") + " · " + name;
      center.appendChild(who);
      center.appendChild(cardsRow(top.cards, "cards topcards"));
    } else if (pub.to_act) {
      center.textContent = tr("web_lead") + " · " + pub.seats[pub.to_act - 1].name;
    }
  }
  function renderBar(pub) {
    $("title").textContent = tr("web_title");
    $("handno").textContent = pub.hand_no ? tr("web_hand_no", { n: pub.hand_no }) : "";
    $("score").textContent = tr("web_score", { a: pub.totals[0], b: pub.totals[1] });
    const dl = S.view.deadline;
    S.deadlineAt = dl ? Date.now() + dl.in * 1000 : 0;
    tick();
  }
  function tick() {
    const left = S.deadlineAt ? Math.max(0, Math.ceil((S.deadlineAt - Date.now()) / 1000)) : null;
    $("clock").textContent = left === null ? "" : tr("web_countdown", { s: left });
    $("clock").classList.toggle("low", left !== null && left <= 10);
  }

  // -- my hand and my buttons ------------------------------------------------------------
  function legal(kind) {
    const p = S.view.private;
    const want = notation(S.sel);
    return !!p && want !== "" && p.plays.some((x) => x.cards === want && x.kinds.indexOf(kind) >= 0);
  }
  function returnable() {
    const p = S.view.private;
    const want = notation(S.sel);
    return !!p && p.returns.length > 0 && p.returns[0].options.indexOf(want) >= 0;
  }
  function tapRank(ch, held) {
    const n = (S.sel[ch] || 0) + 1;
    S.sel[ch] = n > held ? 0 : n;
    renderHand();
  }
  function renderHand() {
    const p = S.view && S.view.private;
    const hand = $("hand");
    hand.textContent = "";
    if (!p) return;
    const have = counts(p.hand);
    for (const ch of ORDER) {
      const n = have[ch] || 0;
      if (!n) continue;
      const group = document.createElement("div");
      group.className = "rank";
      group.dataset.rank = ch;
      const picked = Math.min(S.sel[ch] || 0, n);
      for (let i = 0; i < n; i++) {
        const c = cardEl(ch, i < picked ? " selected" : "");
        c.dataset.card = ch;
        c.setAttribute("role", "button");
        c.addEventListener("click", () => tapRank(ch, n));
        group.appendChild(c);
      }
      const badge = document.createElement("span");
      badge.className = "held";
      badge.textContent = picked ? picked + "/" + n : "×" + n;
      group.appendChild(badge);
      hand.appendChild(group);
    }
    renderControls();
  }
  function button(action, label, enabled, onTap, extra) {
    const b = document.createElement("button");
    b.type = "button";
    b.dataset.action = action;
    b.className = "btn " + (extra || "");
    b.textContent = label;
    b.disabled = !enabled || S.busy;
    b.addEventListener("click", onTap);
    return b;
  }
  function renderSuggest(p) {
    const box = $("suggest");
    box.textContent = "";
    if (!p || p.autoplay) return;
    for (const sug of p.suggest) {
      const chip = document.createElement("button");
      chip.type = "button";
      chip.className = "chip";
      chip.dataset.suggest = sug.cards;
      chip.textContent = tr("web_suggest_" + sug.why, { cards: sug.cards.split("").map(face).join(" ") });
      chip.disabled = S.busy;
      chip.addEventListener("click", () => act({ op: sug.kind, cards: sug.cards }));
      box.appendChild(chip);
    }
  }
  function renderControls() {
    const p = S.view && S.view.private;
    const pub = S.view && S.view.public;
    const box = $("controls");
    box.textContent = "";
    if (!p || !pub) return;
    const want = notation(S.sel);
    const kinds = new Set(p.plays.flatMap((x) => x.kinds));
    if (!p.autoplay) {
      if (kinds.has("play")) box.appendChild(button("play", tr("web_btn_play"), legal("play"), () => act({ op: "play", cards: want }), "primary"));
      if (kinds.has("burn")) box.appendChild(button("burn", tr("web_btn_burn"), legal("burn"), () => act({ op: "burn", cards: want }), "warn"));
      if (p.returns.length) box.appendChild(button("return", tr("web_btn_return"), returnable(), () => act({ op: "return", cards: want, target: p.returns[0].giver }), "primary"));
      for (const a of p.simple) {
        const label = tr("web_btn_" + a.op, { ranks: a.ranks || "" });
        box.appendChild(button(a.op, label, true, () => act({ op: a.op, ranks: a.ranks, pre: a.pre })));
      }
      if (p.ready) box.appendChild(button("ready", tr("web_btn_ready"), true, () => act({ op: "ready" })));
      if (want) box.appendChild(button("clear", tr("web_btn_clear"), true, () => { S.sel = {}; renderHand(); }, "ghost"));
    }
    if (pub.askable && pub.status === "playing") {
      box.appendChild(button("count", tr("web_btn_count"), true, () => { S.asking = !S.asking; render(); }, S.asking ? "on" : "ghost"));
    }
    if (pub.status === "playing") {
      const label = p.autoplay ? tr("web_btn_autoplay_off") : tr("web_btn_autoplay_on");
      box.appendChild(button("autoplay", label, true, () => act({ op: "autoplay", on: !p.autoplay }), "ghost"));
    }
    renderSuggest(p);
    renderHint(p, pub, want);
  }
  function renderHint(p, pub, want) {
    let text = "";
    if (S.asking) text = tr("web_count_pick");
    else if (p.returns.length) text = tr("web_return_hint", { count: p.returns[0].count, giver: p.returns[0].giver });
    else if (pub.declare_open && p.ready) text = tr("web_declare_hint");
    else if (p.role === "burn") text = tr("web_burn_hint");
    else if (p.role === "turn") text = tr("web_your_turn");
    if (want) {
      const n = want.length;
      const ok = legal("play") || legal("burn") || returnable();
      text = tr("web_selected", { n: n }) + (ok ? "" : " · " + tr("web_not_legal"));
    }
    $("hint").textContent = text;
  }

  function render() {
    const v = S.view;
    if (!v) return;
    const pub = v.public;
    root.dataset.version = String(pub.version);
    root.classList.toggle("spectator", !v.private);
    renderBar(pub);
    renderTable(pub);
    if (!v.private) {
      $("hand").textContent = "";
      $("controls").textContent = "";
      $("suggest").textContent = "";
      $("hint").textContent = tr("web_spectating");
      return;
    }
    renderHand();
  }

  // -- talking to the server ------------------------------------------------------------
  function toast(text) {
    const el = $("toast");
    if (!text) return;
    el.textContent = text;
    el.hidden = false;
    clearTimeout(S.toastTimer);
    S.toastTimer = setTimeout(() => { el.hidden = true; }, 2500);
  }
  function banner(text) {
    const el = $("banner");
    el.textContent = text || "";
    el.hidden = !text;
  }
  async function act(body) {
    if (S.busy || !S.view) return;
    S.busy = true;
    render();
    try {
      const payload = Object.assign({ t: S.table, s: S.token, version: S.view.public.version }, body);
      const r = await fetch("api/act?lang=" + S.lang, {
        method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(payload),
      });
      const answer = await r.json();
      if (answer.ok && (body.op === "play" || body.op === "burn" || body.op === "return")) S.sel = {};
      if (!answer.ok || body.op === "count") toast(answer.text);
    } catch (e) {
      toast(tr("web_offline"));
    } finally {
      S.busy = false;
      render();
    }
  }
  function accept(view) {
    const old = S.view;
    S.view = view;
    const p = view.private;
    // A new hand, or cards that left the hand: the selection no longer applies.
    if (!p || !old || !old.private || old.private.hand !== p.hand) S.sel = {};
    render();
  }
  function listen() {
    const url = "api/events?t=" + encodeURIComponent(S.table) + "&s=" + encodeURIComponent(S.token);
    const source = new EventSource(url);
    S.source = source;
    source.onmessage = (e) => { banner(""); accept(JSON.parse(e.data)); };
    source.onopen = () => banner("");
    source.onerror = () => banner(tr("web_offline"));
  }
  // Telegram's Mini App bridge without its script (nothing is loaded from another site):
  // the documented low-level calls, so the client drops its loader and opens full height.
  function telegram(eventType, eventData) {
    const data = JSON.stringify(eventData || {});
    try {
      if (window.TelegramWebviewProxy) window.TelegramWebviewProxy.postEvent(eventType, data);
      else if (window.parent !== window) window.parent.postMessage(JSON.stringify({ eventType: eventType, eventData: eventData || {} }), "https://web.telegram.org");
    } catch (e) { /* not inside Telegram after all */ }
  }
  async function session(params) {
    const hash = new URLSearchParams(location.hash.replace(/^#/, ""));
    const initData = hash.get("tgWebAppData");
    if (params.get("s")) return params.get("s");
    if (!initData) return "";
    telegram("web_app_ready");
    telegram("web_app_expand");
    const r = await fetch("api/session", {
      method: "POST", headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ t: S.table, init_data: initData }),
    });
    const answer = await r.json();
    return answer.ok ? answer.s : "";
  }
  async function fail(key) {
    await loadTexts((navigator.language || "zh").toLowerCase().startsWith("en") ? "en" : "zh");
    banner(tr(key));
    root.dataset.error = key;
  }
  async function start() {
    const params = new URLSearchParams(location.search);
    S.table = params.get("t") || "";
    await loadTexts(params.get("lang") === "en" ? "en" : "zh");
    banner(tr("web_loading"));
    S.token = await session(params);
    if (!S.table || !S.token) return fail("web_unauthorized");
    if (location.pathname.endsWith("/replay")) return replay(params);
    const r = await fetch("api/state?t=" + encodeURIComponent(S.table) + "&s=" + encodeURIComponent(S.token));
    if (r.status === 401) return fail("web_unauthorized");
    if (!r.ok) return fail("web_no_table");
    const view = await r.json();
    await loadTexts(view.public.lang);
    banner("");
    accept(view);
    listen();
    setInterval(tick, 250);
  }
  // -- a finished hand, trick by trick, every hand face up ------------------------------
  async function replay(params) {
    const q = "t=" + encodeURIComponent(S.table) + "&n=" + encodeURIComponent(params.get("n") || "") + "&s=" + encodeURIComponent(S.token);
    const r = await fetch("api/replay?" + q + "&lang=" + S.lang);
    if (r.status === 401) return fail("web_unauthorized");
    const rec = await r.json();
    if (!r.ok) { banner(rec.text); return; }
    banner("");
    root.classList.add("replay");
    S.replay = { rec: rec, at: 0 };
    document.addEventListener("keydown", (e) => {
      if (e.key === "ArrowLeft") stepTo(S.replay.at - 1);
      if (e.key === "ArrowRight") stepTo(S.replay.at + 1);
    });
    stepTo(0);
  }
  function stepTo(i) {
    const rec = S.replay.rec;
    S.replay.at = Math.max(0, Math.min(rec.frames.length - 1, i));
    const f = rec.frames[S.replay.at];
    root.dataset.version = String(S.replay.at);
    $("title").textContent = tr("web_replay_title", { n: rec.hand_no });
    $("handno").textContent = "#" + rec.number;
    $("center").textContent = f.caption;
    if (f.cards) $("center").appendChild(cardsRow(f.cards, "cards topcards"));
    const table = $("table");
    for (const el of Array.from(table.querySelectorAll(".seat"))) el.remove();
    const hands = $("hand");
    hands.textContent = "";
    hands.className = "hands";
    rec.names.forEach((name, k) => {
      const row = document.createElement("div");
      row.className = "seathand seat team" + (k % 2) + (f.winner === k + 1 ? " turn" : "");
      row.dataset.seat = String(k + 1);
      const who = document.createElement("div");
      who.className = "who";
      who.textContent = tr("web_seat", { n: k + 1 }) + " · " + name + (f.status[k] === "playing" ? "" : " · " + tr("web_st_" + f.status[k]));
      row.appendChild(who);
      row.appendChild(cardsRow(f.hands[k]));
      hands.appendChild(row);
    });
    const box = $("controls");
    box.textContent = "";
    const nav = (step, label, to) => {
      const b = document.createElement("button");
      b.type = "button"; b.className = "btn"; b.dataset.step = step; b.textContent = label;
      b.disabled = to < 0 || to >= rec.frames.length;
      b.addEventListener("click", () => stepTo(to));
      box.appendChild(b);
    };
    nav("prev", tr("web_btn_prev"), S.replay.at - 1);
    nav("next", tr("web_btn_next"), S.replay.at + 1);
    $("hint").textContent = tr("web_replay_step", { i: S.replay.at + 1, n: rec.frames.length });
  }

  window.GoujiTable = { state: S };
  document.addEventListener("DOMContentLoaded", () => { start().catch(() => fail("web_offline")); });
})();
