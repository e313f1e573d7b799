// A live table: one WebSocket, the seat's own view drawn on each message, actions sent by click.
"use strict";

(() => {
  const table = Henge.data.table;
  const drawing = Henge.drawing(table.game);
  const $ = (id) => document.getElementById(id);
  const seatKey = `henge.seat.${table.id}`;
  const linksKey = `henge.links.${table.id}`;
  const creatorKey = `henge.creator.${table.id}`;

  // The seat and its secret token come from the join link's fragment (never sent in a URL to
  // the server) and are kept in this browser so that reopening the page returns to the seat; so
  // does the creator's token (#creator=…). Once read, they leave the address bar (and its history).
  function credentials() {
    const params = new URLSearchParams(location.hash.slice(1));
    if (params.has("creator")) localStorage.setItem(creatorKey, params.get("creator"));
    if (params.has("token") && params.has("seat")) {
      localStorage.setItem(seatKey, JSON.stringify({ seat: Number(params.get("seat")), token: params.get("token") }));
    }
    if (params.has("token") || params.has("creator")) history.replaceState(history.state, "", location.pathname + location.search);
    try {
      return JSON.parse(localStorage.getItem(seatKey)) || null;
    } catch (_e) {
      return null;
    }
  }

  let creds = credentials();
  const creator = localStorage.getItem(creatorKey);
  let gone = null; // why this table is no more (deleted): the page stops reconnecting
  let deadline = null; // when the timed turn ends (performance.now() milliseconds)
  let socket = null;
  let logLength = 0;
  let nextRef = 1;
  let retry = 300;
  let last = null;
  let pending = null;
  // The action sent and not yet answered, with its seq (how many actions this seat had taken before
  // it): sent again after a reconnection, which the server acknowledges without applying it twice.
  let unanswered = null;

  function setStatus(status) {
    document.body.dataset.status = status;
  }

  function connect() {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    socket = new WebSocket(`${scheme}://${location.host}/ws/tables/${table.id}`);
    socket.onopen = () => {
      retry = 300;
      const hello = creds ? { type: "hello", seat: creds.seat, token: creds.token } : { type: "hello" };
      socket.send(JSON.stringify(hello));
    };
    socket.onmessage = (event) => receive(JSON.parse(event.data));
    socket.onclose = (event) => {
      if (unanswered) unanswered.resend = true;
      if (event.code === 4404 || event.code === 4410) gone = gone || "This table is no more.";
      if (gone) {
        setStatus("gone");
        $("turn").textContent = gone;
        $("turn").className = "connection";
        return;
      }
      setStatus("offline");
      $("turn").textContent = "connection lost: reconnecting…";
      $("turn").className = "connection";
      setTimeout(connect, retry);
      retry = Math.min(retry * 2, 3000);
    };
  }

  // Views can come in bursts (the dealer, fast bots): the log takes every line at once, the
  // page is drawn once per frame from the latest view.
  function receive(message) {
    if (message.type === "view") {
      if (unanswered && unanswered.resend) {
        unanswered.resend = false;
        socket.send(JSON.stringify({ type: "act", action: unanswered.action, seq: unanswered.seq, ref: nextRef++ }));
      }
      appendLog(message);
      if (!pending) requestAnimationFrame(() => {
        const view = pending;
        pending = null;
        if (view) render(view);
      });
      pending = message;
    } else if (message.type === "error") {
      unanswered = null;
      showError(message);
    } else if (message.type === "ack") {
      unanswered = null;
      $("error").hidden = true;
    }
  }

  function showError(message) {
    const box = $("error");
    box.textContent = message.message;
    box.hidden = false;
    if (message.code === "bad_token" || message.code === "bad_seat" || message.code === "revoked") {
      localStorage.removeItem(seatKey);
      creds = null;
    }
    if (message.code === "deleted") {
      gone = "This table was deleted by its creator.";
      for (const key of [seatKey, linksKey, creatorKey]) localStorage.removeItem(key);
    }
    if (last) render(last);
  }

  function send(action) {
    if (!socket || socket.readyState !== WebSocket.OPEN) return;
    setStatus("sent");
    pending = null; // a view from before the click must not offer the same choice again
    unanswered = last && last.seq !== null ? { action, seq: last.seq, resend: false } : null;
    socket.send(JSON.stringify({ type: "act", action, seq: unanswered ? unanswered.seq : undefined, ref: nextRef++ }));
  }

  function render(view) {
    if (gone) return; // the table is no more: its notice stays
    last = view;
    Henge.lastView = view; // this seat's own view, for the page's tests and for debugging
    const obs = view.observation;
    const seat = view.seat;
    const info = view.table;
    const mine = view.legal.length > 0;
    const ctx = { seat, view, mine, table: info };
    document.body.dataset.seat = seat === null ? "spectator" : String(seat);
    setStatus(view.over ? "over" : mine ? "act" : info.status === "waiting" ? "waiting" : "wait");

    $("you").textContent = seat === null ? `You are watching ${info.name}.` : `You are seat ${seat} at ${info.name}.`;
    const turn = $("turn");
    turn.className = mine ? "mine" : "";
    if (view.over) turn.textContent = "The game is over.";
    else if (info.status === "abandoned") turn.textContent = "This table was abandoned.";
    else if (info.status === "waiting") turn.textContent = "Waiting for every seat to be taken…";
    else if (view.chance) turn.textContent = "Dealing…";
    else if (mine) turn.textContent = "Your turn.";
    else turn.textContent = `Seat ${view.to_move} to move${botName(info, view.to_move)}.`;
    $("prompt").textContent = drawing.describe(obs, ctx) || "";

    Board.clear();
    drawing.draw(Board, obs, ctx);

    const buttons = [];
    const byCard = {};
    for (const action of view.legal) {
      const where = drawing.place(action.text, obs);
      if (where && where.space && Board.markLegal(where.space, action.text, () => send(action.text))) continue;
      if (where && where.card && !byCard[where.card]) {
        byCard[where.card] = action.text;
        continue;
      }
      buttons.push(Henge.el("button", { type: "button", dataset: { action: action.text }, onclick: () => send(action.text) }, action.text));
    }

    const hand = drawing.hand(obs);
    const handArea = $("hand");
    $("hand-title").textContent = seat === null ? "" : "your hand";
    handArea.replaceChildren();
    if (hand) {
      for (const text of hand) {
        const node = Henge.card(text);
        const action = byCard[text];
        if (action) {
          node.classList.add("legal");
          node.dataset.action = action;
          node.title = action;
          node.addEventListener("click", () => send(action));
        }
        handArea.append(node);
      }
    }
    $("actions").replaceChildren(...buttons);

    renderSeats(view, ctx);
    $("info").replaceChildren(drawing.info(obs, ctx));
    renderResult(view, ctx);
    renderInvites(info);
    renderStandin(view);
    renderSeatActions(view);
    renderCreator(info);
    deadline = view.turn_ends_in === null || view.turn_ends_in === undefined ? null : performance.now() + view.turn_ends_in * 1000;
    tick();
  }

  // The clock of a timed turn (a lobby table's, or one its creator asked for).
  function tick() {
    const clock = $("clock");
    if (deadline === null || !last || last.over) {
      clock.textContent = "";
      return;
    }
    const left = Math.max(0, Math.ceil((deadline - performance.now()) / 1000));
    const who = last.seat !== null && last.to_move === last.seat ? "you have" : `seat ${last.to_move} has`;
    clock.textContent = `(${who} ${left} s)`;
  }
  setInterval(tick, 500);

  // A bot plays this seat since its time ran out: connecting again hands the seat back.
  function renderStandin(view) {
    const box = $("standin");
    const seat = view.seat === null ? null : view.table.seats[view.seat];
    if (!seat || !seat.standin || view.over) {
      box.hidden = true;
      return;
    }
    box.replaceChildren(
      `Your time ran out: a bot (${seat.standin}) plays your seat. `,
      Henge.el("button", { type: "button", id: "take-back", onclick: () => socket && socket.close() }, "Take my seat back"),
    );
    box.hidden = false;
  }

  async function call(method, url, token, body) {
    const response = await fetch(url, {
      method,
      headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const data = await response.json().catch(() => ({}));
    if (!response.ok) throw new Error(data.error || response.statusText);
    return data;
  }

  // A two-step button: the first click asks, the second does it.
  function confirmed(id, label, question, action) {
    const button = Henge.el("button", { type: "button", id }, label);
    button.addEventListener("click", () => {
      if (button.dataset.armed) return action();
      button.dataset.armed = "1";
      button.textContent = question;
      button.classList.add("danger");
    });
    return button;
  }

  function panelError(error) {
    const box = $("error");
    box.textContent = String(error.message || error);
    box.hidden = false;
  }

  // The person at a seat may give it up for good (it opens to the lobby, or a bot takes it).
  function renderSeatActions(view) {
    const area = $("seat-actions");
    const seated = view.seat !== null && !view.over && creds !== null;
    if (!seated) {
      area.replaceChildren();
      delete area.dataset.seat;
      return;
    }
    if (area.dataset.seat === String(view.seat)) return; // drawn already (a first click may be waiting)
    area.dataset.seat = String(view.seat);
    const what = view.table.on_leave === "open" ? "it opens to the lobby" : "a bot takes it";
    const leave = confirmed("leave-seat", "Leave this seat", `Leave for good (${what})?`, async () => {
      try {
        await call("POST", `/api/tables/${table.id}/seats/${creds.seat}/leave`, creds.token);
        localStorage.removeItem(seatKey);
        creds = null;
        area.replaceChildren();
        delete area.dataset.seat;
        if (socket) socket.close(); // back as a spectator
      } catch (error) {
        panelError(error);
      }
    });
    area.replaceChildren(leave);
  }

  // The table's creator (this browser holds the creator's token): new links, seats opened to the
  // lobby, deleting the table. Nobody else sees these controls, and the server checks the token.
  function renderCreator(info) {
    const panel = $("creator-panel");
    if (!creator || gone) {
      panel.hidden = true;
      return;
    }
    panel.hidden = false;
    const area = $("creator");
    // Drawn again only when something it shows changed (a first click on "delete" may be waiting).
    const sig = JSON.stringify([info.status, info.turn_limit, info.seats.map((s) => [s.kind, s.claimed, s.lobby])]);
    if (area.dataset.busy || area.dataset.sig === sig) return;
    area.dataset.sig = sig;
    const rows = info.seats
      .filter((s) => s.kind === "person")
      .map((s) => {
        const state = s.claimed ? "taken" : s.lobby ? "open to the lobby" : "waiting for its link";
        const buttons = [];
        if (info.status !== "finished") {
          buttons.push(Henge.el("button", { type: "button", class: "new-link", dataset: { seat: s.seat }, onclick: () => newLink(s.seat) }, "new link"));
          buttons.push(
            Henge.el(
              "button",
              { type: "button", class: "lobby-toggle", dataset: { seat: s.seat }, onclick: () => setLobby(s.seat, !s.lobby) },
              s.lobby ? "keep for its link" : "open to the lobby",
            ),
          );
        }
        return Henge.el("div", { class: "creator-seat", dataset: { seat: s.seat } }, `seat ${s.seat}: ${state} `, ...buttons);
      });
    const remove = confirmed("delete-table", "Delete this table", "Really delete it for everybody?", deleteTable);
    const note = info.turn_limit ? `A person has ${info.turn_limit} s per turn; then a bot plays for them until they are back.` : "No turn limit.";
    area.replaceChildren(...rows, Henge.el("p", { class: "note" }, note), remove);
  }

  async function withPanel(work) {
    const area = $("creator");
    area.dataset.busy = "1";
    try {
      await work();
    } catch (error) {
      panelError(error);
    } finally {
      delete area.dataset.busy;
      delete area.dataset.sig;
      if (gone) {
        // Deleted: never draw the last view over the notice (the socket's close may come first).
        setStatus("gone");
        $("turn").textContent = gone;
      } else if (last) {
        render(last);
      }
    }
  }

  function newLink(seat) {
    return withPanel(async () => {
      const issued = await call("POST", `/api/tables/${table.id}/seats/${seat}/link`, creator);
      let links = [];
      try {
        links = JSON.parse(localStorage.getItem(linksKey)) || [];
      } catch (_e) {
        links = [];
      }
      localStorage.setItem(linksKey, JSON.stringify([...links.filter((l) => l.seat !== seat), issued]));
    });
  }

  function setLobby(seat, open) {
    return withPanel(() => call("POST", `/api/tables/${table.id}/seats/${seat}/lobby`, creator, { open }));
  }

  function deleteTable() {
    return withPanel(async () => {
      await call("DELETE", `/api/tables/${table.id}`, creator);
      gone = "This table was deleted by its creator.";
      for (const key of [seatKey, linksKey, creatorKey]) localStorage.removeItem(key);
    });
  }

  function botName(info, seat) {
    const s = info.seats[seat];
    if (s && s.standin) return ` (a ${s.standin} bot stands in)`;
    return s && s.kind === "bot" ? ` (bot: ${s.bot})` : "";
  }

  function renderSeats(view, ctx) {
    const items = view.table.seats.map((s) => {
      const person = s.claimed ? "person" : s.lobby ? "open seat" : "invited";
      const who = s.seat === view.seat ? "you" : s.kind === "bot" ? `bot (${s.bot})` : person;
      const standin = s.standin ? ` · a ${s.standin} bot stands in` : "";
      const presence =
        s.kind === "bot" ? null : Henge.el("span", { class: s.online ? "online" : "offline" }, s.online ? "● online" : "○ away");
      const classes = [s.seat === view.to_move && !view.over ? "to-move" : "", s.seat === view.seat ? "you" : ""].join(" ");
      return Henge.el(
        "li",
        { class: classes, dataset: { seat: s.seat } },
        `seat ${s.seat}: ${who}${standin}`,
        presence,
        Henge.el("span", { class: "note" }, drawing.seatNote(view.observation, s.seat, ctx) || ""),
      );
    });
    $("seats").replaceChildren(...items);
  }

  function appendLog(view) {
    const list = $("log");
    if (view.log_start === 0) {
      list.replaceChildren();
      logLength = 0;
    }
    if (view.log_start !== logLength) return; // a gap: the next full view repairs it
    for (const line of view.log) list.append(Henge.el("li", {}, line));
    logLength += view.log.length;
    list.scrollTop = list.scrollHeight;
  }

  function renderResult(view, ctx) {
    const box = $("result");
    if (!view.over) {
      box.hidden = true;
      return;
    }
    box.replaceChildren(
      Henge.el("h2", { id: "verdict" }, Henge.verdict(view.returns, view.seat)),
      drawing.result(view.observation, ctx),
      Henge.el("p", {}, "Returns: ", view.returns.map((r, i) => `seat ${i}: ${r}`).join(", ")),
      Henge.el("p", {}, Henge.el("a", { href: `/tables/${table.id}/replay`, id: "replay-link" }, "Replay this game, everything revealed")),
    );
    box.hidden = false;
  }

  // Links this browser made for the table's other person seats, while they are open.
  function renderInvites(info) {
    const area = $("invites");
    let links = [];
    try {
      links = JSON.parse(localStorage.getItem(linksKey)) || [];
    } catch (_e) {
      links = [];
    }
    const open = links.filter((l) => info.seats[l.seat] && !info.seats[l.seat].claimed);
    area.replaceChildren(
      ...open.map((l) => {
        const url = new URL(l.url, location.origin).href;
        const input = Henge.el("input", { class: "link", value: url, readonly: true });
        return Henge.el(
          "div",
          { class: "link-row" },
          `seat ${l.seat}: `,
          input,
          Henge.el("button", { type: "button", onclick: () => copy(input) }, "copy"),
        );
      }),
    );
  }

  function copy(input) {
    input.select();
    if (navigator.clipboard) navigator.clipboard.writeText(input.value).catch(() => document.execCommand("copy"));
    else document.execCommand("copy");
  }

  setStatus("connecting");
  connect();
})();
