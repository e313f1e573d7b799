// The replay of a finished table: step forward and back, every seat's hand revealed.
"use strict";

(() => {
  const table = Henge.data.table;
  const drawing = Henge.drawing(table.game);
  const $ = (id) => document.getElementById(id);
  const el = Henge.el;
  let steps = [];
  let at = 0;
  let loading = null;

  function actor(step) {
    return step.actor === null ? "chance" : `seat ${step.actor}`;
  }

  async function load() {
    const response = await fetch(`/api/tables/${table.id}/replay`);
    const data = await response.json();
    steps = data.steps;
    $("slider").max = String(steps.length);
    const moves = $("moves");
    moves.replaceChildren(
      el("li", { value: 0, dataset: { step: 0 } }, "the start"),
      ...steps.map((s, i) => el("li", { value: i + 1, dataset: { step: i + 1 } }, `${actor(s)}: ${s.text}`)),
    );
    moves.addEventListener("click", (event) => {
      const item = event.target.closest("li");
      if (item) go(Number(item.dataset.step));
    });
    const start = Number(new URLSearchParams(location.hash.slice(1)).get("step") || 0);
    await go(Math.min(Math.max(start, 0), steps.length));
  }

  async function go(step) {
    step = Math.min(Math.max(step, 0), steps.length);
    at = step;
    const request = fetch(`/api/tables/${table.id}/replay/${step}`).then((r) => r.json());
    loading = request;
    const data = await request;
    if (loading !== request) return; // a later step was asked for meanwhile
    show(data);
  }

  function show(data) {
    document.body.dataset.step = String(data.step);
    $("slider").value = String(data.step);
    $("step-label").textContent = `step ${data.step} of ${data.steps}`;
    const done = data.done ? `${actor(data.done)}: ${data.done.text}` : "the start";
    const next = data.over ? "the game is over" : data.to_move === null ? "chance to act" : `seat ${data.to_move} to move`;
    $("step-text").textContent = `${done} — ${next}`;
    const ctx = { seat: null, view: data, mine: false, replay: true };
    Board.clear();
    drawing.draw(Board, data.spectator, ctx);
    $("info").replaceChildren(drawing.info(data.spectator, ctx));
    $("hands").replaceChildren(
      ...data.seats.map((obs, seat) => {
        const hand = drawing.hand(obs);
        const s = table.seats[seat];
        const who = s.kind === "bot" ? `bot (${s.bot})` : "person";
        return el(
          "div",
          { class: "seat-hand", dataset: { seat } },
          el("strong", {}, `seat ${seat}, ${who}${data.to_move === seat ? " — to move" : ""}`),
          hand ? el("div", { class: "hand" }, hand.map((t) => Henge.card(t, { small: true }))) : "",
          drawing.secrets(obs, data.spectator),
        );
      }),
    );
    const result = $("result");
    if (data.over) {
      result.replaceChildren(
        el("h2", {}, Henge.verdict(data.returns, null)),
        drawing.result(data.spectator, ctx),
        el("ul", { class: "standings" }, Henge.standings(data.returns, null).map((t) => el("li", {}, t))),
      );
      result.hidden = false;
    } else {
      result.hidden = true;
    }
    for (const item of $("moves").querySelectorAll("li.current")) item.classList.remove("current");
    const item = $("moves").querySelector(`li[data-step="${data.step}"]`);
    if (item) {
      item.classList.add("current");
      item.scrollIntoView({ block: "nearest" });
    }
    history.replaceState(null, "", `#step=${data.step}`);
  }

  $("first").addEventListener("click", () => go(0));
  $("back").addEventListener("click", () => go(at - 1));
  $("forward").addEventListener("click", () => go(at + 1));
  $("last").addEventListener("click", () => go(steps.length));
  $("slider").addEventListener("input", () => go(Number($("slider").value)));
  document.addEventListener("keydown", (event) => {
    if (event.key === "ArrowLeft") go(at - 1);
    else if (event.key === "ArrowRight") go(at + 1);
    else if (event.key === "Home") go(0);
    else if (event.key === "End") go(steps.length);
  });
  window.addEventListener("hashchange", () => {
    const step = new URLSearchParams(location.hash.slice(1)).get("step");
    if (step !== null && Number(step) !== at) go(Number(step));
  });
  load();
})();
