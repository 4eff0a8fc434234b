// Shared by the pages: fetching from this server, the colours of
// statuses, the event stream, and small DOM helpers. Nothing here talks
// to any other host.

export async function getJSON(url) {
  const r = await fetch(url, { headers: { Accept: 'application/json' } });
  const body = await r.json().catch(() => ({}));
  if (!r.ok) throw new Error((body.Error && body.Error.Message) || `${url}: HTTP ${r.status}`);
  return body;
}

export async function getText(url) {
  const r = await fetch(url);
  if (!r.ok) {
    const body = await r.json().catch(() => ({}));
    throw new Error((body.Error && body.Error.Message) || `${url}: HTTP ${r.status}`);
  }
  return r.text();
}

export async function postJSON(url, data) {
  const r = await fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(data || {}) });
  const body = await r.json().catch(() => ({}));
  if (!r.ok) throw new Error((body.Error && body.Error.Message) || `${url}: HTTP ${r.status}`);
  return body;
}

let categories = null;

// loadStatuses reads the colour of every status from the server
// (webview/status.go is the one place that decides).
export async function loadStatuses() {
  const s = await getJSON('/view/api/statuses');
  categories = Object.assign({}, s.Resource, s.Stack);
}

export function category(status) {
  return (categories && categories[status]) || 'complete';
}

export function el(tag, attrs, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k === 'class') e.className = v;
    else if (k === 'text') e.textContent = v;
    else if (k.startsWith('data-')) e.setAttribute(k, v);
    else if (k === 'title') e.title = v;
    else e.setAttribute(k, v);
  }
  for (const c of children) if (c !== null && c !== undefined) e.append(c);
  return e;
}

export function statusChip(status) {
  return el('span', { class: 'status ' + category(status), text: status || '(none)' });
}

// clock writes a virtual time as the CLI does: 15:04:05.
export function clock(ts) {
  if (!ts) return '';
  return ts.slice(11, 19);
}

// live opens the event stream: onHello when subscribed (read the state
// then: nothing written afterwards is missed), onEvents with each batch,
// onLoop when the loop was held or released, onLost when events were
// dropped (read the state again). EventSource reconnects by itself; each
// reconnection says hello again.
export function live(url, h) {
  const es = new EventSource(url);
  const badge = document.getElementById('live');
  const set = (on, text) => { if (badge) { badge.className = 'live ' + (on ? 'on' : 'off'); badge.textContent = text; } };
  es.addEventListener('hello', (m) => { set(true, 'live'); h.onHello && h.onHello(JSON.parse(m.data)); });
  es.addEventListener('events', (m) => h.onEvents && h.onEvents(JSON.parse(m.data)));
  es.addEventListener('loop', (m) => h.onLoop && h.onLoop(JSON.parse(m.data)));
  es.addEventListener('lost', () => h.onLost && h.onLost());
  es.onerror = () => set(false, 'reconnecting…');
  return es;
}

// later runs fn once, delay ms after the last call (events come in
// bursts: the page reads once the burst is over, or every max ms while it
// goes on).
export function debounce(fn, delay, max) {
  let timer = 0, first = 0;
  return () => {
    const now = performance.now();
    if (!first) first = now;
    clearTimeout(timer);
    const wait = max && now - first + delay > max ? Math.max(0, max - (now - first)) : delay;
    timer = setTimeout(() => { first = 0; fn(); }, wait);
  };
}
