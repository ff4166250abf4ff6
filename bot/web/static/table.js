// The web table's script (bot/web): the page works without it; with it, the board's
// pictures (the map, the player tables) zoom and pan with fingers, wheel and buttons, the
// page follows the game live (server-sent events: only the table's version number comes
// through them; the page says whether it is live, and tries again when it is not), and a
// choice is made without leaving the page.
"use strict";
(function () {
  const main = document.getElementById("main");
  const board = document.getElementById("board");
  const tables = document.getElementById("tables");
  const said = document.getElementById("said");
  const base = main ? main.dataset.base : null;
  let version = main ? main.dataset.version : null;

  // ---- the pictures: zoom and pan (the map, the player tables; each on its own) ------------
  function zoomable(viewport) {
    const picture = viewport.querySelector("img");
    const sized = picture.closest(".stage") || picture; // the picture with the places over it
    const buttons = viewport.previousElementSibling;
    let scale = 1;
    function maxScale() {
      // up to two screen pixels per pixel of the picture: every label reads
      return Math.max(1, (2 * (picture.naturalWidth || 1200)) / Math.max(1, viewport.clientWidth));
    }
    function zoomTo(next, cx, cy) {
      next = Math.min(maxScale(), Math.max(1, next));
      const rect = viewport.getBoundingClientRect();
      const x = (cx === undefined ? rect.width / 2 : cx - rect.left) + viewport.scrollLeft;
      const y = (cy === undefined ? rect.height / 2 : cy - rect.top) + viewport.scrollTop;
      const ratio = next / scale;
      scale = next;
      sized.style.width = scale * 100 + "%";
      viewport.scrollLeft = x * ratio - (x - viewport.scrollLeft);
      viewport.scrollTop = y * ratio - (y - viewport.scrollTop);
      viewport.dataset.scale = scale.toFixed(2);
    }
    if (buttons && buttons.classList.contains("zoom")) {
      buttons.querySelectorAll("[data-zoom]").forEach(function (button) {
        button.addEventListener("click", function () {
          const how = button.dataset.zoom;
          zoomTo(how === "fit" ? 1 : how === "in" ? scale * 1.5 : scale / 1.5);
        });
      });
    }
    viewport.addEventListener("wheel", function (event) {
      if (!event.ctrlKey) return; // a plain wheel scrolls the page
      event.preventDefault();
      zoomTo(scale * Math.exp(-event.deltaY / 300), event.clientX, event.clientY);
    }, { passive: false });
    viewport.addEventListener("keydown", function (event) {
      if (event.key === "+" || event.key === "=") zoomTo(scale * 1.5);
      else if (event.key === "-") zoomTo(scale / 1.5);
      else if (event.key === "0") zoomTo(1);
    });
    const pointers = new Map();
    let pinch = null, drag = null;
    viewport.addEventListener("pointerdown", function (event) {
      pointers.set(event.pointerId, event);
      if (pointers.size === 2) {
        const [a, b] = Array.from(pointers.values());
        pinch = { distance: Math.hypot(a.clientX - b.clientX, a.clientY - b.clientY), scale: scale };
      } else if (event.pointerType === "mouse" && !(event.target.closest && event.target.closest(".place"))) {
        drag = { x: event.clientX, y: event.clientY, left: viewport.scrollLeft, top: viewport.scrollTop };
        viewport.setPointerCapture(event.pointerId);
      }
    });
    viewport.addEventListener("pointermove", function (event) {
      if (!pointers.has(event.pointerId)) return;
      pointers.set(event.pointerId, event);
      if (pinch && pointers.size === 2) {
        const [a, b] = Array.from(pointers.values());
        const distance = Math.hypot(a.clientX - b.clientX, a.clientY - b.clientY);
        zoomTo(pinch.scale * distance / Math.max(1, pinch.distance), (a.clientX + b.clientX) / 2, (a.clientY + b.clientY) / 2);
      } else if (drag) {
        viewport.scrollLeft = drag.left - (event.clientX - drag.x);
        viewport.scrollTop = drag.top - (event.clientY - drag.y);
      }
    });
    function release(event) {
      pointers.delete(event.pointerId);
      if (pointers.size < 2) pinch = null;
      drag = null;
    }
    viewport.addEventListener("pointerup", release);
    viewport.addEventListener("pointercancel", release);
    viewport.addEventListener("dblclick", function (event) { zoomTo(scale < maxScale() / 2 ? scale * 2 : 1, event.clientX, event.clientY); });
  }
  document.querySelectorAll(".viewport").forEach(function (viewport) {
    if (viewport.querySelector("img")) zoomable(viewport);
  });

  // ---- times in the reader's own clock --------------------------------------------------
  function localTimes(root) {
    root.querySelectorAll("time[datetime]").forEach(function (element) {
      const moment = new Date(element.getAttribute("datetime"));
      if (isNaN(moment)) return;
      const minutes = Math.round((Date.now() - moment) / 60000);
      const ago = minutes < 1 ? "just now" : minutes < 60 ? minutes + " min ago" : minutes < 2880 ? Math.round(minutes / 60) + " h ago" : Math.round(minutes / 1440) + " days ago";
      element.textContent = moment.toLocaleString() + " (" + ago + ")";
    });
  }

  // ---- live: the page follows the game ---------------------------------------------------
  let refreshing = null, again = false;
  function refresh() {
    if (!base) return Promise.resolve();
    if (refreshing) { again = true; return refreshing; }
    refreshing = fetch(base + "/live", { headers: { Accept: "text/html" }, cache: "no-store" })
      .then(function (response) { return response.ok ? response.text() : Promise.reject(response); })
      .then(function (html) {
        const live = document.getElementById("live");
        const holder = document.createElement("div");
        holder.innerHTML = html;
        // the decision goes before the board, the places over the map, the rest where it was
        const top = holder.querySelector(".live-top");
        const liveTop = document.getElementById("live-top");
        if (top && liveTop) { top.remove(); patchChildren(liveTop, top, ".live-top"); }
        const places = holder.querySelector("svg.places");
        if (places) places.remove();
        const stage = board && board.closest(".stage");
        if (stage) {
          const old = stage.querySelector("svg.places");
          if (!places) { if (old) old.remove(); } else if (!old) stage.appendChild(places); else if (old.outerHTML !== places.outerHTML) old.replaceWith(places);
        }
        const fresh = patch(live, holder);
        version = fresh.dataset.version;
        main.dataset.version = version;
        // both pictures of the board follow the new version (their addresses carry it)
        if (board && board.getAttribute("src") !== fresh.dataset.board) board.setAttribute("src", fresh.dataset.board);
        if (tables && fresh.dataset.tables && tables.getAttribute("src") !== fresh.dataset.tables) tables.setAttribute("src", fresh.dataset.tables);
        localTimes(live);
        watchDrawing(fresh);
      })
      .catch(function (response) {
        const status = response && response.status;
        if (status === 403 || status === 404 || status === 410) show("This link no longer works; reload the page to see why.", true);
        // too many requests, or the table busy: the new position is asked for again when the server says
        if (status === 429 || status === 503) setTimeout(refresh, (parseInt(response.headers.get("Retry-After") || "", 10) || 5) * 1000);
      })
      .finally(function () {
        refreshing = null;
        if (again) { again = false; refresh(); }
      });
    return refreshing;
  }
  function patch(live, holder) {
    // replace only the sections that changed: a choice under a finger stays where it is
    // while, say, the words of a picture drawn meanwhile come in
    const fresh = holder.querySelector(".live");
    const old = patchChildren(live, fresh || holder, ".live");
    if (fresh && old !== fresh) for (const name of Object.keys(fresh.dataset)) old.dataset[name] = fresh.dataset[name];
    return old;
  }
  function patchChildren(container, fresh, selector) {
    // `container`'s element `selector` takes `fresh`'s children, each changed one replaced
    const old = container.querySelector(selector);
    if (!old || old.children.length !== fresh.children.length) {
      container.replaceChildren(fresh);
      return fresh;
    }
    Array.from(fresh.children).forEach(function (child, index) {
      const current = old.children[index];
      if (current.outerHTML !== child.outerHTML) current.replaceWith(child.cloneNode(true));
    });
    return old;
  }
  function show(message, isError) {
    // the outcome of a move stays above the live part (a live update does not wash it away)
    if (!said) return;
    said.hidden = false;
    said.className = "said" + (isError ? " error" : "");
    said.setAttribute("aria-live", isError ? "assertive" : "polite");
    said.textContent = message;
  }
  function watchDrawing(fresh) {
    // a picture not drawn yet when the page was made: its words come once it is
    if (fresh.dataset.drawn === "0" && board) {
      const once = function () { board.removeEventListener("load", once); setTimeout(refresh, 50); };
      if (board.complete && board.naturalWidth) setTimeout(refresh, 300); else board.addEventListener("load", once);
    }
  }
  // The stream of versions is read with fetch, not EventSource: EventSource gives up for
  // good on a refusal (429, 503) and cannot read its Retry-After. Here a refused or dropped
  // stream is tried again when the server says (else after 2, 4, 8 ... 60 s, with a little
  // chance so many pages do not come back at once), the page is brought up to date then, and
  // the reader is told in words whether the page is live.
  const liveStatus = document.getElementById("live-status");
  let failures = 0;
  function tell(live, text) {
    if (!liveStatus) return;
    liveStatus.hidden = false;
    liveStatus.className = "live-status" + (live ? "" : " not-live");
    liveStatus.textContent = text;
  }
  function listen() {
    fetch(base + "/events", { headers: { Accept: "text/event-stream" }, cache: "no-store" })
      .then(function (response) {
        if (response.status === 403 || response.status === 404 || response.status === 410) {
          tell(false, "Not live: this link no longer works; reload the page to see why.");
          return null;
        }
        if (!response.ok || !response.body) {
          const busy = response.status === 429 || response.status === 503;
          return retry(parseInt(response.headers.get("Retry-After") || "", 10), busy ? "too many live pages are open" : "the table answered " + response.status);
        }
        if (failures) refresh(); // what happened while it was not live
        failures = 0;
        tell(true, "Live: this page follows the game.");
        return read(response.body.getReader());
      })
      .catch(function () { retry(NaN, "the table cannot be reached"); });
  }
  function read(reader) {
    const decoder = new TextDecoder();
    let buffer = "";
    function pump() {
      return reader.read().then(function (chunk) {
        if (chunk.done) return retry(NaN, "the connection to the table was lost");
        buffer += decoder.decode(chunk.value, { stream: true });
        let end;
        while ((end = buffer.indexOf("\n\n")) >= 0) {
          heard(buffer.slice(0, end));
          buffer = buffer.slice(end + 2);
        }
        return pump();
      });
    }
    return pump();
  }
  function heard(block) {
    let name = "message", data = "";
    block.split("\n").forEach(function (line) {
      if (line.startsWith("event:")) name = line.slice(6).trim();
      else if (line.startsWith("data:")) data += line.slice(5).trim();
    });
    if (name === "version" && data !== version) refresh();
  }
  function retry(seconds, why) {
    failures += 1;
    const wait = seconds > 0 ? seconds : Math.min(60, Math.pow(2, Math.min(failures, 6)));
    tell(false, "Not live: " + why + ". Trying again in " + wait + " s; reload the page to try at once.");
    setTimeout(listen, (wait + Math.random()) * 1000);
    return null;
  }
  if (base && window.fetch && window.ReadableStream && window.TextDecoder) listen();

  // ---- choices: made in place ----------------------------------------------------------
  document.addEventListener("submit", function (event) {
    const form = event.target;
    if (!base || !form.closest || !(form.closest("#live") || form.closest("#live-top"))) return;
    event.preventDefault();
    const data = new FormData(form);
    if (event.submitter && event.submitter.name) data.set(event.submitter.name, event.submitter.value);
    form.querySelectorAll("button").forEach(function (b) { b.disabled = true; });
    fetch(form.getAttribute("action"), { method: "POST", body: new URLSearchParams(data), headers: { Accept: "application/json" } })
      .then(function (response) { return response.json().catch(function () { return { ok: false, text: "The server answered " + response.status + "." }; }); })
      .then(function (answer) { show(answer.text, !answer.ok); return refresh(); })
      .catch(function () { show("The table cannot be reached; nothing was sent. Try again.", true); form.querySelectorAll("button").forEach(function (b) { b.disabled = false; }); });
  });

  // ---- the map tied to the choices (issue 52 §3) ----------------------------------------
  // A place over the map, tapped or focused, shows only the choices that name it (with a way
  // back to all); a choice hovered or focused lights its places on the map.
  function refersOf(button) { return (button.dataset.refers || "").split("|").filter(Boolean); }
  function choiceButtons() { return Array.from(document.querySelectorAll("#live-top .choices button[name=action]")); }
  function pick(place) {
    const id = place.dataset.place;
    document.querySelectorAll("svg.places .place").forEach(function (p) { p.setAttribute("aria-pressed", p === place ? "true" : "false"); });
    choiceButtons().forEach(function (b) { b.hidden = !refersOf(b).includes(id); });
    document.querySelectorAll("#live-top .choices fieldset").forEach(function (f) {
      f.hidden = !f.querySelector("button[name=action]:not([hidden])");
    });
    const said = document.querySelector("#live-top .place-said");
    const all = document.querySelector("#live-top .show-all");
    const count = choiceButtons().filter(function (b) { return !b.hidden; }).length;
    if (said) said.textContent = "Choices for " + place.getAttribute("aria-label") + ": " + count + ".";
    if (all) all.hidden = false;
  }
  function showAll() {
    document.querySelectorAll("svg.places .place").forEach(function (p) { p.setAttribute("aria-pressed", "false"); });
    document.querySelectorAll("#live-top .choices [hidden]").forEach(function (e) { e.hidden = false; });
    const said = document.querySelector("#live-top .place-said");
    const all = document.querySelector("#live-top .show-all");
    if (said) said.textContent = "";
    if (all) all.hidden = true;
  }
  function light(button, on) {
    refersOf(button).forEach(function (id) {
      document.querySelectorAll("svg.places .place").forEach(function (p) { if (p.dataset.place === id) p.classList.toggle("lit", on); });
    });
  }
  function placeOf(event) { return event.target.closest ? event.target.closest("svg.places .place") : null; }
  function choiceOf(event) { return event.target.closest ? event.target.closest("#live-top .choices button[data-refers]") : null; }
  document.addEventListener("click", function (event) {
    const place = placeOf(event);
    if (place) {
      pick(place);
      // on a phone the choices are above the map: bring the place's choices into view
      const filter = document.querySelector("#live-top .place-filter");
      if (filter && filter.scrollIntoView) filter.scrollIntoView({ block: "nearest" });
    } else if (event.target.closest && event.target.closest("#live-top .show-all")) showAll();
  });
  document.addEventListener("keydown", function (event) {
    const place = placeOf(event);
    if (place && (event.key === "Enter" || event.key === " ")) { event.preventDefault(); pick(place); }
  });
  document.addEventListener("focusin", function (event) {
    const place = placeOf(event);
    if (place) pick(place);
    const choice = choiceOf(event);
    if (choice) light(choice, true);
  });
  document.addEventListener("focusout", function (event) { const c = choiceOf(event); if (c) light(c, false); });
  document.addEventListener("mouseover", function (event) { const c = choiceOf(event); if (c) light(c, true); });
  document.addEventListener("mouseout", function (event) { const c = choiceOf(event); if (c) light(c, false); });

  localTimes(document);
  const first = document.querySelector("#live .live");
  if (first) watchDrawing(first);
})();
