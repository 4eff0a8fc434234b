// A stack's page: its path through the state machine, the operations it
// accepts, its resources and events (live), the timeline and plan of its
// operation, and the loop's controls. Everything comes from this server:
// JSON and SVG from /view/api and /view/svg, events from the stream.
import { getJSON, getText, postJSON, loadStatuses, category, el, statusChip, clock, live, debounce } from './common.js';
import { VList } from './vlist.js';

const name = new URLSearchParams(location.search).get('name') || '';
const q = 'name=' + encodeURIComponent(name);
const $ = (id) => document.getElementById(id);
const STACK_TYPE = 'AWS::CloudFormation::Stack';

const state = {
  stackId: '',
  status: '',
  inMotion: false,
  loop: null,
  seen: new Set(),        // event ids shown
  pending: null,          // events that came while the snapshot loaded
  nextToken: '',
  loadingMore: false,
  resources: new Map(),   // logical id → resource row
  eventCount: 0,
};

const isStackEvent = (e) => e.ResourceType === STACK_TYPE && e.PhysicalResourceId === e.StackId;

// --- the lists

const events = new VList($('events'), 24, (e) =>
  el('div', { 'data-event': e.EventId, 'data-status': e.ResourceStatus, 'data-logical-id': e.LogicalResourceId },
    el('span', { class: 'time', text: clock(e.Timestamp) }),
    el('span', { class: 'lid', text: e.LogicalResourceId, title: e.LogicalResourceId }),
    el('span', { class: 'type', text: e.ResourceType, title: e.ResourceType }),
    el('span', { class: 'st' }, statusChip(e.ResourceStatus)),
    el('span', { class: 'reason', text: e.ResourceStatusReason || '', title: e.ResourceStatusReason || '' })),
  () => loadMore());

const resources = new VList($('resources'), 26, (r) =>
  el('div', { 'data-resource': r.LogicalResourceId, 'data-status': r.ResourceStatus },
    el('span', { class: 'lid', text: r.LogicalResourceId, title: r.LogicalResourceId }),
    el('span', { class: 'type', text: r.ResourceType, title: r.ResourceType }),
    el('span', { class: 'st' }, statusChip(r.ResourceStatus)),
    el('span', { class: 'cells', title: (r.PathLength > r.Path.length ? `… ${r.PathLength - r.Path.length} earlier, then ` : '') + r.Path.join(' → ') },
      ...r.Path.map((s) => el('span', { class: 'cell ' + category(s), 'data-status': s }))),
    el('span', { class: 'phys', text: r.PhysicalResourceId || '', title: r.PhysicalResourceId || '' }),
    el('span', { class: 'reason', text: r.ResourceStatusReason || '', title: r.ResourceStatusReason || '' })));

function countEvents() {
  $('ev-count').textContent = `(${events.items.length}${state.nextToken ? '+' : ''}, newest first)`;
  document.body.dataset.events = String(state.eventCount);
}

async function loadMore() {
  if (!state.nextToken || state.loadingMore) return;
  state.loadingMore = true;
  try {
    const page = await getJSON(`/view/api/events?${q}&pages=5&NextToken=${encodeURIComponent(state.nextToken)}`);
    const older = page.StackEvents.filter((e) => !state.seen.has(e.EventId));
    older.forEach((e) => state.seen.add(e.EventId));
    state.nextToken = page.NextToken || '';
    events.append(older);
    countEvents();
  } catch (err) { showError(err); } finally { state.loadingMore = false; }
}

// --- the snapshot: everything read again (on hello, and when events were lost)

async function loadAll() {
  state.pending = [];
  const [stack, res, page] = await Promise.all([
    getJSON('/view/api/stack?' + q),
    getJSON('/view/api/resources?' + q),
    getJSON('/view/api/events?' + q + '&pages=2'),
  ]);
  state.stackId = stack.Stack.StackId;
  showStack(stack);
  state.resources = new Map(res.StackResourceSummaries.map((r) => [r.LogicalResourceId, r]));
  resources.set(res.StackResourceSummaries);
  $('res-count').textContent = `(${res.StackResourceSummaries.length})`;
  state.seen = new Set(page.StackEvents.map((e) => e.EventId));
  state.nextToken = page.NextToken || '';
  state.eventCount = page.StackEvents.length;
  events.set(page.StackEvents);
  countEvents();
  const pending = state.pending;
  state.pending = null;
  addEvents(pending);
  await Promise.all([showMachine(), showOperation(), showGantt(), showPlan()]);
  if (document.body.dataset.ready !== '1') performance.mark('stacksim-ready');
  document.body.dataset.ready = '1';
}

