// The account's stacks (/), kept current by the event stream.
import { getJSON, loadStatuses, el, statusChip, live, debounce } from './common.js';

const body = document.getElementById('stacks');

async function load() {
  const out = await getJSON('/view/api/stacks');
  const rows = out.StackSummaries.map((s) => {
    const deleted = s.StackStatus === 'DELETE_COMPLETE';
    const ref = deleted ? s.StackId : s.StackName;
    const link = el('a', { href: '/view/stack?name=' + encodeURIComponent(ref), text: s.StackName });
    return el('tr', { 'data-stack': s.StackName, 'data-status': s.StackStatus },
      el('td', {}, link), el('td', {}, statusChip(s.StackStatus)),
      el('td', { class: 'muted', text: s.StackStatusReason || '' }),
      el('td', { text: (s.CreationTime || '').replace('T', ' ').replace('Z', '') }),
      el('td', { text: (s.LastUpdatedTime || '').replace('T', ' ').replace('Z', '') }),
      el('td', { class: 'muted', text: s.TemplateDescription || '' }));
  });
  if (!rows.length) rows.push(el('tr', {}, el('td', { colspan: '6', class: 'muted', text: 'No stacks yet.' })));
  body.replaceChildren(...rows);
  document.getElementById('count').textContent = `(${out.StackSummaries.length})`;
  const l = out.Loop;
  document.getElementById('loop-summary').textContent = `pace ${l.Pace}${l.Held ? ', loop held' : ''}`;
  if (document.body.dataset.ready !== '1') performance.mark('stacksim-ready');
  document.body.dataset.ready = '1';
}

const reload = debounce(() => load().catch(show), 100, 1000);

function show(err) {
  body.replaceChildren(el('tr', {}, el('td', { colspan: '6', class: 'error', text: String(err.message || err) })));
}

loadStatuses().then(() => {
  live('/view/api/live', {
    onHello: () => load().catch(show),
    onEvents: (evs) => { if (evs.some((e) => e.ResourceType === 'AWS::CloudFormation::Stack' && e.PhysicalResourceId === e.StackId)) reload(); },
    onLoop: () => reload(),
    onLost: () => reload(),
  });
}).catch(show);
