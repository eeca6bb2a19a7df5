// Shared by every page: JSON requests that turn a 4xx answer into the server's message, the
// error line, SVG helpers and server-sent event streams.
"use strict";

async function api(path, body) {
  const init = body === undefined ? {} : {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
  };
  const response = await fetch(path, init);
  const data = await response.json().catch(() => ({ error: `HTTP ${response.status}` }));
  if (!response.ok) throw new Error(data.error || `HTTP ${response.status}`);
  return data;
}

function showError(e) {
  document.getElementById("error").textContent = e ? String(e.message || e) : "";
}

function setStatus(text) {
  document.getElementById("status").textContent = text;
}

// Runs `work` (async), showing its error instead of throwing.
async function guarded(work) {
  try {
    showError(null);
    return await work();
  } catch (e) {
    showError(e);
  }
}

const SVG_NS = "http://www.w3.org/2000/svg";

function svg(tag, attrs, text) {
  const el = document.createElementNS(SVG_NS, tag);
  for (const [k, v] of Object.entries(attrs || {})) el.setAttribute(k, v);
  if (text !== undefined) el.textContent = text;
  return el;
}

function clear(el) {
  while (el.firstChild) el.removeChild(el.firstChild);
  return el;
}

// Opens a server-sent event stream; `handlers` maps event names to functions of the parsed
// data. A stream the server refuses (4xx) is fetched again to show its message.
function stream(url, handlers, onEnd) {
  const source = new EventSource(url);
  for (const [name, handle] of Object.entries(handlers)) {
    source.addEventListener(name, (ev) => handle(JSON.parse(ev.data)));
  }
  source.onerror = async () => {
    source.close();
    const answer = await fetch(url).catch(() => null);
    if (answer && !answer.ok) {
      const data = await answer.json().catch(() => ({}));
      showError(data.error || `HTTP ${answer.status}`);
    }
    if (onEnd) onEnd();
  };
  return source;
}

function byId(id) {
  return document.getElementById(id);
}

// Fills the select `id` with the bundled files of `path` ([{name, text}]), each option named
// and valued by its file name with its text kept, then chooses the first.
async function loadBundled(id, path) {
  const select = byId(id);
  for (const file of await api(path)) {
    const opt = document.createElement("option");
    opt.value = opt.textContent = file.name;
    opt.dataset.text = file.text;
    select.appendChild(opt);
  }
  select.onchange();
}
