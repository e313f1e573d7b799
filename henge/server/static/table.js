// A live table: one WebSocket, the seat's own view drawn on each message, actions sent by a click or
// from the keyboard (Tab, the arrow keys, Enter or Space; "?" lists the keys).
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
  const baseTitle = document.title;
  let keyboard = false; // the person plays with the keys: the focus follows the play from turn to turn
  let wasMine = false;
  let audio = null;
  let rulesLoaded = false;

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
        unanswered.ref = nextRef++;
        socket.send(JSON.stringify({ type: "act", action: unanswered.action, seq: unanswered.seq, ref: unanswered.ref }));
      }
      appendLog(message);
      if (!pending) requestAnimationFrame(() => {
        const view = pending;
        pending = null;
        if (view) render(view);
      });
      pending = message;
    } else if (message.type === "error") {
      if (unanswered && (message.ref === undefined || message.ref === null || message.ref === unanswered.ref)) unanswered = null;
      showError(message);
    } else if (message.type === "ack") {
      if (unanswered && message.ref === unanswered.ref) unanswered = null;
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
    if (document.body.dataset.status === "sent") return; // one action at a time: a second key or click waits
    setStatus("sent");
    pending = null; // a view from before the click must not offer the same choice again
    const ref = nextRef++;
    unanswered = last && last.seq !== null ? { action, seq: last.seq, resend: false, ref } : null;
    socket.send(JSON.stringify({ type: "act", action, seq: unanswered ? unanswered.seq : undefined, ref }));
  }

  // Other messages of a seated person: undo, a name, the bots' pace. Each is answered (ack or error).
  function message(body) {
    if (!socket || socket.readyState !== WebSocket.OPEN) return false;
    socket.send(JSON.stringify({ ...body, ref: nextRef++ }));
    return true;
  }

  function undo() {
    if (!last || !(last.undo > 0) || last.over || document.body.dataset.status === "sent") return;
    if (message({ type: "undo", seq: last.seq })) setStatus("sent");
  }

  // How this page names a seat: "you", or "seat 2" with its display name ("Alice (seat 2)").
  function seatLabel(view, k) {
    if (view && k === view.seat) return "you";
    const s = view && view.table.seats[k];
    return s && s.name ? `${s.name} (seat ${k})` : `seat ${k}`;
  }

  // The legal choices on the page, in the order the arrow keys go through them: the board, the
  // hand, the choices beside it.
  function targets() {
    return [...document.querySelectorAll("#board [data-action], #hand [data-action], #actions [data-action]")].filter(
      (node) => node.getClientRects().length > 0,
    );
  }

  // A legal choice that is not a button still behaves as one: it takes the focus, names itself
  // (the action and its preview) and plays on Enter or Space.
  function decorate(node, text, previews) {
    const preview = previews[text];
    const label = preview ? `${text} — ${preview}` : text;
    if (node.tagName !== "BUTTON") {
      if (!node.hasAttribute("tabindex")) node.setAttribute("tabindex", "0");
      if (!node.hasAttribute("role")) node.setAttribute("role", "button");
    }
    if (node instanceof HTMLElement) {
      node.setAttribute("aria-label", label);
      node.title = label;
    } else if (!node.hasAttribute("aria-label")) {
      node.setAttribute("aria-label", label); // a space of the board: its drawing may have named it already
    }
  }

  function render(view) {
    if (gone) return; // the table is no more: its notice stays
    const focused = document.activeElement;
    const focusedAction = focused && focused.dataset && focused.dataset.action !== undefined ? focused.dataset.action : null;
    last = view;
    Henge.lastView = view; // this seat's own view, for the page's tests and for debugging
    const obs = view.observation;
    const seat = view.seat;
    const info = view.table;
    const mine = view.legal.length > 0;
    const previews = view.previews || {};
    const ctx = { seat, view, mine, table: info, previews };
    document.body.dataset.seat = seat === null ? "spectator" : String(seat);
    setStatus(view.over ? "over" : mine ? "act" : info.status === "waiting" ? "waiting" : "wait");

    const you = seat === null ? "You are watching" : `You are seat ${seat}`;
    $("you").textContent = `${you} at ${info.name}.`;
    const turn = $("turn");
    turn.className = mine ? "mine" : "";
    if (view.over) turn.textContent = "The game is over.";
    else if (info.status === "abandoned") turn.textContent = "This table was abandoned.";
    else if (info.status === "waiting") turn.textContent = "Waiting for every seat to be taken…";
    else if (view.chance) turn.textContent = "Dealing…";
    else if (mine) turn.textContent = "Your turn.";
    else {
      const mover = seatLabel(view, view.to_move);
      turn.textContent = `${mover[0].toUpperCase()}${mover.slice(1)} to move${botName(info, view.to_move)}.`;
    }
    document.title = mine && !view.over ? `● Your turn — ${baseTitle}` : baseTitle;
    $("prompt").textContent = drawing.describe(obs, ctx) || "";

    Board.clear();
    renderLastTurn(view, obs); // before the drawing: a drawing may remember the places it handed out
    drawing.draw(Board, obs, ctx);

    // A game's own composer (First Druid's trade offers) stands in for the buttons it handles.
    let composed = null;
    if (mine && typeof drawing.compose === "function") {
      try {
        const legal = view.legal.map((a) => a.text);
        composed = drawing.compose(obs, { ...ctx, legal, send }) || null;
      } catch (error) {
        console.error(error);
        composed = null;
      }
    }
    const handled = composed && composed.handles ? composed.handles : new Set();

    const buttons = [];
    const byCard = {};
    for (const action of view.legal) {
      const where = drawing.place(action.text, obs);
      if (where && where.space && Board.markLegal(where.space, action.text, () => send(action.text))) continue;
      if (where && where.card && !byCard[where.card]) {
        byCard[where.card] = action.text;
        continue;
      }
      if (handled.has(action.text)) continue;
      buttons.push(action.text);
    }

    const hand = drawing.hand(obs);
    const handArea = $("hand");
    handArea.replaceChildren();
    // No heading over nothing: a game without a hand (Spell Casting), a spectator, an empty hand.
    $("hand-area").hidden = seat === null || !hand || hand.length === 0;
    if (hand) {
      for (const text of hand) {
        const node = Henge.card(text);
        const action = byCard[text];
        if (action) {
          node.classList.add("legal");
          node.dataset.action = action;
          node.addEventListener("click", () => send(action));
        }
        handArea.append(node);
      }
    }
    $("actions").replaceChildren(...(composed && composed.node ? [composed.node] : []), ...actionButtons(buttons));
    for (const node of document.querySelectorAll("#board [data-action], #hand [data-action], #actions [data-action]")) {
      decorate(node, node.dataset.action, previews);
    }
    const undoButton = $("undo");
    undoButton.hidden = !(view.undo > 0) || view.over || seat === null;
    undoButton.textContent = view.undo > 1 ? `Undo (${view.undo})` : "Undo";
    const shown = $("preview").dataset.shown;
    if (shown !== undefined && !(shown in previews)) showPreview(null);

    renderSeats(view, ctx);
    renderName(view);
    renderPace(view);
    $("info").replaceChildren(drawing.info(obs, ctx));
    renderResult(view, ctx);
    renderInvites(info);
    renderStandin(view);
    renderSeatActions(view);
    renderCreator(info);
    deadline = view.turn_ends_in === null || view.turn_ends_in === undefined ? null : performance.now() + view.turn_ends_in * 1000;
    tick();
    announce();
    if (mine && !wasMine && $("sound").checked) beep();
    wasMine = mine && !view.over;
    restoreFocus(focusedAction, mine);
  }

  // The choices that are buttons. Many choices that differ in their last word only ("trilithon white
  // on bluestones 7-9", "… 8-10", …) share one label and show that word alone, so that a long list
  // still fits beside the board; each button still carries (and is named by) its whole text.
  function actionButtons(texts) {
    const button = (text, label) =>
      Henge.el("button", { type: "button", dataset: { action: text }, onclick: () => send(text) }, label);
    const groups = new Map();
    for (const text of texts) {
      const cut = text.lastIndexOf(" ");
      const key = cut > 0 ? text.slice(0, cut) : text;
      if (!groups.has(key)) groups.set(key, []);
      groups.get(key).push(text);
    }
    const out = [];
    for (const [key, members] of groups) {
      if (members.length < 3) {
        out.push(...members.map((text) => button(text, text)));
        continue;
      }
      out.push(
        Henge.el(
          "div",
          { class: "action-group", role: "group", "aria-label": key },
          Henge.el("span", { class: "group-label" }, `${key}:`),
          members.map((text) => button(text, text.slice(key.length + 1))),
        ),
      );
    }
    return out;
  }

  // While the person plays with the keys, the focus stays with the play: on the same choice if it is
  // still offered, else on the first one.
  function restoreFocus(focusedAction, mine) {
    if (!mine || !keyboard) return; // a pointer needs no help, and a phone must not scroll by itself
    const active = document.activeElement;
    const lost = !active || active === document.body;
    const choices = targets();
    if (choices.length === 0) return;
    if (focusedAction !== null && (lost || active.dataset.action === undefined)) {
      (choices.find((node) => node.dataset.action === focusedAction) || choices[0]).focus();
    } else if (keyboard && lost) {
      choices[0].focus();
    }
  }

  let shownTurn = null; // the last turn animated already (drawn again on every view, animated once)

  // The most recent finished turn of another seat: in words, and its places marked on the board.
  function renderLastTurn(view, obs) {
    for (const node of document.querySelectorAll("#board .last-move")) node.classList.remove("last-move");
    const line = $("last-turn");
    const turn = view.last_turn;
    if (!turn || !Array.isArray(turn.actions) || turn.actions.length === 0) {
      line.hidden = true;
      return;
    }
    // A turn not shown before plays as one quick animation: its places light up one after another.
    const signature = JSON.stringify([view.table.id, view.seq, turn]);
    const fresh = signature !== shownTurn;
    shownTurn = signature;
    const lit = new Set(); // a place two steps share lights up once, at the first
    for (const text of turn.actions) {
      let where = null;
      try {
        where = drawing.place(text, obs);
      } catch (_e) {
        where = null;
      }
      if (!where || !where.space || !Board.highlight(where.space)) continue;
      const node = Board.space(where.space);
      if (lit.has(node)) continue;
      node.classList.toggle("fresh", fresh);
      node.style.setProperty("--step", String(lit.size));
      lit.add(node);
    }
    line.replaceChildren(
      Henge.el("span", { class: "last-who" }, `Last turn, ${seatLabel(view, turn.seat)}: `),
      turn.actions.join(", "),
    );
    line.hidden = false;
  }

  // What a choice would do, under the choices, for the one with the focus or under the pointer.
  function showPreview(node) {
    const box = $("preview");
    const text = node ? node.dataset.action : undefined;
    const preview = text !== undefined && last && last.previews ? last.previews[text] : undefined;
    if (!preview) {
      box.textContent = "";
      delete box.dataset.shown;
      return;
    }
    box.replaceChildren(Henge.el("strong", {}, text), ` — ${preview}`);
    box.dataset.shown = text; // not data-action: only a choice carries that
  }

  function previewFrom(event) {
    const node = event.target instanceof Element ? event.target.closest("[data-action]") : null;
    if (node) showPreview(node);
  }
  document.addEventListener("focusin", previewFrom);
  document.addEventListener("mouseover", previewFrom);

  // The live region: whose turn it is and the newest line of the log, for screen readers.
  function announce() {
    const region = $("announce");
    const newest = $("log").lastElementChild;
    const text = [$("turn").textContent, newest ? `Last: ${newest.textContent}` : ""].filter(Boolean).join(" ");
    if (region.textContent !== text) region.textContent = text;
  }

  // A short tone when it becomes this seat's turn, if the person asked for it (off by default).
  function beep() {
    Henge.beeps = (Henge.beeps || 0) + 1;
    try {
      audio = audio || new (window.AudioContext || window.webkitAudioContext)();
      const now = audio.currentTime;
      const tone = audio.createOscillator();
      const gain = audio.createGain();
      tone.frequency.value = 660;
      gain.gain.setValueAtTime(0.0001, now);
      gain.gain.exponentialRampToValueAtTime(0.15, now + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, now + 0.3);
      tone.connect(gain).connect(audio.destination);
      tone.start(now);
      tone.stop(now + 0.32);
    } catch (_e) {
      // no sound here: the title and the live region still say it
    }
  }

  const sound = $("sound");
  sound.checked = localStorage.getItem("henge.sound") === "1";
  sound.addEventListener("change", () => {
    localStorage.setItem("henge.sound", sound.checked ? "1" : "0");
    if (sound.checked && !audio) {
      try {
        audio = new (window.AudioContext || window.webkitAudioContext)(); // made on a click, so it may play
      } catch (_e) {
        audio = null;
      }
    }
  });

  // The seat's display name (1-24 characters), shown to everybody at the table.
  function renderName(view) {
    const form = $("name-form");
    const seated = view.seat !== null && creds !== null && view.table.seats[view.seat] !== undefined;
    form.hidden = !seated;
    if (!seated) return;
    const input = $("name-input");
    const name = view.table.seats[view.seat].name || "";
    if (document.activeElement !== input && !input.dataset.edited) input.value = name;
    if (input.value === name) delete input.dataset.edited;
  }
  $("name-input").addEventListener("input", () => {
    $("name-input").dataset.edited = "1";
  });
  $("name-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const input = $("name-input");
    delete input.dataset.edited;
    message({ type: "name", name: input.value.trim() });
  });

  // Skip the bots' pause before each of their turns (while every seated person asks so).
  function renderPace(view) {
    const label = $("pace-label");
    const bots = view.table.seats.some((s) => s.kind === "bot" || s.standin);
    label.hidden = !view.pace || view.seat === null || creds === null || view.over || !bots;
    if (!label.hidden) $("skip-wait").checked = Boolean(view.pace.skip);
  }
  $("skip-wait").addEventListener("change", () => message({ type: "pace", skip: $("skip-wait").checked }));
  $("undo").addEventListener("click", undo);

  // The rules of the game, fetched once (the server renders them, escaping any markup in the text).
  async function toggleRules(open) {
    const pane = $("rules-pane");
    const show = open === undefined ? pane.hidden : open;
    pane.hidden = !show;
    $("rules-button").setAttribute("aria-expanded", String(show));
    document.body.classList.toggle("rules-open", show);
    if (!show) {
      $("rules-button").focus();
      return;
    }
    pane.focus();
    if (rulesLoaded) return;
    try {
      const response = await fetch(`/games/${encodeURIComponent(table.game)}/rules`);
      if (!response.ok) throw new Error(response.status === 404 ? "This game has no rules page." : response.statusText);
      $("rules-text").innerHTML = await response.text();
      rulesLoaded = true;
    } catch (error) {
      $("rules-text").textContent = String(error.message || error);
    }
  }
  $("rules-button").addEventListener("click", () => toggleRules());
  $("rules-close").addEventListener("click", () => toggleRules(false));

  function openHelp() {
    const help = $("help");
    if (!help.open) help.showModal();
  }
  $("help-button").addEventListener("click", openHelp);

  // The arrow keys go from legal choice to legal choice; Enter or Space plays the one with the focus.
  function moveFocus(step, absolute) {
    const choices = targets();
    if (choices.length === 0) return false;
    const at = choices.indexOf(document.activeElement);
    let next;
    if (absolute !== undefined) next = absolute < 0 ? choices.length - 1 : 0;
    else if (at < 0) next = step > 0 ? 0 : choices.length - 1;
    else next = (at + step + choices.length) % choices.length;
    choices[next].focus();
    return true;
  }

  function typing(node) {
    if (!node || !node.tagName) return false;
    if (node.isContentEditable || node.tagName === "TEXTAREA" || node.tagName === "SELECT") return true;
    return node.tagName === "INPUT" && !["checkbox", "radio", "button", "submit", "range"].includes(node.type);
  }

  document.addEventListener("pointerdown", () => {
    keyboard = false;
    if (audio && audio.state === "suspended") audio.resume().catch(() => {}); // a browser lets a click wake it
  });
  document.addEventListener("keydown", (event) => {
    if (event.ctrlKey || event.metaKey || event.altKey || event.defaultPrevented) return;
    if ($("help").open) return; // the list of keys is a dialog: Escape closes it
    const node = event.target;
    if (event.key === "Escape") {
      if (!$("rules-pane").hidden) {
        event.preventDefault();
        toggleRules(false);
      }
      return;
    }
    if (typing(node)) return;
    const inPlay = !node.closest || !node.closest("aside.side, #rules-pane");
    const onChoice = node.dataset && node.dataset.action !== undefined;
    switch (event.key) {
      case "Tab":
        keyboard = true;
        return;
      case "?":
        event.preventDefault();
        openHelp();
        return;
      case "r":
      case "R":
        event.preventDefault();
        toggleRules();
        return;
      case "u":
      case "U":
        if (!$("undo").hidden) {
          event.preventDefault();
          keyboard = true;
          undo();
        }
        return;
      case "c":
      case "C":
        keyboard = true;
        if (moveFocus(1, 0)) event.preventDefault();
        return;
      case "ArrowRight":
      case "ArrowDown":
      case "ArrowLeft":
      case "ArrowUp":
        if (!inPlay) return;
        keyboard = true;
        if (moveFocus(event.key === "ArrowRight" || event.key === "ArrowDown" ? 1 : -1)) event.preventDefault();
        return;
      case "Home":
      case "End":
        if (!onChoice) return;
        if (moveFocus(1, event.key === "Home" ? 0 : -1)) event.preventDefault();
        return;
      case "Enter":
      case " ":
        keyboard = true;
        if (onChoice && node.tagName !== "BUTTON") {
          event.preventDefault();
          node.dispatchEvent(new MouseEvent("click", { bubbles: true, cancelable: true, view: window }));
        }
        return;
      default:
    }
  });

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
        Henge.el(
          "span",
          { class: "who" },
          `seat ${s.seat}: ${who}${standin}`,
          s.name ? Henge.el("span", { class: "name" }, s.name) : null, // a text node: markup in a name stays text
        ),
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
    if (view.log.length) announce();
  }

  function renderResult(view, ctx) {
    const box = $("result");
    if (!view.over) {
      box.hidden = true;
      return;
    }
    const label = (k) => seatLabel(view, k);
    const replay = Henge.el("a", { href: `/tables/${table.id}/replay`, id: "replay-link" }, "Replay this game, everything revealed");
    box.replaceChildren(
      Henge.el("h2", { id: "verdict" }, Henge.verdict(view.returns, view.seat, label)),
      Henge.el("ul", { id: "standings", class: "standings" }, Henge.standings(view.returns, view.seat, label).map((t) => Henge.el("li", {}, t))),
      drawing.result(view.observation, ctx),
      Henge.el("p", { class: "after" }, replay, rematchControl(view)),
    );
    box.hidden = false;
  }

  // The same seats again, with a new deal: asked once by any seated person; everybody keeps their seat.
  function rematchControl(view) {
    const next = view.table.rematch;
    if (next) {
      const link = Henge.el("a", { href: `/tables/${next}`, id: "rematch-link", class: "rematch" }, "Go to the rematch");
      link.addEventListener("click", () => carryCredentials(next));
      return link;
    }
    if (view.seat === null || creds === null) return null;
    const button = Henge.el("button", { type: "button", id: "rematch", class: "primary" }, "Rematch (same seats)");
    button.addEventListener("click", async () => {
      button.disabled = true;
      try {
        const made = await call("POST", `/api/tables/${table.id}/rematch`, creds.token);
        carryCredentials(made.id);
        location.href = made.url;
      } catch (error) {
        button.disabled = false;
        panelError(error);
      }
    });
    return button;
  }

  // This browser's seat at the rematch is its seat here, with the same token.
  function carryCredentials(nextId) {
    if (creds && /^[0-9a-zA-Z_-]{1,32}$/.test(nextId)) localStorage.setItem(`henge.seat.${nextId}`, JSON.stringify(creds));
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