function showStack(s) {
  const st = s.Stack;
  state.status = st.StackStatus;
  state.inMotion = st.StackStatus.endsWith('_IN_PROGRESS');
  document.title = `stacksim — ${st.StackName} ${st.StackStatus}`;
  $('stack-name').textContent = st.StackName;
  $('stack-status').replaceChildren(statusChip(st.StackStatus));
  $('stack-status').dataset.status = st.StackStatus;
  $('stack-reason').textContent = st.StackStatusReason || '';
  const path = s.Path;
  $('path-count').textContent = `(${path.length})`;
  const start = Math.max(0, path.length - 200);
  const items = path.slice(start).map((p, i) => el('li', {
    value: String(start + i + 1), 'data-status': p.ResourceStatus, class: start + i === path.length - 1 ? 'current' : '',
    title: p.ResourceStatusReason || '',
  }, statusChip(p.ResourceStatus), el('span', { class: 'when', text: clock(p.Timestamp) })));
  $('path').replaceChildren(...items);
  $('ops').replaceChildren(...s.Operations.map((o) => {
    const label = o.Operation + (o.ChangeSetType ? ` (${o.ChangeSetType})` : '');
    return el('li', {
      class: o.Allowed ? (o.NoOp ? 'allowed noop' : 'allowed') : 'refused', 'data-operation': o.Operation,
      'data-allowed': String(o.Allowed),
      title: o.Allowed ? (o.NoOp ? 'Accepted, and does nothing: ' + o.Message : 'Accepted now') : `${o.Code}: ${o.Message}`,
      text: label,
    });
  }));
  showLoop(s.Loop);
}

function showLoop(l) {
  state.loop = l;
  $('pace').textContent = l.Pace;
  $('now').textContent = clock(l.Now);
  $('held').textContent = l.Held ? 'held' : (l.Instant ? 'instant' : 'running');
  document.body.dataset.held = String(l.Held);
  $('hold').disabled = l.Held;
  $('release').disabled = !l.Held;
  const canStep = state.inMotion && (l.Held || l.Instant);
  $('step').disabled = !canStep;
  $('rest').disabled = !canStep;
  $('loop-msg').textContent = state.inMotion
    ? (canStep ? 'The stack is in motion: step it.' : 'The stack is in motion at pace ' + l.Pace + ': hold the loop to step it.')
    : 'The stack is at rest.';
}

async function showMachine() {
  $('machine').innerHTML = await getText('/view/svg/machine?' + q);
}

async function showGantt() {
  try {
    $('gantt').innerHTML = await getText('/view/svg/gantt?' + q);
  } catch (err) { $('gantt').replaceChildren(el('p', { class: 'muted', text: err.message })); }
}

async function showPlan() {
  try {
    const plan = await getJSON('/view/api/plan?' + q);
    if (!plan.Steps.length) {
      $('plan').replaceChildren(el('p', { class: 'muted', text: `${plan.Operation} ended and kept no plan (only an operation in motion, or one that may be continued, keeps its plan).` }));
      return;
    }
    $('plan').innerHTML = await getText('/view/svg/plan?' + q);
  } catch (err) { $('plan').replaceChildren(el('p', { class: 'muted', text: err.message })); }
}

