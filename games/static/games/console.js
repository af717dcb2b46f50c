/* The scorer's console (issue 9): one page for the timekeeper (4.4), the penalty timekeeper (4.5) and the
   official scorer (4.3). Plain JavaScript, no build step.

   Every entry is an event with an id made here (crypto.randomUUID). It goes to an outbox in IndexedDB first
   (which survives a reload and a crash), then to the server in order; it leaves the outbox only when the
   server acknowledged it (a duplicate is an acknowledgement too: the server stores an id once). The page
   drains the outbox itself: after every request that succeeds, on load and on a timer (Safari has no
   Background Sync), and judges the connection by its requests, never by navigator.onLine.

   The rules are the engine's (games/engine): the page shows the state the server's replay answers, runs the
   clock from its anchor, applies its own clock entries that still wait, and shows a refused entry's article.
*/
(() => {
  "use strict";

  const DATA = JSON.parse(document.getElementById("console-data").textContent);
  const GAME = DATA.game.id;
  const SIDES = ["home", "away"];
  const SEND_EVERY_MS = 3000;  // the drain timer (also the poll for other devices' entries)
  const UNDO_MS = 8000;
  const CLOCK_SAMPLES = 5;
  const REQUEST_WAIT_MS = 8000;

  // Every string a person reads comes from Django's JavaScript catalogue in the page's language (portal.i18n, loaded
  // before this file and kept offline with the page): gettext, ngettext, pgettext; "%(name)s" is filled by interpolate.
  // Without the catalogue (a cache the browser emptied) the console still works, in English.
  const gettext = window.gettext || ((msgid) => msgid);
  const ngettext = window.ngettext || ((singular, plural, count) => (count === 1 ? singular : plural));
  const pgettext = window.pgettext || ((context, msgid) => msgid);
  const interpolate = window.interpolate || ((text, params) => text.replace(/%\((\w+)\)s/g, (match, name) => String(params[name])));

  const SIDE_WORDS = {home: gettext("home"), away: gettext("away")};
  // A penalty's state in the box (the engine's box entry status) and an entry's state in the log.
  const BOX_WORDS = {
    running: pgettext("penalty box", "running"),
    stacked: pgettext("penalty box", "waits (6.2.2 A)"),
    queued: pgettext("penalty box", "queued"),
    expired: pgettext("penalty box", "time over"),
  };
  const STATUS_WORDS = {
    confirmed: pgettext("console log entry", "confirmed"),
    waiting: pgettext("console log entry", "waiting"),
    refused: pgettext("console log entry", "refused"),
    voided: pgettext("console log entry", "voided"),
    "voided, waiting": pgettext("console log entry", "voided, waiting"),
  };

  const $ = (selector, root = document) => root.querySelector(selector);
  const el = (tag, attrs = {}, ...children) => {
    const node = document.createElement(tag);
    for (const [key, value] of Object.entries(attrs)) {
      if (value === null || value === undefined || value === false) continue;
      if (key === "class") node.className = value;
      else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
      else if (key === "text") node.textContent = value;
      else node.setAttribute(key, value === true ? "" : value);
    }
    for (const child of children) if (child !== null && child !== undefined) node.append(child);
    return node;
  };

  // --- time (R-10: tenths of a second elapsed in the period) ---------------------------------------------

  function formatTenths(tenths, withTenths = false) {
    const t = Math.max(0, Math.round(tenths));
    const minutes = Math.floor(t / 600);
    const seconds = Math.floor((t % 600) / 10);
    const text = `${minutes}:${String(seconds).padStart(2, "0")}`;
    return withTenths ? `${text}.${t % 10}` : text;
  }

  function countdownText(tenths) {
    // The rink clock counts down, seconds rounded up: never 0:00 while time remains.
    const t = Math.max(0, Math.round(tenths));
    const seconds = Math.ceil(t / 10);
    return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")}`;
  }

  // An entry's game time as tenths: the console sends tenths, other clients "mm:ss" or "mm:ss.t" (R-10).
  function tenthsOf(value) {
    if (typeof value === "number") return Number.isFinite(value) ? value : null;
    if (typeof value === "string") return /^\d+$/.test(value) ? Number(value) : parseTime(value);
    return null;
  }

  // Period and clock as the log reads them: "P1 12:29" (overtime "OT 3:10").
  function periodClock(entry) {
    if (entry.period === undefined || entry.period === null) return "";
    const period = entry.period > DATA.rules.periods ? gettext("OT") : interpolate(gettext("P%(n)s"), {n: entry.period}, true);
    const time = tenthsOf(entry.time);
    return time === null ? period : `${period} ${formatTenths(time)}`;
  }

  // The venue's clock (the championship's time zone), as every time of the portal reads.
  const venueTime = (() => {
    try {
      const format = new Intl.DateTimeFormat(document.documentElement.lang || undefined,
        {hour: "2-digit", minute: "2-digit", second: "2-digit", timeZone: DATA.game.zone || undefined});
      return (date) => format.format(date);
    } catch (error) {
      return (date) => date.toLocaleTimeString();
    }
  })();

  function parseTime(text) {
    const match = /^\s*(\d{1,2}):([0-5]\d)(?:\.(\d))?\s*$/.exec(text || "");
    if (!match) return null;
    return Number(match[1]) * 600 + Number(match[2]) * 10 + Number(match[3] || 0);
  }

  function periodLength(period) {
    return period > DATA.rules.periods ? DATA.rules.overtime_length : DATA.rules.period_length;
  }

  function periodName(period) {
    if (!period) return gettext("Not started");
    if (period > DATA.rules.periods) return gettext("Overtime");
    return interpolate(gettext("Period %(n)s"), {n: period}, true);
  }

  const sideName = (side) => DATA.game[side] || side;
  // The names of entries and penalty kinds, in the reader's language (games.labels, rendered into the page).
  const typeName = (type) => (DATA.labels && DATA.labels.types[type]) || String(type).replace(/_/g, " ");
  const kindName = (kind) => (DATA.labels && DATA.labels.kinds[kind]) || String(kind).replace(/_/g, " ");

  // --- IndexedDB: the outbox, this device's log, and what the page needs offline --------------------------

  const db = (() => {
    let opened = null;
    function open() {
      if (opened) return opened;
      opened = new Promise((resolve, reject) => {
        const request = indexedDB.open("ihtc-console", 1);
        request.onupgradeneeded = () => {
          const base = request.result;
          base.createObjectStore("outbox", {keyPath: "n", autoIncrement: true});
          base.createObjectStore("log", {keyPath: "id"});
          base.createObjectStore("meta", {keyPath: "key"});
        };
        request.onsuccess = () => resolve(request.result);
        request.onerror = () => reject(request.error);
      });
      return opened;
    }
    function run(store, mode, work) {
      return open().then((base) => new Promise((resolve, reject) => {
        const tx = base.transaction(store, mode);
        const result = work(tx.objectStore(store));
        tx.oncomplete = () => resolve(result && "result" in result ? result.result : result);
        tx.onerror = () => reject(tx.error);
        tx.onabort = () => reject(tx.error);
      }));
    }
    return {
      all: (store) => run(store, "readonly", (s) => s.getAll()),
      put: (store, value) => run(store, "readwrite", (s) => s.put(value)),
      remove: (store, key) => run(store, "readwrite", (s) => s.delete(key)),
      get: (store, key) => run(store, "readonly", (s) => s.get(key)),
      meta: async (key) => { const row = await run("meta", "readonly", (s) => s.get(key)); return row ? row.value : undefined; },
      setMeta: (key, value) => run("meta", "readwrite", (s) => s.put({key, value})),
    };
  })();

  function newId() {
    if (crypto.randomUUID) return crypto.randomUUID();
    const b = crypto.getRandomValues(new Uint8Array(16));
    b[6] = (b[6] & 0x0f) | 0x40; b[8] = (b[8] & 0x3f) | 0x80;
    const h = [...b].map((x) => x.toString(16).padStart(2, "0")).join("");
    return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
  }

  // --- what the page knows ---------------------------------------------------------------------------------

  const S = {
    device: null,
    offsetMs: null,         // device clock minus server clock (median of samples)
    answer: null,           // the server's last answer: state, clock, sequence
    answerAt: null,         // device time it arrived
    serverLog: [],          // the server's log lines, in sequence order
    outbox: [],             // {n, game, entry} in entry order
    localLog: new Map(),    // id -> {id, game, entry, status, sequence, message, made_at}
    online: null,
    offlineSince: null,
    lastConfirmed: null,
    sending: false,
    foreign: [],            // entries another login made on this browser (not sent by this one)
    writing: [],            // entries being written to the outbox (IndexedDB), in the order made
    signedIn: null,         // the server knows this device signed in (null: not known yet)
    duties: [],             // the duties it keeps (4.3-4.5)
  };

  // --- requests --------------------------------------------------------------------------------------------

  function csrfToken() {
    const cookie = document.cookie.match(/(?:^|; )csrftoken=([^;]+)/);
    if (cookie) return decodeURIComponent(cookie[1]);
    const input = document.querySelector("input[name=csrfmiddlewaretoken]");
    return input ? input.value : "";
  }

  class Offline extends Error {}

  async function request(method, url, body) {
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), REQUEST_WAIT_MS);
    const options = {method, credentials: "same-origin", cache: "no-store", signal: controller.signal,
      headers: {"Accept": "application/json"}};
    // The server says its refusals in the page's language (the engine's messages, issue 26).
    if (document.documentElement.lang) options.headers["Accept-Language"] = document.documentElement.lang;
    if (body !== undefined) {
      options.headers["Content-Type"] = "application/json";
      options.headers["X-CSRFToken"] = csrfToken();
      options.body = JSON.stringify(body);
    }
    let response;
    try {
      response = await fetch(url, options);
    } catch (error) {
      markOffline();
      throw new Offline(String(error));
    } finally {
      clearTimeout(timer);
    }
    if (response.status >= 500 || response.redirected) {
      // A server error or a login page: the entry was not taken; keep it and try again.
      markOffline(response.redirected ? gettext("signed out: log in again") : interpolate(gettext("server error %(status)s"), {status: response.status}, true));
      throw new Offline(`HTTP ${response.status}`);
    }
    let json = null;
    try { json = await response.json(); } catch (error) { json = null; }
    markOnline();
    return {status: response.status, body: json};
  }

  function markOffline(reason) {
    if (S.online !== false) S.offlineSince = new Date();
    S.online = false;
    S.offlineReason = reason || null;
    renderStatus();
  }

  function markOnline() {
    const was = S.online;
    S.online = true;
    S.offlineSince = null;
    S.offlineReason = null;
    renderStatus();
    if (was === false) queueMicrotask(drain);  // the network is back: send what waits
  }

  // --- the clock offset: median of several round trips ------------------------------------------------------

  async function measureOffset() {
    const samples = [];
    for (let i = 0; i < CLOCK_SAMPLES; i++) {
      const sent = Date.now();
      let answer;
      try { answer = await request("GET", DATA.urls.clock); } catch (error) { break; }
      const received = Date.now();
      const server = Date.parse(answer.body && answer.body.server_time);
      if (!Number.isNaN(server)) samples.push({offset: (sent + received) / 2 - server, rtt: received - sent});
    }
    if (!samples.length) return;
    const offsets = samples.map((s) => s.offset).sort((a, b) => a - b);
    S.offsetMs = Math.round(offsets[Math.floor(offsets.length / 2)]);
    await db.setMeta("offset", {ms: S.offsetMs, at: new Date().toISOString()});
  }

  // --- the server's state and log --------------------------------------------------------------------------

  // Take a newer answer of the server in memory at once (no await before it), then keep it in IndexedDB.
  function setAnswer(body) {
    if (!body || !body.state) return false;
    if (S.answer && body.sequence < S.answer.sequence) return false;  // an older answer than the one shown
    S.answer = {game: body.game, status: body.status, sequence: body.sequence, state: body.state,
      clock: body.clock, server_time: body.server_time};
    S.answerAt = Date.now();
    return true;
  }

  async function takeAnswer(body) {
    if (setAnswer(body)) await db.setMeta(`answer:${GAME}`, {answer: S.answer, at: S.answerAt});
  }

  async function fetchState() {
    const answer = await request("GET", DATA.urls.sheet);
    if (answer.status === 200) await takeAnswer(answer.body);
    return answer;
  }

  async function fetchLog() {
    const after = S.serverLog.length ? S.serverLog[S.serverLog.length - 1].sequence : 0;
    const answer = await request("GET", `${DATA.urls.events}?after=${after}`);
    if (answer.status !== 200 || !Array.isArray(answer.body)) return;
    const known = new Set(S.serverLog.map((line) => line.id));
    for (const line of answer.body) if (!known.has(line.id)) S.serverLog.push(line);
    S.serverLog.sort((a, b) => a.sequence - b.sequence);
    await db.setMeta(`serverlog:${GAME}`, S.serverLog);
  }

  async function refreshFromServer() {
    try {
      await fetchState();
      await fetchLog();
    } catch (error) {
      if (!(error instanceof Offline)) throw error;
    }
    render();
  }

  // --- the outbox ------------------------------------------------------------------------------------------

  async function loadLocal() {
    // An entry is sent by the login that made it: another login's entries on this browser wait for it (the
    // server records who entered each event), and the rescue export keeps them.
    const rows = (await db.all("outbox")).filter((row) => row.game === GAME).sort((a, b) => a.n - b.n);
    S.outbox = rows.filter((row) => !row.user || row.user === DATA.user.username);
    S.foreign = rows.filter((row) => row.user && row.user !== DATA.user.username);
    if (S.foreign.length) {
      const who = [...new Set(S.foreign.map((row) => row.user))].join(", ");
      const banner = $("#foreign");
      banner.textContent = interpolate(ngettext("%(count)s entry made on this device by %(who)s waits for %(who)s to log in here again; the rescue export keeps it.",
        "%(count)s entries made on this device by %(who)s wait for %(who)s to log in here again; the rescue export keeps them.", S.foreign.length), {count: S.foreign.length, who}, true);
      banner.hidden = false;
    }
    S.localLog = new Map((await db.all("log")).filter((row) => row.game === GAME).map((row) => [row.id, row]));
    const last = await db.meta(`confirmed:${GAME}`);
    S.lastConfirmed = last ? new Date(last) : null;
  }

  // The last moment the server confirmed an entry of the sheet: this device's acknowledgements and the server's
  // log (every device's entries, and those the server held before this page opened).
  function lastConfirmed() {
    let last = S.lastConfirmed;
    for (const line of S.serverLog) {
      const at = line.received_at ? new Date(line.received_at) : null;
      if (at && !Number.isNaN(at.getTime()) && (!last || at > last)) last = at;
    }
    return last;
  }

  function describe(entry) {
    const team = entry.team ? sideName(entry.team) : "";
    const who = entry.player !== undefined && entry.player !== null ? `#${entry.player}` : "";
    const when = entry.type !== "period_start" ? periodClock(entry) : "";
    const where = when ? ` (${when})` : "";
    const join = (...parts) => parts.filter((part) => part !== "" && part !== null && part !== undefined).join(" ");
    switch (entry.type) {
      case "goal": return join(typeName("goal"), team, who, entry.assist ? interpolate(gettext("assist #%(n)s"), {n: entry.assist}, true) : "") + where;
      case "penalty": {
        const line = DATA.index.find((l) => l.code === entry.infraction);
        return join(typeName("penalty"), team, who || gettext("bench"), kindName(entry.penalty),
          line ? `– ${line.name} (${line.article})` : "", entry.delayed ? gettext("signalled") : "") + where;
      }
      case "correction": {
        const voided = findEntry(entry.voids);
        return interpolate(gettext("Correction: voids %(what)s"), {what: voided ? describe(voided) : gettext("an entry")}, true);
      }
      case "period_start": return interpolate(gettext("%(period)s starts"), {period: periodName(entry.period)}, true);
      default: return join(typeName(entry.type), team, who) + where;
    }
  }

  // What waits to be sent, and what is being written to the outbox: the entries the server does not have yet.
  function waitingRows() {
    return [...S.outbox, ...S.writing];
  }

  function findEntry(id) {
    const local = S.localLog.get(id);
    if (local) return local.entry;
    const line = S.serverLog.find((l) => l.id === id);
    return line ? line.event : null;
  }

  async function enter(fields, label) {
    const entry = {id: newId(), ...fields, device_time: new Date().toISOString(), clock_offset_ms: S.offsetMs};
    const row = {game: GAME, user: DATA.user.username, entry};
    // Seen at once by the clock and the next entry (a quick second key press must not read the clock without
    // it), sent only once IndexedDB keeps it.
    S.writing.push(row);
    try {
      row.n = await db.put("outbox", row);
    } finally {
      S.writing = S.writing.filter((r) => r !== row);
    }
    const logged = {id: entry.id, game: GAME, entry, status: "waiting", made_at: entry.device_time, n: row.n};
    S.outbox.push(row);
    S.localLog.set(entry.id, logged);
    await db.put("log", logged);
    if (entry.type !== "correction") offerUndo(entry, label || describe(entry));
    render();
    drain();
    return entry;
  }

  // Send what waits, in order. On a refusal the refused entry leaves the outbox (shown with its article) and
  // the rest goes on; when the server does not say which entry, the first one alone is tried, to find it.
  async function drain() {
    if (S.sending || !S.signedIn) return;
    S.sending = true;
    try {
      let single = false;
      while (S.outbox.length && S.signedIn) {
        const batch = single ? S.outbox.slice(0, 1) : S.outbox.slice(0, 200);
        const answer = await request("POST", DATA.urls.events, {device: S.device, events: batch.map((r) => r.entry)});
        if (answer.status === 200) {
          await acknowledge(answer.body.acknowledged || [], answer.body);
          single = false;
          continue;
        }
        if (answer.status === 400) {
          const refused = answer.body && answer.body.refused;
          // The server's reason names the rule; the refused entry's id is not for people to read.
          const messages = withoutIds(refused && refused.message ? refused.message : messagesOf(answer.body));
          const culprit = refused && batch.find((r) => r.entry.id === refused.event_id && !refused.stored);
          if (culprit || batch.length === 1) {
            await refuse(culprit || batch[0], refused ? refused.rule : "", messages);
            single = false;
          } else {
            single = true;
          }
          continue;
        }
        if (answer.status === 403 || answer.status === 409) {
          stopSending(answer.status, answer.body);
          break;
        }
        await refuse(batch[0], "", withoutIds(messagesOf(answer.body)) || interpolate(gettext("HTTP %(status)s"), {status: answer.status}, true));
      }
      await fetchLog();
    } catch (error) {
      if (!(error instanceof Offline)) throw error;
    } finally {
      S.sending = false;
      render();
    }
  }

  // A server message without the event ids it may carry ("(event 1b2c…)"): the entry is named on screen instead.
  function withoutIds(text) {
    return String(text || "").replace(/\s*\(event [0-9a-f-]{8,}\)/gi, "").replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi, "…").trim();
  }

  function messagesOf(body) {
    if (!body) return "";
    const out = [];
    const walk = (value) => {
      if (typeof value === "string") out.push(value);
      else if (Array.isArray(value)) value.forEach(walk);
      else if (value && typeof value === "object") Object.entries(value).forEach(([k, v]) => { if (k !== "refused") walk(v); });
    };
    walk(body);
    return out.join(" ");
  }

  // The acknowledged entries leave the outbox and the answer's state replaces the shown one in the same step
  // (nothing in between sees the one without the other: the clock on screen stays right), then IndexedDB.
  async function acknowledge(acks, body) {
    const ids = new Set(acks.map((ack) => ack.id));
    const gone = S.outbox.filter((row) => ids.has(row.entry.id));
    S.outbox = S.outbox.filter((row) => !ids.has(row.entry.id));
    const newer = setAnswer(body);
    const logged = [];
    for (const ack of acks) {
      const line = S.localLog.get(ack.id);
      if (line) { line.status = "confirmed"; line.sequence = ack.sequence; logged.push(line); }
    }
    if (acks.length) S.lastConfirmed = new Date();
    render();
    for (const row of gone) await db.remove("outbox", row.n);
    for (const line of logged) await db.put("log", line);
    if (acks.length) await db.setMeta(`confirmed:${GAME}`, S.lastConfirmed.toISOString());
    if (newer) await db.setMeta(`answer:${GAME}`, {answer: S.answer, at: S.answerAt});
  }

  async function refuse(row, rule, message) {
    S.outbox = S.outbox.filter((r) => r.n !== row.n);
    const logged = S.localLog.get(row.entry.id);
    if (logged) {
      logged.status = "refused";
      logged.message = message;
      logged.rule = rule;
    }
    // Only the refusal is shown: no "Entered …" with its undo for an entry the server did not store.
    if (undoTarget && undoTarget.entry.id === row.entry.id) hideUndo();
    showRefusal(rule, message, row.entry);
    render();
    await db.remove("outbox", row.n);
    if (logged) await db.put("log", logged);
  }

  // 403: this device is not signed in (any more); 409: another device took its duties over. Either way it
  // sends nothing until it signs in again, and says so; its entries stay in the outbox.
  function stopSending(status, body) {
    const message = (body && body.detail) || messagesOf(body) || interpolate(gettext("HTTP %(status)s"), {status}, true);
    S.signedIn = false;
    S.duties = [];
    db.setMeta(`signin:${GAME}`, null);
    const banner = $("#takenover");
    banner.textContent = status === 409
      ? interpolate(ngettext("Taken over: %(message)s This device stopped sending; its %(count)s waiting entry stays here (rescue export keeps it).",
        "Taken over: %(message)s This device stopped sending; its %(count)s waiting entries stay here (rescue export keeps them).", S.outbox.length), {message, count: S.outbox.length}, true)
      : interpolate(gettext("Not signed in: %(message)s Its waiting entries stay here until it signs in."), {message}, true);
    banner.hidden = false;
    banner.dataset.status = String(status);
    showSignIn(status === 409 ? message : "");
  }

  // --- device sign-in (4.3-4.5): which duties this device keeps; a take-over is one explicit action ---------

  function showSignIn(message) {
    const panel = $("#signin");
    const box = $("#signin-duties");
    const wanted = new Set(S.duties && S.duties.length ? S.duties : DATA.user.duties.length ? DATA.user.duties : DATA.user.may_hold);
    box.replaceChildren(...DATA.user.may_hold.map((duty) => el("label", {for: `duty-${duty}`},
      el("input", {type: "checkbox", id: `duty-${duty}`, value: duty, checked: wanted.has(duty)}),
      el("span", {}, DATA.duty_names[duty]))));
    $("#signin-message").textContent = message || "";
    $("#signin-takeover").hidden = true;
    panel.hidden = false;
    renderDevice();
  }

  function chosenDuties() {
    return [...document.querySelectorAll("#signin-duties input:checked")].map((box) => box.value);
  }

  async function signIn(takeOver) {
    const duties = chosenDuties();
    if (!duties.length) { $("#signin-message").textContent = gettext("Choose at least one duty."); return; }
    if (takeOver && !confirm(interpolate(gettext("Take over %(duties)s from the other device? It will stop sending."), {duties: duties.map((d) => DATA.duty_names[d]).join(", ")}, true))) return;
    let answer;
    try {
      answer = await request("POST", DATA.urls.devices, {device: S.device, duties, take_over: !!takeOver});
    } catch (error) {
      $("#signin-message").textContent = gettext("No network: this device signs in when it is back. Entries wait here meanwhile.");
      return;
    }
    if (answer.status === 201) {
      S.signedIn = true;
      S.duties = answer.body.map((row) => row.duty);
      await db.setMeta(`signin:${GAME}`, S.duties);
      $("#signin").hidden = true;
      $("#takenover").hidden = true;
      renderDevice();
      drain();
    } else if (answer.status === 409) {
      $("#signin-message").textContent = answer.body.detail || messagesOf(answer.body);
      $("#signin-takeover").hidden = false;
      $("#signin-takeover").focus();
    } else {
      $("#signin-message").textContent = messagesOf(answer.body) || interpolate(gettext("HTTP %(status)s"), {status: answer.status}, true);
    }
  }
  $("#signin-go").addEventListener("click", () => signIn(false));
  $("#signin-takeover").addEventListener("click", () => signIn(true));

  // What the server says this device keeps (on load, after a crash): its open sign-ins for this user.
  async function checkSignIn() {
    try {
      const answer = await request("GET", DATA.urls.devices);
      if (answer.status === 200 && Array.isArray(answer.body)) {
        S.duties = answer.body.filter((row) => row.device === S.device && row.user === DATA.user.username && !row.ended_at).map((row) => row.duty);
        S.signedIn = S.duties.length > 0;
        await db.setMeta(`signin:${GAME}`, S.signedIn ? S.duties : null);
      }
    } catch (error) {
      if (!(error instanceof Offline)) throw error;
      const kept = await db.meta(`signin:${GAME}`);  // offline: what it was when last known
      S.duties = kept || [];
      S.signedIn = !!kept;
    }
    if (S.signedIn) $("#signin").hidden = true;
    else showSignIn("");
    renderDevice();
  }

  function renderDevice() {
    const badge = $("#device");
    badge.textContent = S.signedIn
      ? interpolate(gettext("Device %(device)s · %(duties)s"), {device: S.device.slice(0, 8), duties: S.duties.map((d) => DATA.duty_names[d]).join(", ")}, true)
      : interpolate(gettext("Device %(device)s · not signed in"), {device: S.device.slice(0, 8)}, true);
    badge.className = S.signedIn ? "pill" : "pill warn";
    badge.title = S.device;
    // The end of the game is signed on this device (4.2 O, 4.3 A): the signing page names it.
    const sign = $("#sign-link");
    if (sign) sign.href = `${DATA.urls.sign}?device=${encodeURIComponent(S.device)}`;
  }

  // --- the clock on screen ---------------------------------------------------------------------------------

  // The clock as the server last knew it, then this device's clock entries that still wait, applied in order.
  function clockModel() {
    const answer = S.answer;
    const clock = answer ? answer.clock : {period: 0, elapsed_tenths: 0, running: false, anchor: null};
    const offset = S.offsetMs || 0;
    let model = {
      period: clock.period || 0,
      elapsed: clock.elapsed_tenths || 0,
      running: !!clock.running,
      since: clock.anchor ? Date.parse(clock.anchor) + offset : (S.answerAt || Date.now()),
      waiting: false,
    };
    const known = new Set(S.serverLog.map((line) => line.id));  // already in the state shown
    for (const row of waitingRows()) {
      const e = row.entry;
      if (known.has(e.id)) continue;
      const at = Date.parse(e.device_time);
      if (e.type === "period_start") model = {period: e.period, elapsed: 0, running: true, since: at, waiting: true};
      else if (e.type === "clock_start" && !model.running) model = {...model, elapsed: e.time, running: true, since: at, waiting: true};
      else if (["clock_stop", "period_end", "goal"].includes(e.type) ||
               (e.type === "penalty" && !e.delayed)) {
        if (model.running) model = {...model, elapsed: e.time, running: false, since: at, waiting: true};
      }
    }
    return model;
  }

  function elapsedNow(model = clockModel()) {
    const length = periodLength(model.period || 1);
    const elapsed = model.running ? model.elapsed + (Date.now() - model.since) / 100 : model.elapsed;
    return Math.min(length, Math.max(0, Math.floor(elapsed)));
  }

  // --- entries the buttons make -----------------------------------------------------------------------------

  function now() {
    const model = clockModel();
    return {period: model.period || 1, time: elapsedNow(model)};
  }

  function toggleClock() {
    const model = clockModel();
    if (!model.running && nextPeriod()) { startPeriod(); return; }  // the face-off of the game or of a period
    const at = now();
    if (model.running) enter({type: "clock_stop", ...at}, interpolate(gettext("Clock stopped at %(time)s"), {time: formatTenths(at.time, true)}, true));
    else enter({type: "clock_start", ...at}, interpolate(gettext("Clock started at %(time)s"), {time: formatTenths(at.time, true)}, true));
  }

  // The period a face-off would start now, or null: none before the game, or in an intermission, unless this
  // device's period start (or its period end) already waits in the outbox.
  function nextPeriod() {
    const state = S.answer ? S.answer.state : null;
    const last = waitingRows().reverse().find((row) => ["period_start", "period_end"].includes(row.entry.type));
    if (last && last.entry.type === "period_start") return null;
    if (last) return last.entry.period < DATA.rules.periods ? last.entry.period + 1 : null;
    if (!state || state.status === "not_started") return 1;
    if (state.status === "intermission") return state.period + 1;
    return null;
  }

  function startPeriod() {
    const period = nextPeriod();
    if (!period) return;
    enter({type: "period_start", period}, interpolate(gettext("%(period)s started"), {period: periodName(period)}, true));
  }

  // The engine ends a period at its length (1.2 A, R-11), and game time moves only while the clock runs (R-10):
  // with the clock stopped before the time ran out, the server would refuse the end. The console says why first,
  // and asks nothing; with the clock running, ending early is the officials' decision, asked once.
  function periodEndProblem(model = clockModel()) {
    const state = S.answer ? S.answer.state : null;
    const status = state ? state.status : "not_started";
    const waitingStart = waitingRows().some((row) => row.entry.type === "period_start" && row.entry.period === model.period);
    if (status !== "in_progress" && !waitingStart) return gettext("No period is in progress (R-11).");
    const length = periodLength(model.period);
    const elapsed = elapsedNow(model);
    if (!model.running && elapsed < length) {
      return interpolate(gettext("The clock is stopped at %(elapsed)s: %(period)s ends when its time has run, at %(length)s (R-10: game time moves only while the clock runs). Start the clock, or void the clock stop in the log."), {elapsed: formatTenths(elapsed, true), period: periodName(model.period), length: formatTenths(length)}, true);
    }
    return null;
  }

  function endPeriod() {
    const model = clockModel();
    const length = periodLength(model.period);
    const elapsed = elapsedNow(model);
    const problem = periodEndProblem(model);
    const note = $("#controls-note");
    delete note.dataset.kind;
    if (problem) { note.textContent = problem; note.hidden = false; return; }
    note.hidden = true;
    if (elapsed < length && !confirm(interpolate(gettext("The clock shows %(left)s left. End %(period)s now, at %(length)s?"), {left: countdownText(length - elapsed), period: periodName(model.period), length: formatTenths(length)}, true))) return;
    enter({type: "period_end", period: model.period, time: length});
  }

  // --- the entry dialog --------------------------------------------------------------------------------------

  const dialog = $("#entry");
  let onSubmit = null;

  function roster(side, {goalkeepers = true, skaters = true} = {}) {
    const team = DATA.teams[side];
    const names = DATA.names[side] || {};
    const numbers = [...(skaters ? team.players : []), ...(goalkeepers ? team.goalkeepers : [])].sort((a, b) => a - b);
    return numbers.map((n) => ({value: n, label: `${n}${names[String(n)] ? ` – ${names[String(n)]}` : ""}${team.goalkeepers.includes(n) ? ` ${gettext("(G)")}` : ""}`}));
  }

  function selectField(name, label, options, {blank = null, value = null} = {}) {
    const select = el("select", {name, id: `f-${name}`});
    if (blank !== null) select.append(el("option", {value: ""}, blank));
    for (const option of options) select.append(el("option", {value: option.value, selected: String(option.value) === String(value), disabled: !!option.disabled}, option.label));
    return el("label", {for: `f-${name}`}, el("span", {}, label), select);
  }

  // A player the official chooses: the list starts on "Choose…", never on a player (the goalkeeper came first).
  function playerField(name, label, options, extra = []) {
    const field = selectField(name, label, [...extra, ...options], {blank: gettext("Choose…")});
    $("select", field).dataset.label = label;
    return field;
  }

  // A player's number tapped on large digit buttons (issue 26: a glove, a tablet at the table): each digit chooses the
  // player of that number in the list (name's field), if the list has one; a third digit starts a new number. The
  // list stays, for the keyboard, the names and the bench; choosing there shows the number here.
  function numberPad(name) {
    const select = () => $(`#f-${name}`);
    const output = el("output", {id: `pad-${name}`, for: `f-${name}`, "aria-live": "polite"}, "–");
    const who = el("span", {class: "pad-who"});
    let typed = "";
    function show() {
      const list = select();
      const option = list && typed ? [...list.options].find((o) => o.value === typed && !o.disabled) : null;
      if (list) {
        list.value = option ? typed : "";
        if (option) list.removeAttribute("aria-invalid");
      }
      output.textContent = typed || "–";
      who.textContent = option ? option.textContent : typed ? interpolate(gettext("#%(n)s is not on the list"), {n: typed}, true) : "";
      who.classList.toggle("bad", !!typed && !option);
    }
    function press(digit) {
      typed = typed.length >= 2 ? digit : typed + digit;
      show();
    }
    const key = (digit) => el("button", {type: "button", "data-digit": digit, onclick: () => press(digit)}, digit);
    const pad = el("div", {class: "number-pad", role: "group", "aria-label": gettext("Player number")},
      el("div", {class: "pad-read"}, output, who),
      ...["1", "2", "3", "4", "5", "6", "7", "8", "9"].map(key),
      el("button", {type: "button", class: "pad-clear", onclick: () => { typed = ""; show(); }}, gettext("Clear")),
      key("0"),
      el("button", {type: "button", class: "pad-back", "aria-label": gettext("Delete the last digit"), onclick: () => { typed = typed.slice(0, -1); show(); }}, "⌫"));
    // The keyboard types on the pad too, while one of its buttons has the focus.
    pad.addEventListener("keydown", (event) => {
      if (/^[0-9]$/.test(event.key)) { event.preventDefault(); press(event.key); }
      else if (event.key === "Backspace") { event.preventDefault(); typed = typed.slice(0, -1); show(); }
    });
    // A choice in the list (or a new list, the team changed) shows its number.
    $("#entry-fields").addEventListener("change", function follow(event) {
      if (!pad.isConnected) { $("#entry-fields").removeEventListener("change", follow); return; }
      if (event.target.id !== `f-${name}` && event.target.id !== "f-team") return;
      const value = select() ? select().value : "";
      typed = /^\d+$/.test(value) ? value : "";
      output.textContent = typed || "–";
      who.textContent = value && !typed && select() ? select().selectedOptions[0].textContent : "";
      who.classList.remove("bad");
    });
    return pad;
  }

  // The form refuses to send without a choice, and says which field waits for one.
  function chosen(values, name, rule) {
    if (values[name]) return null;
    const select = $(`#f-${name}`);
    if (select) { select.setAttribute("aria-invalid", "true"); select.focus(); }
    return interpolate(gettext("%(field)s: choose one (%(rule)s)."), {field: select ? select.dataset.label : name, rule}, true);
  }

  function teamField(side) {
    return selectField("team", gettext("Team"), SIDES.map((s) => ({value: s, label: `${sideName(s)} (${SIDE_WORDS[s] || s})`})), {value: side});
  }

  function timeField(at) {
    return el("label", {for: "f-time"}, el("span", {}, interpolate(gettext("Time in %(period)s (elapsed, m:ss.t)"), {period: periodName(at.period)}, true)),
      el("input", {name: "time", id: "f-time", value: formatTenths(at.time, true), inputmode: "decimal", required: true}));
  }

  function check(name, label, checked = false) {
    return el("label", {class: "check", for: `f-${name}`}, el("input", {type: "checkbox", name, id: `f-${name}`, checked}), el("span", {}, label));
  }

  function openDialog(title, fields, submit, focus) {
    $("#entry-title").textContent = title;
    const box = $("#entry-fields");
    box.replaceChildren(...fields);
    $("#entry-form").querySelector(".form-error")?.remove();
    onSubmit = submit;
    if (!dialog.open) dialog.showModal();
    const first = focus ? dialog.querySelector(focus) : box.querySelector("input, select");
    if (first) first.focus();
  }

  function formError(text) {
    let node = $("#entry-form .form-error");
    if (!node) { node = el("p", {class: "form-error bad", role: "alert"}); $("#entry-fields").after(node); }
    node.textContent = text;
  }

  $("#entry-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const form = new FormData(event.target);
    const values = Object.fromEntries(form.entries());
    for (const box of event.target.querySelectorAll("input[type=checkbox]")) values[box.name] = box.checked;
    const handler = onSubmit;
    if (!handler) return;
    const problem = handler(values);
    if (typeof problem === "string") { formError(problem); return; }
    dialog.close();
  });
  $("#entry-cancel").addEventListener("click", () => dialog.close());

  function timeOf(values, at) {
    const time = parseTime(values.time);
    if (time === null) return gettext("Time: m:ss or m:ss.t, elapsed in the period (R-10).");
    return {period: at.period, time};
  }

  const int = (value) => (value === "" || value === undefined || value === null ? null : Number(value));

  // The team field changes the players offered (none chosen).
  function onTeamChange(fields) {
    $("#f-team").addEventListener("change", (e) => {
      for (const [name, options, extra] of fields(e.target.value)) {
        const old = $(`#f-${name}`);
        const field = old.dataset.label !== undefined ? playerField(name, old.dataset.label, options, extra || [])
          : selectField(name, "", options, {blank: old.options[0] && old.options[0].value === "" ? old.options[0].textContent : null});
        old.replaceWith($("select", field));
      }
    });
  }

  function goalDialog(side) {
    const at = now();
    openDialog(typeName("goal"), [
      teamField(side),
      playerField("player", gettext("Scorer"), roster(side)),
      numberPad("player"),
      selectField("assist", gettext("Assist (at most one, 5.5.11 C)"), roster(side), {blank: gettext("none")}),
      check("own_goal", gettext("Own goal: the scorer is the attacking player credited (5.5.11 D)")),
      timeField(at),
    ], (values) => {
      const missing = chosen(values, "player", "5.5.11 B");
      if (missing) return missing;
      const when = timeOf(values, at);
      if (typeof when === "string") return when;
      const fields = {type: "goal", ...when, team: values.team, player: int(values.player)};
      if (values.own_goal) fields.own_goal = true;
      else if (values.assist) fields.assist = int(values.assist);
      enterGoal(fields);
      return null;
    }, "#f-player");
    onTeamChange((team) => [["player", roster(team)], ["assist", roster(team)]]);
  }

  // A goal is itself the stoppage (docs/game-scripts.md): if this clock was stopped at the goal's time by a
  // clock_stop, that stop is voided in the same batch, so the goal replays with the clock running.
  function enterGoal(fields) {
    const stop = lastClockEvent();
    if (stop && stop.type === "clock_stop" && stop.period === fields.period && tenthsOf(stop.time) === fields.time) {
      enter({type: "correction", voids: stop.id}, gettext("The goal is the stoppage: the clock stop is voided"));
    }
    enter(fields);
  }

  function counting() {
    // Every entry that counts (not voided, not refused), from the server's log and this device's outbox.
    const events = [...S.serverLog.map((line) => line.event ? {...line.event, id: line.id, seq: line.sequence} : null).filter(Boolean)];
    const known = new Set(events.map((e) => e.id));
    let seq = 1e9;
    for (const row of waitingRows()) if (!known.has(row.entry.id)) events.push({...row.entry, seq: seq++});
    const voided = voidedIds(events);
    return events.filter((e) => !voided.has(e.id));
  }

  function voidedIds(events) {
    const voided = new Set();
    const corrections = events.filter((e) => e.type === "correction").sort((a, b) => b.seq - a.seq);
    for (const c of corrections) if (!voided.has(c.id)) voided.add(c.voids);
    return voided;
  }

  function lastClockEvent() {
    const timed = counting().filter((e) => e.period !== undefined && e.period !== null && e.type !== "correction");
    timed.sort((a, b) => (a.period - b.period) || ((tenthsOf(a.time) || 0) - (tenthsOf(b.time) || 0)) || (a.seq - b.seq));
    const clocky = timed.filter((e) => ["clock_start", "clock_stop", "period_start", "period_end", "goal", "penalty"].includes(e.type));
    return clocky.length ? clocky[clocky.length - 1] : null;
  }

  const BENCH = "bench";  // the penalty's player field: a bench minor, no player (6.1.2 D)

  function penaltyDialog(side) {
    const at = now();
    const search = el("input", {id: "f-search", name: "search", type: "search", placeholder: gettext("name, number (6.4.30) or signal"), "aria-controls": "f-matches", autocomplete: "off"});
    const matches = el("ul", {id: "f-matches", class: "matches", role: "listbox", "aria-label": gettext("Annex C index")});
    const hidden = el("input", {type: "hidden", name: "infraction", id: "f-infraction"});
    const chosenText = el("p", {class: "chosen", id: "f-chosen", "aria-live": "polite"}, gettext("No index line chosen (optional)."));
    const kinds = DATA.penalty_kinds.map((k) => ({value: k, label: kindName(k)}));
    const bench = () => [{value: BENCH, label: gettext("bench – no player (bench minor, 6.1.2 D)")}];
    let active = -1;
    let shown = [];
    function choose(line) {
      hidden.value = line.code;
      chosenText.textContent = interpolate(gettext("%(name)s – %(article)s – index: %(penalties)s"), {name: line.name, article: line.article, penalties: line.penalties.join(" + ") || gettext("no penalty")}, true);
      if (line.kinds.length) $("#f-penalty").value = line.kinds[0];
      search.value = line.name;
      matches.replaceChildren();
      $("#f-player").focus();
    }
    function list() {
      const q = search.value.trim().toLowerCase();
      shown = q ? DATA.index.filter((line) =>
        line.name.toLowerCase().includes(q) || line.code.includes(q.replace(/\s+/g, "_")) ||
        line.article.toLowerCase().includes(q) || (line.signal || "").toLowerCase().includes(q)).slice(0, 12) : [];
      active = shown.length ? 0 : -1;
      matches.replaceChildren(...shown.map((line, i) => el("li", {role: "option", id: `m-${line.code}`, "aria-selected": i === active ? "true" : "false",
        onclick: () => choose(line)}, el("strong", {}, line.name), ` ${line.article} · ${line.penalties.join(" + ") || "–"}`,
        line.signal ? el("span", {class: "muted small"}, ` · ${interpolate(gettext("signal: %(signal)s"), {signal: line.signal}, true)}`) : null)));
    }
    search.addEventListener("input", list);
    search.addEventListener("keydown", (e) => {
      if (e.key === "ArrowDown" || e.key === "ArrowUp") {
        e.preventDefault();
        if (!shown.length) return;
        active = (active + (e.key === "ArrowDown" ? 1 : -1) + shown.length) % shown.length;
        [...matches.children].forEach((li, i) => li.setAttribute("aria-selected", i === active ? "true" : "false"));
      } else if (e.key === "Enter" && shown.length) {
        e.preventDefault();
        choose(shown[Math.max(0, active)]);
      }
    });
    const running = clockModel().running;
    openDialog(typeName("penalty"), [
      teamField(side),
      el("label", {for: "f-search", class: "wide"}, el("span", {}, gettext("Annex C index (name, article or signal)")), search),
      matches, hidden, chosenText,
      selectField("penalty", gettext("Penalty"), kinds, {value: "minor"}),
      playerField("player", gettext("Player"), roster(side), bench()),
      numberPad("player"),
      selectField("served_by", gettext("Served by (if not the player)"), roster(side, {goalkeepers: false}), {blank: gettext("the engine's default")}),
      check("delayed", gettext("Signalled: play goes on, assessed at the next stoppage (6.3 B)"), false),
      timeField(at),
    ], (values) => {
      const missing = chosen(values, "player", "6.1.2 D");
      if (missing) return missing;
      const when = timeOf(values, at);
      if (typeof when === "string") return when;
      const fields = {type: "penalty", ...when, team: values.team, penalty: values.penalty};
      if (values.player !== BENCH) fields.player = int(values.player);
      if (values.infraction) fields.infraction = values.infraction;
      if (values.served_by) fields.served_by = int(values.served_by);
      if (values.delayed) fields.delayed = true;
      enter(fields);
      return null;
    }, "#f-search");
    $("#f-delayed").checked = false;
    if (!running) $("#f-delayed").disabled = true;
    onTeamChange((team) => [["player", roster(team), bench()], ["served_by", roster(team, {goalkeepers: false})]]);
  }

  function penaltyShotDialog(side) {
    const at = now();
    openDialog(gettext("Penalty shot (6.1.8)"), [
      teamField(side),
      playerField("player", gettext("Shooter"), roster(side, {goalkeepers: false})),
      check("scored", gettext("Scored")),
      timeField(at),
    ], (values) => {
      const missing = chosen(values, "player", "6.1.8");
      if (missing) return missing;
      const when = timeOf(values, at);
      if (typeof when === "string") return when;
      enter({type: "penalty_shot", ...when, team: values.team, player: int(values.player), scored: !!values.scored});
      return null;
    }, "#f-player");
    onTeamChange((team) => [["player", roster(team, {goalkeepers: false})]]);
  }

  function goalkeeperReturnedDialog(side) {
    const at = now();
    openDialog(gettext("Goalkeeper in goal"), [
      teamField(side),
      selectField("player", gettext("Goalkeeper"), roster(side, {skaters: false}), {blank: gettext("the one who left")}),
      timeField(at),
    ], (values) => {
      const when = timeOf(values, at);
      if (typeof when === "string") return when;
      const fields = {type: "goalkeeper_returned", ...when, team: values.team};
      if (values.player) fields.player = int(values.player);
      enter(fields);
      return null;
    });
  }

  // 8.1 A-B: the officials declare a forfeit with its reason (the entry's note); recorded 1-0, the goal to the
  // winner's captain, -2 in the standings. Before the start it carries no game time.
  function forfeitDialog(side) {
    const state = S.answer ? S.answer.state : null;
    const started = state && state.status !== "not_started";
    const at = now();
    const fields = [
      teamField(side),
      selectField("reason", gettext("Reason (8.1 A)"), DATA.forfeit_reasons.map((r) => ({value: r, label: r}))),
    ];
    if (started) fields.push(timeField(at));
    openDialog(gettext("Forfeit: the team named forfeits the game (8.1)"), fields, (values) => {
      const event = {type: "forfeit", team: values.team, note: values.reason};
      if (started) {
        const when = timeOf(values, at);
        if (typeof when === "string") return when;
        Object.assign(event, when);
      }
      enter(event);
      return null;
    }, "#f-reason");
  }

  // The shooters a team may choose: one the engine would refuse (R-67: barred, or a team-mate has not shot yet)
  // stays in the list, greyed, with the reason (the state's shootout.barred).
  function shooters(side) {
    const state = S.answer ? S.answer.state : null;
    const barred = (state && state.shootout && state.shootout.barred && state.shootout.barred[side]) || {};
    return roster(side, {goalkeepers: false}).map((option) => {
      const reason = barred[String(option.value)];
      return reason ? {...option, disabled: true, label: interpolate(gettext("%(who)s – %(reason)s"), {who: option.label, reason: reasonText(reason)}, true)} : option;
    });
  }

  function shootoutDialog(side) {
    openDialog(gettext("Shoot-out attempt (1.3 E)"), [
      teamField(side),
      playerField("player", gettext("Shooter"), shooters(side)),
      check("scored", gettext("Scored")),
    ], (values) => {
      const missing = chosen(values, "player", "1.3 E");
      if (missing) return missing;
      enter({type: "shootout_attempt", team: values.team, player: int(values.player), scored: !!values.scored});
      return null;
    }, "#f-player");
    onTeamChange((team) => [["player", shooters(team)]]);
  }

  // Quick entries: one press of a team's button, at the clock's time (the button stands in the team's column).
  function quick(type, side, extra = {}) {
    if (!DATA.event_types.includes(type)) return;
    enter({type, ...now(), team: side, ...extra});
  }

  // A key (S, T; with Shift the away team) names no team on screen: the entry is shown with its team first,
  // sent with Enter, changed or dropped (Esc) before it goes. Undo stays offered once it is sent.
  function keyDialog(type, side) {
    if (!DATA.event_types.includes(type)) return;
    const refused = type === "timeout" ? timeoutRefusal(side) : null;
    if (refused) {
      const note = $("#controls-note");
      delete note.dataset.kind;
      note.textContent = interpolate(gettext("%(what)s: %(reason)s"), {what: interpolate(gettext("%(what)s: %(team)s"), {what: typeName(type), team: sideName(side)}, true), reason: refused}, true);
      note.hidden = false;
      return;
    }
    const at = now();
    const title = (team) => interpolate(gettext("%(what)s: %(team)s"), {what: typeName(type), team: sideName(team)}, true);
    openDialog(title(side), [teamField(side), timeField(at)], (values) => {
      const when = timeOf(values, at);
      if (typeof when === "string") return when;
      enter({type, ...when, team: values.team});
      return null;
    }, "#entry-ok");
    $("#f-team").addEventListener("change", (e) => { $("#entry-title").textContent = title(e.target.value); });
  }

  // --- what the engine would refuse is not offered (R-67, R-71) --------------------------------------------------

  // The engine's reasons (games/engine/state.py: timeout_problem, shooter_problem) in the reader's language: a
  // known reason is read by its pattern and said with the page's texts; another is shown as the engine says it.
  const REASONS = [
    [/^R-71 \/ 1\.2 B: no time-out at the buzzer that ends period (\d+)$/,
      (m) => interpolate(gettext("No time-out at the buzzer that ends %(period)s: the same period must resume (R-71, 1.2 B)."), {period: periodName(Number(m[1]))}, true)],
    [/^R-71 \/ 5\.5\.2 A: no time-out before period (\d+)'s opening face-off$/,
      (m) => interpolate(gettext("No time-out before the opening face-off of %(period)s (R-71, 5.5.2 A)."), {period: periodName(Number(m[1]))}, true)],
    [/^R-71 \/ 1\.2 B: (no time-out at a period's end or in an intermission|a time-out is called during a period)/,
      () => gettext("No time-out at a period's end, in an intermission or outside a period: it is called at a stoppage within a period (R-71, 1.2 B).")],
    [/^Rule 5\.5\.2 D \/ R-12: no time-out in overtime$/, () => gettext("No time-out in overtime (5.5.2 D, R-12).")],
    [/^R-40: \d+ cannot shoot: /,
      () => gettext("may not shoot: goalkeeper, out of the game or penalty time left at the end of overtime (R-40, R-67)")],
    [/^Rule 1\.3 E \/ R-40: \d+ already shot; /, () => gettext("already shot: every eligible team-mate shoots first (1.3 E, R-67)")],
  ];
  function reasonText(reason) {
    for (const [pattern, say] of REASONS) {
      const match = pattern.exec(String(reason));
      if (match) return say(match);
    }
    return String(reason);
  }

  // Why the team's time-out is not offered now, or null. The server's state decides (teams.<side>.timeout_refused)
  // only for what R-71 and 5.5.2 D settle, and only while no clock entry of this device waits (the state is then
  // this device's game); the clock run out on this device is the buzzer (R-71). Other refusals (the clock runs,
  // the time-out already used) stay the server's, shown with their article when it answers.
  function timeoutRefusal(side) {
    const state = S.answer ? S.answer.state : null;
    if (!state) return null;
    const clockTypes = ["period_start", "period_end", "clock_start", "clock_stop", "goal", "penalty"];
    if (waitingRows().some((row) => clockTypes.includes(row.entry.type))) return null;
    const model = clockModel();
    if (state.status === "in_progress" && model.period && model.period <= DATA.rules.periods && elapsedNow(model) >= periodLength(model.period)) {
      return reasonText(`R-71 / 1.2 B: no time-out at the buzzer that ends period ${model.period}`);
    }
    const reason = state.teams[side] ? state.teams[side].timeout_refused : null;
    if (!reason || !/^(R-71 |Rule 5\.5\.2 D )/.test(reason)) return null;
    // The state's time is its last entry's: "before the opening face-off" holds only while this clock shows 0.
    if (/opening face-off/.test(reason) && elapsedNow(model) > 0) return null;
    return reasonText(reason);
  }

  // --- undo: a correction voiding the entry, offered for a few seconds ---------------------------------------

  let undoTarget = null;
  let undoTimer = null;
  function offerUndo(entry, label) {
    undoTarget = {entry, until: Date.now() + UNDO_MS};
    const toast = $("#undo");
    $(".what", toast).textContent = interpolate(gettext("Entered: %(what)s."), {what: label}, true);
    toast.hidden = false;
    clearInterval(undoTimer);
    const tick = () => {
      const left = undoTarget ? Math.ceil((undoTarget.until - Date.now()) / 1000) : 0;
      if (left <= 0) { hideUndo(); return; }
      $(".left", toast).textContent = interpolate(gettext("%(n)s s"), {n: left}, true);
    };
    tick();
    undoTimer = setInterval(tick, 250);
  }

  function hideUndo() {
    $("#undo").hidden = true;
    undoTarget = null;
    clearInterval(undoTimer);
  }

  function undo() {
    if (!undoTarget || Date.now() > undoTarget.until) return;
    const entry = undoTarget.entry;
    undoTarget = null;
    $("#undo").hidden = true;
    voidEntry(entry.id, interpolate(gettext("Undone: %(what)s"), {what: describe(entry)}, true));
  }

  function voidEntry(id, label) {
    const entry = findEntry(id);
    enter({type: "correction", voids: id}, label || interpolate(gettext("Voided: %(what)s"), {what: entry ? describe(entry) : gettext("an entry")}, true));
  }
  $("#undo .undo-go").addEventListener("click", undo);

  // --- refusals ----------------------------------------------------------------------------------------------

  function showRefusal(rule, message, entry) {
    const banner = $("#refusal");
    $(".article", banner).textContent = rule ? interpolate(gettext("Rule %(rule)s"), {rule}, true) : gettext("Refused");
    // The server's reason after the entry it refuses ("Rule 5.5.2 A: …" once: the article is the heading).
    let reason = String(message || "");
    for (const prefix of [`Rule ${rule}:`, `${rule}:`]) if (rule && reason.startsWith(prefix)) reason = reason.slice(prefix.length).trim();
    $(".message", banner).textContent = entry ? interpolate(gettext("%(what)s: %(reason)s"), {what: describe(entry), reason}, true) : reason;
    banner.hidden = false;
  }
  $("#refusal .dismiss").addEventListener("click", () => { $("#refusal").hidden = true; });

  // --- rendering ---------------------------------------------------------------------------------------------

  function renderStatus() {
    const net = $("#net");
    if (S.online === null) { net.textContent = gettext("Connecting…"); net.className = "pill"; }
    else if (S.online) { net.textContent = gettext("Online"); net.className = "pill ok"; }
    else {
      net.textContent = interpolate(gettext("Offline since %(time)s"), {time: S.offlineSince ? venueTime(S.offlineSince) : "?"}, true) + (S.offlineReason ? ` (${S.offlineReason})` : "");
      net.className = "pill bad";
    }
    const waiting = $("#waiting");
    waiting.textContent = interpolate(ngettext("%(n)s waiting", "%(n)s waiting", S.outbox.length), {n: S.outbox.length}, true);
    waiting.className = S.outbox.length ? "pill warn" : "pill";
    waiting.dataset.count = String(S.outbox.length);
    const confirmed = lastConfirmed();
    $("#confirmed").textContent = confirmed ? interpolate(gettext("Last confirmed %(time)s"), {time: venueTime(confirmed)}, true) : gettext("Nothing confirmed yet");
  }

  function renderClock() {
    const model = clockModel();
    const length = periodLength(model.period || 1);
    const elapsed = elapsedNow(model);
    $("#clock").textContent = countdownText(length - elapsed);
    $("#clock").dataset.elapsed = String(elapsed);
    $("#clock").classList.toggle("running", model.running);
    $("#period").textContent = periodName(model.period);
    $("#clock-note").textContent = interpolate(gettext("%(time)s elapsed"), {time: formatTenths(elapsed, true)}, true) + (model.waiting ? ` · ${gettext("clock entry waiting")}` : "");
    $("#mark").hidden = !(model.period && length - elapsed <= DATA.rules.two_minute_mark && elapsed < length);
    const toggle = $("#clock-toggle");
    toggle.firstChild.textContent = `${model.running ? gettext("Stop clock") : gettext("Start clock")} `;
    toggle.classList.toggle("running", model.running);
    // Boxes run with the clock: a running penalty's remaining time counts down from the state's.
    const stateElapsed = S.answer ? S.answer.clock.elapsed_tenths : 0;
    const stateRunning = S.answer ? S.answer.clock.period === model.period : false;
    for (const node of document.querySelectorAll(".box li[data-remaining]")) {
      const remaining = Number(node.dataset.remaining) - (node.dataset.status === "running" && stateRunning ? elapsed - stateElapsed : 0);
      $(".remaining", node).textContent = remaining > 0 || node.dataset.status !== "running" ? countdownText(Math.max(0, remaining)) : gettext("0:00 time over");
    }
    $("#period-end").classList.toggle("primary", model.period > 0 && elapsed >= length && model.running === false);
    // The clock running out is the buzzer: the time-out stops being offered then (R-71), without waiting for a render.
    const refusals = SIDES.map((side) => timeoutRefusal(side) || "").join("|");
    if (refusals !== S.timeoutRefusals) { S.timeoutRefusals = refusals; renderTeams(); }
  }

  function renderBoard() {
    const state = S.answer ? S.answer.state : null;
    for (const side of SIDES) $(`#score-${side}`).textContent = state ? state.score[side] : "0";
    const strength = $("#strength");
    if (state && state.status !== "not_started") {
      const pp = state.power_play;
      strength.textContent = interpolate(gettext("%(home)s on %(away)s"), {home: state.strength.home, away: state.strength.away}, true) +
        ` · ${pp ? interpolate(gettext("Power play %(team)s"), {team: sideName(pp)}, true) : gettext("even strength")}`;
      strength.className = pp ? "strength pp" : "strength";
    } else strength.textContent = "";
    const status = state ? state.status : "not_started";
    const next = nextPeriod();
    const startButton = $("#period-start");
    startButton.hidden = !next;
    startButton.textContent = next ? interpolate(gettext("Start %(period)s"), {period: periodName(next)}, true) : gettext("Start period");
    $("#period-end").hidden = !(status === "in_progress");
    const note = $("#controls-note");
    // What kept the period from ending is over (a failed resume stays said until a resume succeeds).
    if (!note.hidden && note.dataset.kind !== "resume" && !periodEndProblem()) note.hidden = true;
    $("#game-end").hidden = !(status === "ended" && !counting().some((e) => e.type === "game_end"));
    $("#clock-toggle").disabled = !(status === "in_progress" || status === "not_started" || status === "intermission");
  }

  const RARE = ["protest", "forfeit"];

  function teamButtons(side) {
    const state = S.answer ? S.answer.state : null;
    const team = state ? state.teams[side] : null;
    const buttons = [
      ["goal", gettext("Goal"), () => goalDialog(side)],
      ["penalty", gettext("Penalty"), () => penaltyDialog(side)],
      ["shot", gettext("Shot on goal"), () => quick("shot", side)],
      ["timeout", gettext("Time-out"), () => quick("timeout", side)],
      team && team.goalkeeper_pulled
        ? ["goalkeeper_returned", gettext("Goalkeeper back"), () => goalkeeperReturnedDialog(side)]
        : ["goalkeeper_pulled", gettext("Goalkeeper pulled"), () => quick("goalkeeper_pulled", side)],
    ];
    if (team && team.penalty_shots_pending && team.penalty_shots_pending.length) buttons.push(["penalty_shot", gettext("Penalty shot"), () => penaltyShotDialog(side)]);
    if (state && state.status === "shootout") buttons.push(["shootout_attempt", gettext("Shoot-out attempt"), () => shootoutDialog(side)]);
    // 9.1 A, R-50: a captain's protest on the rink, once the engine knows the event.
    buttons.push(["protest", gettext("Captain's protest (9.1 A)"), () => quick("protest", side)]);
    if (!state || state.status === "not_started" || state.status === "in_progress" || state.status === "intermission") {
      buttons.push(["forfeit", gettext("Forfeit (8.1)"), () => forfeitDialog(side)]);
    }
    const refused = timeoutRefusal(side);
    const made = buttons.filter(([type]) => DATA.event_types.includes(type))
      .map(([type, label, action]) => el("button", {
        type: "button", "data-type": type, "data-side": side, onclick: action,
        disabled: type === "timeout" && !!refused, title: type === "timeout" && refused ? refused : null,
        "aria-describedby": type === "timeout" && refused ? `timeout-refused-${side}` : null,
      }, label));
    // What is rare and weighs much stands apart, below the daily buttons (issue 26: out of a hurried finger's way).
    const rare = made.filter((button) => RARE.includes(button.dataset.type));
    const out = made.filter((button) => !RARE.includes(button.dataset.type));
    // R-71: the time-out not offered says why, next to its button.
    if (refused && DATA.event_types.includes("timeout")) out.push(el("p", {id: `timeout-refused-${side}`, class: "refused-reason small muted", "data-refused": "timeout"}, refused));
    if (rare.length) out.push(el("div", {class: "rare-actions"}, ...rare));
    return out;
  }

  const drawnActions = {};

  function renderTeams() {
    const state = S.answer ? S.answer.state : null;
    for (const side of SIDES) {
      // The buttons are drawn again only when they change: a tap is a press and a release on one element, and a
      // button replaced between the two (a render every few seconds) would lose it.
      const buttons = teamButtons(side);
      const drawn = buttons.map((node) => node.outerHTML).join("");
      const actions = $(`[data-actions=${side}]`);
      if (drawnActions[side] !== drawn || !actions.firstChild) {
        actions.replaceChildren(...buttons);
        drawnActions[side] = drawn;
      }
      const box = $(`#box-${side}`);
      const entries = state ? state.box[side] : [];
      const runningEntries = entries.filter((e) => e.status === "running");
      const firstOut = runningEntries.length ? runningEntries.reduce((a, b) => (parseTime(a.remaining) <= parseTime(b.remaining) ? a : b)) : null;
      box.replaceChildren(...entries.map((e) => {
        const wait = e.status === "expired" || e.waits_for_stoppage;
        return el("li", {"data-remaining": String(parseTime(e.remaining) ?? 0), "data-status": e.status, class: `box-${e.status}`},
          el("strong", {}, e.player === null ? gettext("substitute?") : `#${e.player}`),
          e.penalized !== e.player && e.penalized !== null ? ` ${interpolate(gettext("for #%(n)s"), {n: e.penalized}, true)}` : "",
          ` ${kindName(e.penalty)} `,
          el("span", {class: "remaining"}, e.countdown || e.remaining),
          ` ${BOX_WORDS[e.status] || e.status}`,
          e.coincidental ? ` · ${gettext("coincidental")}` : "",
          wait ? el("em", {}, ` · ${gettext("returns at the next stoppage")}`) : "",
          e === firstOut && !wait ? el("em", {}, ` · ${gettext("returns next")}`) : "");
      }));
      if (!entries.length) box.append(el("li", {class: "muted"}, gettext("empty")));
      const team = state ? state.teams[side] : null;
      $(`#info-${side}`).textContent = team
        ? interpolate(gettext("Shots %(shots)s · time-outs this period %(used)s/%(allowed)s"), {shots: team.shots, used: team.timeouts_used, allowed: DATA.rules.timeouts_per_period}, true) +
          ` · ${team.goalkeeper !== null ? interpolate(gettext("in goal #%(n)s"), {n: team.goalkeeper}, true) : gettext("nobody in goal")}${team.goalkeeper_pulled ? ` ${gettext("(pulled)")}` : ""}` +
          `${team.signalled_penalties.length ? ` · ${interpolate(ngettext("%(n)s signalled penalty waits for the stoppage", "%(n)s signalled penalties wait for the stoppage", team.signalled_penalties.length), {n: team.signalled_penalties.length}, true)}` : ""}`
        : "";
    }
  }

  function renderWarnings() {
    const state = S.answer ? S.answer.state : null;
    const out = [];
    if (state) {
      // Before they bite (6.1.7 A, C): the call or stick infraction that brings an automatic penalty.
      for (const side of SIDES) {
        for (const [number, player] of Object.entries(state.players[side] || {})) {
          if (player.out_of_game) continue;
          if (player.calls === DATA.rules.calls_for_misconduct - 1) out.push(el("li", {class: "warn"}, interpolate(gettext("%(team)s #%(n)s has %(count)s penalty calls: the next one adds a misconduct (6.1.7 A)."), {team: sideName(side), n: number, count: player.calls}, true)));
          if (player.stick_infractions === DATA.rules.stick_infractions_for_ejection - 1) out.push(el("li", {class: "warn"}, interpolate(gettext("%(team)s #%(n)s has %(count)s stick infractions: the next one is a game ejection (6.1.7 C)."), {team: sideName(side), n: number, count: player.stick_infractions}, true)));
        }
      }
      for (const notice of [...state.notices].reverse().slice(0, 6)) {
        out.push(el("li", {}, el("strong", {}, notice.article), ` ${notice.text} `, el("span", {class: "muted small"}, periodClock(notice))));
      }
    }
    const list = el("ul", {}, ...out);
    $("#warnings").replaceChildren(...(out.length ? [el("h2", {}, gettext("Warnings and notices")), list] : []));
  }

  function renderProposals() {
    const state = S.answer ? S.answer.state : null;
    const out = [];
    if (state && state.status !== "ended") {
      for (const side of SIDES) {
        const team = state.teams[side];
        const name = DATA.game[side];
        // Who serves: a penalty whose time a substitute serves, still to be named (6.1.2 B, 6.1.3 A, 6.1.5 A).
        for (const entry of state.box[side].filter((e) => e.player === null)) {
          const select = selectField(`serve-${entry.penalty_id}`, interpolate(gettext("%(team)s: who serves the %(penalty)s of %(who)s?"), {team: name, penalty: kindName(entry.penalty).toLocaleLowerCase(), who: entry.penalized !== null && entry.penalized !== undefined ? `#${entry.penalized}` : gettext("the bench")}, true),
            roster(side, {goalkeepers: false}).filter((o) => !(state.players[side][String(o.value)] || {}).out_of_game));
          out.push(el("li", {class: "proposal"}, select, el("button", {type: "button", onclick: () => {
            enter({type: "serve", ...now(), team: side, penalty: entry.penalty_id, player: int($("select", select).value)});
          }}, gettext("Confirm server"))));
        }
        // The goalkeeper's replacement (6.1.5 B, 6.1.6 B): the engine proposes, the officials confirm.
        const replacement = team.goalkeeper_replacement;
        if (replacement && !replacement.confirmed) {
          const select = selectField(`gk-${side}`, interpolate(gettext("%(team)s: #%(n)s sent off (%(article)s); in goal:"), {team: name, n: replacement.replaces, article: replacement.article}, true),
            roster(side).filter((o) => !(state.players[side][String(o.value)] || {}).out_of_game), {value: replacement.proposed});
          out.push(el("li", {class: "proposal"}, select, el("button", {type: "button", onclick: () => {
            enter({type: "goalkeeper_replaced", ...now(), team: side, player: int($("select", select).value)});
          }}, replacement.proposed !== null ? interpolate(gettext("Confirm (engine proposes #%(n)s)"), {n: replacement.proposed}, true) : gettext("Confirm"))));
        }
        // The captain's choice of who returns first when two penalties end together (6.2.2 C).
        const running = state.box[side].filter((e) => e.status === "running" && e.player !== null);
        const together = running.filter((e) => running.some((o) => o !== e && o.remaining === e.remaining));
        if (together.length >= 2) {
          out.push(el("li", {class: "proposal"}, `${interpolate(gettext("%(team)s: captain's choice, who returns first (6.2.2 C)?"), {team: name}, true)} `,
            ...together.map((e) => el("button", {type: "button", onclick: () => enter({type: "return_first", ...now(), team: side, player: e.player})}, `#${e.player}`))));
        }
      }
    }
    $("#proposals").replaceChildren(...(out.length ? [el("h2", {}, gettext("To confirm")), el("ul", {}, ...out)] : []));
  }

  // A device as the bar names it: a device-made UUID by its first eight characters, as the sign-in badge does.
  const shortDevice = (device) => (/^[0-9a-f]{8}-[0-9a-f-]{27}$/i.test(device || "") ? device.slice(0, 8) : device);

  function renderLog() {
    const rows = [];
    const serverIds = new Set(S.serverLog.map((l) => l.id));
    const events = S.serverLog.map((l) => ({...l.event, id: l.id, seq: l.sequence}));
    const voided = voidedIds([...events, ...S.outbox.map((r, i) => ({...r.entry, seq: 1e9 + i}))]);
    for (const line of S.serverLog) {
      const mine = S.localLog.has(line.id);
      rows.push({id: line.id, entry: line.event, status: voided.has(line.id) ? "voided" : "confirmed",
        who: `${line.entered_by} · ${interpolate(gettext("Device %(device)s"), {device: shortDevice(line.device)}, true)}${mine ? ` ${gettext("(this device)")}` : ""}`, sequence: line.sequence});
    }
    for (const row of S.outbox) if (!serverIds.has(row.entry.id)) rows.push({id: row.entry.id, entry: row.entry, status: voided.has(row.entry.id) ? "voided, waiting" : "waiting", who: gettext("this device")});
    for (const logged of S.localLog.values()) if (logged.status === "refused") rows.push({id: logged.id, entry: logged.entry, status: "refused", who: withoutIds(logged.message || (logged.rule ? interpolate(gettext("Rule %(rule)s"), {rule: logged.rule}, true) : ""))});
    const items = rows.map((row) => el("li", {class: `log-${row.status.split(",")[0]}`, "data-id": row.id, "data-status": row.status},
      el("span", {class: "what"}, describe(row.entry)), " ",
      el("span", {class: "status"}, STATUS_WORDS[row.status] || row.status), " ",
      el("span", {class: "muted small"}, row.who),
      row.status === "confirmed" || row.status === "waiting"
        ? el("button", {type: "button", class: "void", onclick: () => { if (confirm(interpolate(gettext("Void: %(what)s?"), {what: describe(row.entry)}, true))) voidEntry(row.id); }}, gettext("Void"))
        : null));
    $("#log").replaceChildren(...items.reverse());
  }

  function render() {
    renderStatus();
    renderBoard();
    renderTeams();
    renderWarnings();
    renderProposals();
    renderLog();
    renderClock();
  }

  // --- rescue export -----------------------------------------------------------------------------------------

  function rescueExport() {
    const payload = {
      device: S.device,
      game: GAME,
      exported_at: new Date().toISOString(),
      events: [...S.foreign, ...S.outbox].sort((a, b) => a.n - b.n).map((row) => row.entry),
      log: [...S.localLog.values()].sort((a, b) => a.n - b.n).map((l) => ({...l.entry, status: l.status, sequence: l.sequence ?? null, refused: l.message || null})),
    };
    const blob = new Blob([JSON.stringify(payload, null, 2)], {type: "application/json"});
    const link = el("a", {href: URL.createObjectURL(blob), download: `game-${GAME}-${S.device}-${payload.exported_at.replace(/[:.]/g, "-")}.json`});
    document.body.append(link);
    link.click();
    setTimeout(() => { URL.revokeObjectURL(link.href); link.remove(); }, 1000);
  }

  // --- crash recovery: this device's copy of the sheet dropped, the server's state and log read again ---------

  // Nothing is dropped before the server answered (issue 26: a tap on it offline must not empty the screen): its
  // state and whole log replace this device's copy in one step; the outbox is never touched.
  async function resumeFromServer() {
    const note = $("#controls-note");
    let state;
    let log;
    try {
      await measureOffset();
      state = await request("GET", DATA.urls.sheet);
      log = await request("GET", `${DATA.urls.events}?after=0`);
    } catch (error) {
      if (!(error instanceof Offline)) throw error;
    }
    if (!state || !log || state.status !== 200 || log.status !== 200 || !Array.isArray(log.body) || !state.body || !state.body.state) {
      note.textContent = gettext("The server did not answer: this device keeps its copy of the sheet. Try again when the network is back.");
      note.dataset.kind = "resume";
      note.hidden = false;
      return;
    }
    if (note.dataset.kind === "resume") { note.hidden = true; delete note.dataset.kind; }
    S.answer = null;
    setAnswer(state.body);
    S.serverLog = [...log.body].sort((a, b) => a.sequence - b.sequence);
    render();
    await db.setMeta(`answer:${GAME}`, {answer: S.answer, at: S.answerAt});
    await db.setMeta(`serverlog:${GAME}`, S.serverLog);
    drain();
  }

  // --- offline readiness (game day preload) --------------------------------------------------------------------

  async function prepareOffline() {
    const badge = $("#offline-ready");
    await db.setMeta(`data:${GAME}`, {data: DATA, loaded_at: DATA.rendered_at});
    let worker = false;
    if ("serviceWorker" in navigator) {
      try {
        await navigator.serviceWorker.register(DATA.urls.worker, {scope: "/games/"});
        await navigator.serviceWorker.ready;
        worker = true;
      } catch (error) { worker = false; }
    }
    let cached = false;
    if (worker && "caches" in window && S.online !== false) {
      try {
        const cache = await caches.open("ihtc-console-v1");
        await cache.addAll([location.pathname, ...DATA.assets]);
        cached = true;
      } catch (error) { cached = false; }
    } else if (worker && "caches" in window) {
      const cache = await caches.open("ihtc-console-v1");
      cached = !!(await cache.match(location.pathname));
    }
    const loaded = new Date(DATA.rendered_at);
    const today = new Date().toDateString() === loaded.toDateString();
    let when;
    try {
      when = loaded.toLocaleString(document.documentElement.lang || [], {weekday: "short", day: "numeric", month: "short", hour: "2-digit", minute: "2-digit", timeZone: DATA.game.zone || undefined});
    } catch (error) { when = loaded.toLocaleString(); }
    if (worker && cached) {
      badge.textContent = today ? interpolate(gettext("Ready offline (loaded %(when)s)"), {when}, true) : interpolate(gettext("Loaded %(when)s: re-load on game day (Safari may clear storage after 7 days)"), {when}, true);
      badge.className = today ? "pill ok" : "pill warn";
      badge.dataset.ready = today ? "yes" : "stale";
    } else {
      badge.textContent = gettext("Not ready offline: this browser keeps the entries, but the page needs the network to reload");
      badge.className = "pill warn";
      badge.dataset.ready = "no";
    }
  }

  // --- keyboard --------------------------------------------------------------------------------------------------

  document.addEventListener("keydown", (event) => {
    if (dialog.open || event.ctrlKey || event.metaKey || event.altKey) return;
    const target = event.target;
    if (target && (target.tagName === "INPUT" || target.tagName === "SELECT" || target.tagName === "TEXTAREA")) return;
    const key = event.key.toLowerCase();
    if (event.key === " " || event.code === "Space") {
      if (target && target.tagName === "BUTTON" && target.id !== "clock-toggle") target.blur();
      event.preventDefault();
      if (!$("#clock-toggle").disabled) toggleClock();
      return;
    }
    const side = event.shiftKey ? "away" : "home";  // Shift: the away team
    if (key === "g") { event.preventDefault(); goalDialog(side); }
    else if (key === "p") { event.preventDefault(); penaltyDialog(side); }
    else if (key === "s") { event.preventDefault(); keyDialog("shot", side); }
    else if (key === "t") { event.preventDefault(); keyDialog("timeout", side); }
    else if (key === "u") { event.preventDefault(); undo(); }
  });
  // Space on the clock button itself: keep the browser from pressing it a second time.
  $("#clock-toggle").addEventListener("keyup", (event) => { if (event.key === " ") event.preventDefault(); });
  $("#clock-toggle").addEventListener("click", toggleClock);
  $("#period-start").addEventListener("click", startPeriod);
  $("#period-end").addEventListener("click", endPeriod);
  $("#game-end").addEventListener("click", () => enter({type: "game_end"}));
  $("#export").addEventListener("click", rescueExport);
  $("#resume").addEventListener("click", resumeFromServer);

  // --- start ------------------------------------------------------------------------------------------------------

  async function deviceId() {
    let id = null;
    try { id = localStorage.getItem("ihtc-console-device"); } catch (error) { id = null; }
    if (!id) id = await db.meta("device");
    if (!id) id = newId();
    try { localStorage.setItem("ihtc-console-device", id); } catch (error) { /* private mode: IndexedDB keeps it */ }
    await db.setMeta("device", id);
    return id;
  }

  async function start() {
    S.device = await deviceId();
    renderDevice();
    await loadLocal();
    const offset = await db.meta("offset");
    if (offset) S.offsetMs = offset.ms;
    const kept = await db.meta(`answer:${GAME}`);
    if (kept) { S.answer = kept.answer; S.answerAt = kept.at; }
    S.serverLog = (await db.meta(`serverlog:${GAME}`)) || [];
    render();
    setInterval(renderClock, 100);
    await measureOffset();
    await refreshFromServer();
    await checkSignIn();
    prepareOffline();
    drain();
    setInterval(async () => {
      if (S.signedIn === null || (S.signedIn === false && S.online === false)) await checkSignIn();
      if (S.outbox.length && S.signedIn) { drain(); return; }
      await refreshFromServer();
    }, SEND_EVERY_MS);
    document.body.dataset.started = "yes";
  }

  // Nothing waits, nothing is being written or sent: what the browser tests wait for.
  const settled = () => S.writing.length === 0 && !S.sending && S.outbox.length === 0;
  window.ihtcConsole = {S, drain, render, enter, clockModel, elapsedNow, db, settled};
  start();
})();
