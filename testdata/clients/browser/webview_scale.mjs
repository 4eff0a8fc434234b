// The web view at 10,000 resources (make bench-webview): twenty stacks of
// 500 resources (CloudFormation's most for one stack) created while the
// list of stacks is open, then one stack's page opened, then that stack
// updated while its page is open. Prints the figures as JSON: the time to
// first paint and to the last event, the longest task on the page, the
// rows in the document, the server's memory as pages open and close.
import { readFileSync } from 'node:fs';
import { launch, base, artefacts, call, check } from './lib.mjs';

const STACKS = 20, RESOURCES = 500;
const pid = process.env.STACKSIM_PID;
const rss = () => {
  if (!pid) return null;
  const m = readFileSync(`/proc/${pid}/status`, 'utf8').match(/VmRSS:\s+(\d+) kB/);
  return m ? Math.round(Number(m[1]) / 1024) : null;
};
// 500 SSM parameters in compact YAML (under the 51,200 bytes of a
// TemplateBody), every value v<version>.
const template = (version) => {
  const lines = ['Resources:'];
  for (let i = 0; i < RESOURCES; i++) lines.push(`  P${String(i).padStart(3, '0')}: {Type: AWS::SSM::Parameter, Properties: {Type: String, Value: v${version}}}`);
  return lines.join('\n') + '\n';
};
const ms = (x) => Math.round(x);

const { browser, context, seen } = await launch();
const figures = { stacks: STACKS, resourcesPerStack: RESOURCES };
try {
  // Long tasks on every page, from its start.
  await context.addInitScript(() => {
    window.__long = [];
    new PerformanceObserver((l) => { for (const e of l.getEntries()) window.__long.push(e.duration); }).observe({ type: 'longtask', buffered: true });
  });
  const list = await context.newPage();
  await list.goto(base + '/');
  await list.waitForSelector('body[data-ready="1"]');
  figures.rssAtStartMB = rss();

  // Twenty creates through the API; the list follows them live.
  const body = template(1);
  const t0 = performance.now();
  let calls = 0;
  for (let i = 1; i <= STACKS; i++) {
    const c0 = performance.now();
    await call('CreateStack', { StackName: `s${String(i).padStart(2, '0')}`, TemplateBody: body });
    calls += performance.now() - c0;
  }
  const tCalls = performance.now();
  await list.waitForFunction((n) => document.querySelectorAll('tr[data-status="CREATE_COMPLETE"]').length === n, STACKS, { timeout: 120000 });
  const tList = performance.now();
  figures.create = {
    callsMs: ms(calls), allCallsMs: ms(tCalls - t0),
    listShowsLastMs: ms(tList - t0), listAfterLastCallMs: ms(tList - tCalls),
    longestTaskMs: ms(Math.max(0, ...(await list.evaluate(() => window.__long)))),
  };
  figures.rssAfterCreateMB = rss();
  await list.screenshot({ path: `${artefacts}/scale-list.png`, fullPage: true });

  // A 500-resource stack's page: first paint and everything shown.
  const page = await context.newPage();
  await page.goto(base + '/view/stack?name=s20');
  await page.waitForSelector('body[data-ready="1"]', { timeout: 120000 });
  const nav = await page.evaluate(() => ({
    fcp: (performance.getEntriesByName('first-contentful-paint')[0] || {}).startTime,
    ready: (performance.getEntriesByName('stacksim-ready')[0] || {}).startTime,
    events: Number(document.body.dataset.events),
    eventRows: document.querySelectorAll('#events .row').length,
    resourceRows: document.querySelectorAll('#resources .row').length,
    nodes: document.getElementsByTagName('*').length,
  }));
  figures.open = { firstContentfulPaintMs: ms(nav.fcp), allShownMs: ms(nav.ready), eventsLoaded: nav.events, eventRowsInDocument: nav.eventRows, resourceRowsInDocument: nav.resourceRows, elements: nav.nodes };
  check(nav.eventRows < 100 && nav.resourceRows < 100, `the lists are virtual (${nav.eventRows} event rows, ${nav.resourceRows} resource rows in the document)`);

  // The stack updated while its page is open: every event arrives.
  await page.evaluate(() => { window.__long = []; });
  const before = nav.events;
  const u0 = performance.now();
  await call('UpdateStack', { StackName: 's20', TemplateBody: template(2) });
  const u1 = performance.now();
  await page.waitForSelector('#stack-status[data-status="UPDATE_COMPLETE"]', { timeout: 120000 });
  await page.waitForFunction(() => document.body.dataset.lastEvent === 's20 UPDATE_COMPLETE', null, { timeout: 120000 });
  const u2 = performance.now();
  const after = Number(await page.getAttribute('body', 'data-events'));
  const longs = await page.evaluate(() => window.__long);
  figures.update = {
    callMs: ms(u1 - u0), lastEventShownMs: ms(u2 - u0), eventsArrived: after - before,
    longestTaskMs: ms(Math.max(0, ...longs)), longTasks: longs.length,
  };
  // Scrolling to the middle of the log draws at once.
  figures.scrollToMiddleMs = ms(await page.evaluate(async () => {
    const list = document.getElementById('events');
    const t = performance.now();
    list.scrollTop = list.scrollHeight / 2;
    await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
    return performance.now() - t;
  }));
  await page.screenshot({ path: `${artefacts}/scale-stack.png` });
  await page.close();

  // Pages opened and closed: the server keeps nothing of them.
  const streams = async () => (await (await fetch(base + '/view/api/loop')).json()).Streams;
  // Only the list's stream is left once the closed page's has ended.
  const settle = async (want) => {
    let n = await streams();
    for (let i = 0; i < 500 && n !== want; i++) {
      await new Promise((r) => setTimeout(r, 10));
      n = await streams();
    }
    return n;
  };
  const streamsBefore = await settle(1);
  const rssBefore = rss();
  for (let i = 0; i < 20; i++) {
    const p = await context.newPage();
    await p.goto(base + '/view/stack?name=s' + String(1 + (i % STACKS)).padStart(2, '0'));
    await p.waitForSelector('body[data-ready="1"]', { timeout: 120000 });
    await p.close();
  }
  const streamsAfter = await settle(1);
  figures.pages = { opened: 20, streamsBefore, streamsAfter, rssBeforeMB: rssBefore, rssAfterMB: rss() };
  check(streamsAfter === streamsBefore, `every closed page's stream ended (${streamsBefore} before, ${streamsAfter} after)`);
  check(seen.outside.length === 0, `nothing asked outside the server (${seen.outside})`);
  check(seen.errors.length === 0, `no errors on the pages (${seen.errors.join('; ')})`);
  console.log('webview_scale.mjs: ok ' + JSON.stringify(figures));
} finally {
  await browser.close();
}