async function showOperation() {
  let o;
  try {
    o = (await getJSON('/view/api/operation?' + q)).Operation;
  } catch (err) { $('operation').replaceChildren(el('p', { class: 'muted', text: err.message })); return; }
  const kv = el('dl', { class: 'kv' });
  const add = (k, v) => { kv.append(el('dt', { text: k }), el('dd', { text: v })); };
  add('Call', o.Operation);
  add('State', o.InMotion ? 'in motion' : 'at rest');
  if (o.Phase) add('Phase', o.Phase);
  add('Started', clock(o.StartTime));
  if (o.EndTime) add('Ended', clock(o.EndTime));
  add('Contract violations', String(o.ContractViolationCount));
  add('Faults fired', String((o.FaultsFired || []).length));
  const parts = [kv];
  if (o.ContractViolations && o.ContractViolations.length) {
    parts.push(el('ul', { class: 'findings', id: 'violations' }, ...o.ContractViolations.map((v) =>
      el('li', { text: JSON.stringify(v) }))));
  }
  if (o.FaultsFired && o.FaultsFired.length) {
    parts.push(el('ul', { class: 'findings', id: 'faults' }, ...o.FaultsFired.map((f) =>
      el('li', { 'data-fault': f.Fault, text: `${f.Fault}: ${f.Kind} on ${f.LogicalResourceId} (${f.ResourceType}) ${f.Action}, ${f.Phase}, attempt ${f.Attempt}` }))));
  }
  $('operation').classList.remove('muted');
  $('operation').replaceChildren(...parts);
}

// --- live

const refreshStack = debounce(async () => {
  try {
    showStack(await getJSON('/view/api/stack?' + q));
    await Promise.all([showMachine(), showOperation(), showPlan(), showGantt()]);
  } catch (err) { showError(err); }
}, 60, 500);
const refreshActivity = debounce(() => { showGantt(); showPlan(); }, 250, 1500);

function addEvents(evs) {
  if (!evs.length) return;
  const fresh = [];
  let stackChanged = false;
  for (const e of evs) {
    if (state.seen.has(e.EventId)) continue;
    state.seen.add(e.EventId);
    fresh.push(e);
    if (isStackEvent(e)) { stackChanged = true; continue; }
    let r = state.resources.get(e.LogicalResourceId);
    if (!r) {
      r = { LogicalResourceId: e.LogicalResourceId, ResourceType: e.ResourceType, Path: [], PathLength: 0 };
      state.resources.set(e.LogicalResourceId, r);
      resources.append([r]);
    }
    r.ResourceStatus = e.ResourceStatus;
    r.ResourceStatusReason = e.ResourceStatusReason || '';
    if (e.PhysicalResourceId) r.PhysicalResourceId = e.PhysicalResourceId;
    if (r.Path[r.Path.length - 1] !== e.ResourceStatus) {
      r.Path.push(e.ResourceStatus);
      r.PathLength++;
      if (r.Path.length > 24) r.Path.shift();
    }
  }
  if (!fresh.length) return;
  fresh.reverse(); // newest first
  state.eventCount += fresh.length;
  events.prepend(fresh);
  resources.schedule();
  $('res-count').textContent = `(${state.resources.size})`;
  countEvents();
  const last = fresh[0];
  document.body.dataset.lastEvent = `${last.LogicalResourceId} ${last.ResourceStatus}`;
  if (stackChanged) refreshStack(); else refreshActivity();
}

function showError(err) {
  $('error').hidden = false;
  $('error').textContent = String(err.message || err);
}

async function control(path, body) {
  $('loop-msg').textContent = '…';
  try {
    const out = await postJSON(path, body);
    if (out.Stack) {
      $('loop-msg').textContent = `${out.Events} event(s); ${out.Stack.StackName} is ${out.Stack.StackStatus}`;
      showLoop(out.Loop);
    } else showLoop(out);
  } catch (err) { $('loop-msg').textContent = err.message; }
}

$('hold').addEventListener('click', () => control('/view/api/loop/hold'));
$('release').addEventListener('click', () => control('/view/api/loop/release'));
$('step').addEventListener('click', () => control('/view/api/step?' + q, { Events: Math.max(1, parseInt($('step-k').value, 10) || 1) }));
$('rest').addEventListener('click', () => control('/view/api/step?' + q, { Events: 0 }));
$('fit').addEventListener('click', () => $('machine').classList.toggle('fit'));

if (!name) {
  showError('Give the stack as ?name=NAME: open / for the list of stacks.');
} else {
  loadStatuses().then(() => {
    live('/view/api/live?' + q, {
      onHello: () => loadAll().catch(showError),
      onEvents: (evs) => { if (state.pending) state.pending.push(...evs); else addEvents(evs); },
      onLoop: (l) => { if (state.loop) showLoop(l); },
      onLost: () => loadAll().catch(showError),
    });
  }).catch(showError);
}
