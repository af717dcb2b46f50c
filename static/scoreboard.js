/* The public scoreboard (games/live_views.py): follows a game, or a championship's games, over a WebSocket: the
 * one of games/consumers.py, or nginx's nchan (settings.transport "nchan": the channel's newest message first,
 * no pings, heartbeats published by the server); when the WebSocket cannot open, the same feed as an event stream. Pushes are hints: the page starts from a snapshot (the data of GET /api/v1/games/{id}/sheet/),
 * applies deltas in sequence order, and fetches the snapshot again on a gap; a heartbeat comes every few seconds,
 * and a board that heard nothing for the stale time says so and reconnects. The clock runs here from the last
 * state (running, elapsed, anchor in server time), corrected by the server offset measured with pings. */
(function () {
  "use strict";

  // The board's words come from Django's JavaScript catalogue in the page's language (portal.i18n, loaded before
  // this file); without it (the results pages load none) the board speaks English.
  var gettext = window.gettext || function (msgid) { return msgid; };
  var pgettext = window.pgettext || function (context, msgid) { return msgid; };
  var interpolate = window.interpolate || function (text, params) {
    return text.replace(/%\((\w+)\)s/g, function (match, name) { return String(params[name]); });
  };
  function say(text, params) { return interpolate(text, params, true); }

  function readJson(id) {
    var node = document.getElementById(id);
    return node ? JSON.parse(node.textContent) : null;
  }

  function median(values) {
    var sorted = values.slice().sort(function (a, b) { return a - b; });
    return sorted.length ? sorted[Math.floor(sorted.length / 2)] : 0;
  }

  function parseTime(text) { // "m:ss" or "m:ss.t" -> tenths
    var match = /^(\d+):(\d{2})(?:\.(\d))?$/.exec(text || "");
    return match ? (parseInt(match[1], 10) * 60 + parseInt(match[2], 10)) * 10 + parseInt(match[3] || "0", 10) : 0;
  }

  function countdown(tenths) { // whole seconds rounded up, as the rink clock shows them
    var seconds = Math.max(0, Math.ceil(tenths / 10));
    return Math.floor(seconds / 60) + ":" + String(seconds % 60).padStart(2, "0");
  }

  /* --- the connection -------------------------------------------------------------------------------------- */

  function Feed(settings, handlers) {
    this.settings = settings;
    this.handlers = handlers;
    this.offsets = [];
    this.offset = 0; // server clock minus this browser's, in ms
    this.lastHeard = 0;
    this.retry = 500;
    this.pings = {};
    this.connect();
    var feed = this;
    setInterval(function () { feed.watch(); }, 1000);
  }

  Feed.prototype.url = function () {
    var scheme = location.protocol === "https:" ? "wss://" : "ws://";
    return scheme + location.host + this.settings.socket;
  };

  Feed.prototype.nchan = function () { return this.settings.transport === "nchan"; };

  // A WebSocket that failed twice without ever opening (a proxy that refuses the upgrade, no WebSocket at all):
  // the same feed as an event stream from then on.
  Feed.prototype.streaming = function () {
    return !!(this.settings.stream && window.EventSource && (this.failures >= 2 || !window.WebSocket));
  };

  Feed.prototype.opened = function () {
    this.retry = 500;
    this.failures = 0;
    this.lastHeard = Date.now();
    if (this.everOpened && this.handlers.reconnected) this.handlers.reconnected();
    this.everOpened = true;
  };

  Feed.prototype.heard = function (text) {
    this.lastHeard = Date.now();
    this.stale = false;
    this.receive(JSON.parse(text));
  };

  Feed.prototype.lost = function (socket) {
    if (this.socket !== socket) return;
    this.socket = null;
    if (!socket.wasOpen) this.failures = (this.failures || 0) + 1;
    this.handlers.status(this.stale ? "stale" : "offline");
    this.reconnectLater();
  };

  Feed.prototype.connect = function () {
    var feed = this;
    this.handlers.status(this.stale ? "stale" : "connecting"); // a stale board says so until it hears again
    if (this.streaming()) { this.connectStream(); return; }
    var socket;
    try {
      socket = new WebSocket(this.url());
    } catch (error) {
      this.failures = (this.failures || 0) + 1;
      this.reconnectLater();
      return;
    }
    this.socket = socket;
    socket.onopen = function () {
      socket.wasOpen = true;
      feed.opened();
      if (feed.nchan()) return; // nchan's subscriber socket takes no messages: the offset comes from heartbeats
      for (var n = 0; n < 5; n++) { setTimeout(function () { feed.ping(); }, 200 * n); }
    };
    socket.onmessage = function (event) { feed.heard(event.data); };
    socket.onclose = function () { feed.lost(socket); };
  };

  Feed.prototype.connectStream = function () {
    var feed = this;
    var stream = new EventSource(this.settings.stream, {withCredentials: true});
    var handle = {wasOpen: false, close: function () { stream.close(); }};
    this.socket = handle;
    stream.onopen = function () { handle.wasOpen = true; feed.opened(); };
    stream.onmessage = function (event) { feed.heard(event.data); };
    stream.onerror = function () { stream.close(); feed.lost(handle); }; // reconnect on our own schedule
  };

  Feed.prototype.reconnectLater = function () {
    var feed = this;
    // Jittered (0.5x to 1.5x): after a blip that dropped every viewer, they do not all come back at once.
    setTimeout(function () { feed.connect(); }, this.retry * (0.5 + Math.random()));
    this.retry = Math.min(this.retry * 2, 10000);
  };

  Feed.prototype.ping = function () {
    if (this.nchan() || !this.socket || this.socket.readyState !== 1 || !this.socket.send) return;
    var token = Math.random().toString(36).slice(2);
    this.pings[token] = Date.now();
    this.socket.send(JSON.stringify({kind: "ping", token: token}));
  };

  Feed.prototype.receive = function (message) {
    if (message.kind === "pong") {
      var sent = this.pings[message.token];
      delete this.pings[message.token];
      if (sent !== undefined) {
        var received = Date.now();
        this.offsets.push(Date.parse(message.server_time) - (sent + received) / 2);
        this.offsets = this.offsets.slice(-9);
        this.offset = median(this.offsets);
      }
      return;
    }
    if (message.kind === "heartbeat") {
      this.handlers.status("live");
      if (this.nchan() || !this.socket || !this.socket.send) {
        // No pings here: the heartbeat's server time as it arrives (late by its delivery, a few milliseconds;
        // nchan keeps no heartbeat for later subscribers, so none is old).
        this.offsets.push(Date.parse(message.server_time) - Date.now());
        this.offsets = this.offsets.slice(-9);
        this.offset = median(this.offsets);
      } else if (Math.random() < 0.1) this.ping();
      return;
    }
    this.handlers.status("live");
    this.handlers[message.kind] && this.handlers[message.kind](message);
  };

  Feed.prototype.watch = function () { // no heartbeat for the stale time: say so, and reconnect
    if (!this.lastHeard) return;
    if (Date.now() - this.lastHeard > this.settings.stale_seconds * 1000) {
      this.stale = true;
      this.handlers.status("stale");
      if (this.socket) {
        var socket = this.socket;
        this.socket = null;
        socket.close();
        this.connect();
      }
      this.lastHeard = Date.now(); // one reconnect per stale period
    } else if (Date.now() - this.lastHeard > this.settings.heartbeat_seconds * 2000) {
      this.handlers.status("late");
    }
  };

  Feed.prototype.serverNow = function () { return Date.now() + this.offset; };

  /* --- one game's board ------------------------------------------------------------------------------------ */

  var STATUS_TEXT = {
    connecting: gettext("Connecting…"), live: pgettext("scoreboard connection", "Live"),
    late: gettext("Waiting for the server…"), offline: gettext("Offline: reconnecting…"),
    stale: gettext("Stale: no news from the server for 10 seconds")
  };

  var WAITING_TEXT = { // box entries whose time does not run
    stacked: gettext("(waits: 6.2.2 A)"), queued: gettext("(waits)"), expired: gettext("(out at the stoppage)")
  };

  var GOAL_STRENGTH = { // the scoring team's strength (games/engine/replay.py)
    power_play: pgettext("goal strength", "power play"), shorthanded: pgettext("goal strength", "shorthanded")
  };

  // The outcomes of the penalty situations the rulebook leaves open, in the reader's language
  // (games.labels.OUTCOMES, from the page's settings), and the game time of a period's buzzer.
  var OUTCOMES = {};
  var PERIOD_ENDS = null;
  var KINDS = {}; // the penalty kinds in the reader's language (games.labels.PENALTY_KINDS)
  // The sheet's state names each team as it was entered ("Italy"); the page's settings say how it reads in the
  // reader's language ("Italia"), as the page's own headings do (TeamEntry.display_name).
  var TEAM_NAMES = {};
  function teamName(team) { return TEAM_NAMES[team.name] || team.name; }

  function kindName(kind) { return KINDS[kind] || kind.replace(/_/g, " "); }

  function periodClock(period, time) { // "P1 12:29", as the console and the game report read it
    return say(pgettext("period and game time", "P%(period)s %(time)s"), {period: period, time: time});
  }

  function outcomeWords(codes) {
    var words = codes.filter(function (code) { return OUTCOMES[code]; }).map(function (code) { return OUTCOMES[code]; });
    return words.length ? " · " + words.join(" · ") : "";
  }

  function goalOutcomes(goal) { return goal.awarded ? ["awarded"] : []; } // R-69 (games.labels.goal_outcomes)

  function penaltyOutcomes(penalty) { // R-58, R-70 (games.labels.penalty_outcomes)
    var codes = penalty.washed_out_half ? ["washed_out_half"] : [];
    if (PERIOD_ENDS && penalty.time === (penalty.period > PERIOD_ENDS.periods ? PERIOD_ENDS.overtime : PERIOD_ENDS.regular)) {
      codes.push("at_buzzer");
    }
    return codes;
  }

  function Board(root, feed, sheetUrl) {
    this.root = root;
    this.feed = feed;
    this.sheetUrl = sheetUrl;
    this.sheet = null;
  }

  Board.prototype.find = function (selector) { return this.root.querySelector(selector); };

  Board.prototype.show = function (sheet) { // a snapshot: the state, whatever came before
    if (!sheet) return;
    this.sheet = sheet;
    this.root.setAttribute("data-sequence", sheet.sequence);
    this.render();
  };

  Board.prototype.delta = function (message) {
    var current = this.sheet ? this.sheet.sequence : 0;
    if (message.sequence <= current) return; // the snapshot already had it
    if (message.sequence > current + 1) { this.refetch(); return; } // a gap: pushes are hints
    this.show(message.sheet);
  };

  Board.prototype.refetch = function () {
    var board = this;
    if (this.fetching) return;
    this.fetching = true;
    fetch(this.sheetUrl, {headers: {Accept: "application/json"}, credentials: "same-origin"})
      .then(function (answer) { return answer.ok ? answer.json() : null; })
      .then(function (sheet) {
        if (sheet && (!board.sheet || sheet.sequence >= board.sheet.sequence)) board.show(sheet);
      })
      .finally(function () { board.fetching = false; });
  };

  Board.prototype.elapsed = function () { // tenths elapsed in the period, now
    var clock = this.sheet.clock;
    var elapsed = clock.elapsed_tenths;
    if (clock.running && clock.anchor) {
      elapsed += Math.max(0, (this.feed.serverNow() - Date.parse(clock.anchor)) / 100);
    }
    return Math.min(elapsed, clock.period_length_tenths);
  };

  Board.prototype.set = function (selector, text) {
    var node = this.find(selector);
    if (node && node.textContent !== String(text)) node.textContent = text;
  };

  Board.prototype.render = function () {
    var state = this.sheet.state;
    var teams = state.teams;
    var board = this;
    ["home", "away"].forEach(function (side) {
      board.set('[data-team-name="' + side + '"]', teamName(teams[side]));
      board.set('[data-box-name="' + side + '"]', teamName(teams[side]));
      board.set('[data-score="' + side + '"]', state.score[side]);
      board.set('[data-shots="' + side + '"]', teams[side].shots);
      board.set('[data-strength="' + side + '"]', teams[side].goalkeeper_pulled
        ? say(gettext("%(n)s on the rink, goalkeeper pulled"), {n: teams[side].strength})
        : say(gettext("%(n)s on the rink"), {n: teams[side].strength}));
    });
    var status = state.status;
    var periods = PERIOD_ENDS ? PERIOD_ENDS.periods : 2;
    var period = status === "ended" ? pgettext("game status", "Final") :
      status === "not_started" ? gettext("Not started") : status === "shootout" ? gettext("Shoot-out") :
      status === "intermission" ? say(gettext("Intermission after period %(n)s"), {n: state.period}) :
      state.period > periods ? gettext("Overtime") : say(gettext("Period %(n)s"), {n: state.period});
    this.set("[data-period]", period);
    this.set("[data-power-play]", state.power_play
      ? say(gettext("Power play: %(team)s"), {team: teamName(teams[state.power_play])}) : "");
    var called = ["home", "away"].filter(function (side) { return teams[side].timeouts_used > 0; });
    this.set("[data-timeouts]", called.length ? say(gettext("Time-out this period: %(teams)s"),
      {teams: called.map(function (side) { return teamName(teams[side]); }).join(", ")}) : ""); // 5.5.2 B, R-12
    ["home", "away"].forEach(function (side) {
      var list = board.find('[data-box="' + side + '"]');
      if (!list) return;
      list.innerHTML = "";
      state.box[side].forEach(function (entry) {
        var item = document.createElement("li");
        item.setAttribute("data-penalty", entry.penalty_id);
        item.setAttribute("data-remaining", parseTime(entry.remaining));
        item.setAttribute("data-status", entry.status);
        var who = document.createElement("span");
        who.textContent = "#" + (entry.player === null ? "?" : entry.player) + " " + kindName(entry.penalty);
        if (WAITING_TEXT[entry.status]) who.textContent += " " + WAITING_TEXT[entry.status];
        var time = document.createElement("span");
        time.className = "remaining";
        item.appendChild(who);
        item.appendChild(document.createTextNode(" "));
        item.appendChild(time);
        list.appendChild(item);
      });
    });
    var goals = this.find("[data-goals]");
    if (goals) {
      goals.innerHTML = "";
      state.goals.forEach(function (goal) {
        var item = document.createElement("li");
        item.textContent = periodClock(goal.period, goal.time) + " " + teamName(teams[goal.team]) + " #" +
          (goal.scorer === null ? "?" : goal.scorer) + (goal.assist ? " (#" + goal.assist + ")" : "") +
          (goal.strength && goal.strength !== "even"
            ? " " + (GOAL_STRENGTH[goal.strength] || goal.strength.replace(/_/g, " ")) : "") +
          outcomeWords(goalOutcomes(goal));
        goals.appendChild(item);
      });
    }
    var penalties = this.find("[data-penalties]");
    if (penalties) {
      penalties.innerHTML = "";
      state.penalties.forEach(function (penalty) {
        var item = document.createElement("li");
        item.textContent = periodClock(penalty.period, penalty.time) + " " + teamName(teams[penalty.team]) + " " +
          (penalty.player === null ? gettext("bench") : "#" + penalty.player) + " " + kindName(penalty.penalty) +
          (penalty.infraction ? ", " + penalty.infraction.replace(/_/g, " ") : "") +
          (penalty.article ? " (" + penalty.article + ")" : "") + outcomeWords(penaltyOutcomes(penalty));
        penalties.appendChild(item);
      });
    }
    this.fit();
    this.tick();
  };

  // A team's name breaks between words only (scoreboard.css): while one of its words is wider than the name's
  // column, the name steps down a size (classes fit-1 to fit-4), rather than run out of its column. Both names
  // then take the smaller size: one type for the two teams, and their scores at one height.
  var FIT_STEPS = 4;
  function fitStep(name, step) {
    for (var n = 1; n <= FIT_STEPS; n++) name.classList.toggle("fit-" + n, n === step);
  }
  Board.prototype.fit = function () {
    var names = Array.prototype.slice.call(this.root.querySelectorAll("[data-team-name]"));
    var steps = names.map(function (name) {
      var step = 0;
      fitStep(name, 0);
      while (step < FIT_STEPS && name.clientWidth && name.scrollWidth > name.clientWidth + 1) fitStep(name, ++step);
      return step;
    });
    var step = Math.max.apply(null, steps.concat([0]));
    names.forEach(function (name) { fitStep(name, step); });
  };

  Board.prototype.tick = function () { // the clock and the penalties' remaining time, every tenth
    if (!this.sheet) return;
    var clock = this.sheet.clock;
    var elapsed = this.elapsed();
    var run = elapsed - clock.elapsed_tenths; // tenths the clock ran since the state
    this.set("[data-clock]", countdown(clock.period_length_tenths - elapsed));
    this.root.classList.toggle("running", !!clock.running);
    this.root.querySelectorAll("[data-box] li").forEach(function (item) {
      var remaining = parseInt(item.getAttribute("data-remaining"), 10);
      if (item.getAttribute("data-status") === "running") remaining -= run;
      item.querySelector(".remaining").textContent = countdown(remaining);
    });
  };

  function setStatus(node, status) {
    if (!node) return;
    node.textContent = STATUS_TEXT[status];
    node.setAttribute("data-state", status);
  }

  /* --- the pages ------------------------------------------------------------------------------------------- */

  function gamePage(root, settings) {
    var statusNode = root.querySelector("[data-status]");
    var board;
    var feed = new Feed(settings, {
      status: function (status) { setStatus(statusNode, status); },
      snapshot: function (message) { board.show(message.sheet); },
      delta: function (message) { board.delta(message); },
      final: function () { board.refetch(); }
    });
    board = new Board(root, feed, settings.sheet_url);
    root.scoreboard = board; // for the browser tests
    var first = readJson("board-snapshot");
    if (first) board.show(first.sheet);
    setInterval(function () { board.tick(); }, 100);
    window.addEventListener("resize", function () { board.fit(); });
    var full = root.querySelector("[data-fullscreen]");
    if (full) {
      full.addEventListener("click", function () {
        if (document.fullscreenElement) document.exitFullscreen();
        else if (root.requestFullscreen) root.requestFullscreen();
      });
    }
  }

  function championshipPage(root, settings) {
    var statusNode = root.querySelector("[data-status]");
    var list = root.querySelector("[data-games]");
    var template = document.getElementById("mini-board");
    var boards = {};
    var feed;

    function boardFor(sheet) {
      var board = boards[sheet.game];
      if (!board) {
        var node = template.content.firstElementChild.cloneNode(true);
        node.setAttribute("data-game", sheet.game);
        node.querySelector("a").href = "/games/" + sheet.game + "/live/";
        list.appendChild(node);
        board = boards[sheet.game] = new Board(node, feed, settings.sheet_url.replace("{game}", sheet.game));
      }
      return board;
    }

    function showAll(games) {
      var empty = root.querySelector("[data-none]");
      games.forEach(function (sheet) { boardFor(sheet).show(sheet); });
      if (empty) empty.hidden = Object.keys(boards).length > 0;
    }

    feed = new Feed(settings, {
      status: function (status) { setStatus(statusNode, status); },
      snapshot: function (message) { showAll(message.games); },
      delta: function (message) {
        var board = boards[message.game];
        if (board) board.delta(message); else showAll([message.sheet]);
      },
      final: function (message) { if (boards[message.game]) boards[message.game].refetch(); },
      reconnected: function () { // what happened while away: nchan gives only the newest message of all games
        if (feed.nchan()) Object.keys(boards).forEach(function (id) { boards[id].refetch(); });
      }
    });
    var first = readJson("board-snapshot");
    if (first) showAll(first.games);
    setInterval(function () { Object.keys(boards).forEach(function (id) { boards[id].tick(); }); }, 100);
    window.addEventListener("resize", function () { Object.keys(boards).forEach(function (id) { boards[id].fit(); }); });
  }

  function reloadingPage(root) { // results and standings: a game ended, so read the page again
    var settings = {socket: root.getAttribute("data-socket"), stream: root.getAttribute("data-stream"),
      transport: root.getAttribute("data-transport"), heartbeat_seconds: 5, stale_seconds: 10};
    var reloading = false;
    new Feed(settings, {
      status: function () {},
      final: function () {
        if (reloading) return;
        reloading = true;
        fetch(location.href, {credentials: "same-origin"})
          .then(function (answer) { return answer.text(); })
          .then(function (html) {
            var fresh = new DOMParser().parseFromString(html, "text/html").querySelector("main");
            var main = document.querySelector("main");
            if (fresh && main) {
              main.innerHTML = fresh.innerHTML;
              main.setAttribute("data-reloaded", String(Date.now()));
            }
          })
          .finally(function () { reloading = false; });
      }
    });
  }

  document.addEventListener("DOMContentLoaded", function () {
    var settings = readJson("board-settings");
    if (settings) {
      OUTCOMES = settings.outcomes || {};
      PERIOD_ENDS = settings.period_ends || null;
      KINDS = settings.kinds || {};
      TEAM_NAMES = settings.team_names || {};
    }
    var game = document.querySelector("[data-board]");
    var championship = document.querySelector("[data-championship-live]");
    var reload = document.querySelector("[data-live-reload]");
    if (game && settings) gamePage(game, settings);
    else if (championship && settings) championshipPage(championship, settings);
    else if (reload) reloadingPage(reload);
  });
})();
