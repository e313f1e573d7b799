// A live table: one WebSocket, the seat's own view drawn on each message, actions sent by click.
"use strict";

(() => {
  const table = Henge.data.table;
  const drawing = Henge.drawing(table.game);
  const $ = (id) => document.getElementById(id);
  const seatKey = `henge.seat.${table.id}`;
  const linksKey = `henge.links.${table.id}`;

  // The seat and its secret token come from the join link's fragment (never sent in a URL to
  // the server) and are kept in this browser so that reopening the page returns to the seat.
  function credentials() {
    const params = new URLSearchParams(location.hash.slice(1));
    if (params.has("token") && params.has("seat")) {
      const creds = { seat: Number(params.get("seat")), token: params.get("token") };
      localStorage.setItem(seatKey, JSON.stringify(creds));
      return creds;
    }
    try {
      return JSON.parse(localStorage.getItem(seatKey)) || null;
    } catch (_e) {
      return null;
    }
  }

  let creds = credentials();
  let socket = null;
  let logLength = 0;
  let nextRef = 1;
  let retry = 300;
  let last = null;
  let pending = null;

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
    socket.onclose = () => {
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
      appendLog(message);
      if (!pending) requestAnimationFrame(() => {
        const view = pending;
        pending = null;
        if (view) render(view);
      });
      pending = message;
    } else if (message.type === "error") showError(message);
    else if (message.type === "ack") $("error").hidden = true;
  }

  function showError(message) {
    const box = $("error");
    box.textContent = message.message;
    box.hidden = false;
    if (message.code === "bad_token" || message.code === "bad_seat") {
      localStorage.removeItem(seatKey);
      creds = null;
    }
    if (last) render(last);
  }

  function send(action) {
    if (!socket || socket.readyState !== WebSocket.OPEN) return;
    setStatus("sent");
    pending = null; // a view from before the click must not offer the same choice again
    socket.send(JSON.stringify({ type: "act", action, ref: nextRef++ }));
  }

  function render(view) {
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
  }

  function botName(info, seat) {
    const s = info.seats[seat];
    return s && s.kind === "bot" ? ` (bot: ${s.bot})` : "";
  }

  function renderSeats(view, ctx) {
    const items = view.table.seats.map((s) => {
      const who = s.seat === view.seat ? "you" : s.kind === "bot" ? `bot (${s.bot})` : s.claimed ? "person" : "open seat";
      const presence =
        s.kind === "bot" ? null : Henge.el("span", { class: s.online ? "online" : "offline" }, s.online ? "● online" : "○ away");
      const classes = [s.seat === view.to_move && !view.over ? "to-move" : "", s.seat === view.seat ? "you" : ""].join(" ");
      return Henge.el(
        "li",
        { class: classes, dataset: { seat: s.seat } },
        `seat ${s.seat}: ${who}`,
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
