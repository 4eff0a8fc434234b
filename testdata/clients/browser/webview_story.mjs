// The web view in a real browser (cmd/stacksim TestServeWebViewInBrowser):
// a stack left in UPDATE_ROLLBACK_FAILED; its page marks that status
// current and the path that led there in order; a teacher holds the loop,
// calls ContinueUpdateRollback through the API and steps the stack event
// by event to UPDATE_ROLLBACK_COMPLETE, the events arriving on the page
// without a reload; the page asks for nothing outside the server.
import { launch, base, artefacts, call, check, attrs } from './lib.mjs';

const { browser, context, seen } = await launch();
const shots = [];
const shot = async (page, name, fullPage = true) => {
  const path = `${artefacts}/${name}.png`;
  await page.screenshot({ path, fullPage });
  shots.push(path);
};
const wantPath = ['CREATE_IN_PROGRESS', 'CREATE_COMPLETE', 'UPDATE_IN_PROGRESS', 'UPDATE_ROLLBACK_IN_PROGRESS', 'UPDATE_ROLLBACK_FAILED'];
try {
  const page = await context.newPage();
  // The list of stacks.
  await page.goto(base + '/');
  await page.waitForSelector('body[data-ready="1"]');
  check(await page.getAttribute('tr[data-stack="orders"]', 'data-status') === 'UPDATE_ROLLBACK_FAILED', 'the list shows orders UPDATE_ROLLBACK_FAILED');
  await shot(page, 'index');

  // The stack's page, from the list.
  await page.click('tr[data-stack="orders"] a');
  await page.waitForURL(/\/view\/stack\?name=orders/);
  await page.waitForSelector('body[data-ready="1"]');
  check(await page.getAttribute('#stack-status', 'data-status') === 'UPDATE_ROLLBACK_FAILED', 'the header says UPDATE_ROLLBACK_FAILED');
  const current = await attrs(page, 'svg.machine .node.current', 'data-status');
  check(current.length === 1 && current[0] === 'UPDATE_ROLLBACK_FAILED', `the diagram marks UPDATE_ROLLBACK_FAILED current (marks ${current})`);
  const path = await attrs(page, '#path li', 'data-status');
  check(JSON.stringify(path) === JSON.stringify(wantPath), `the path is ${wantPath.join(' → ')} (is ${path.join(' → ')})`);
  // Highlighted in order on the diagram: each status of the path is
  // visited, numbered with its place.
  for (const [i, s] of wantPath.entries()) {
    const node = await page.$(`svg.machine .node.visited[data-status="${s}"]`);
    check(node, `${s} is highlighted on the diagram`);
    const order = (await node.getAttribute('data-order')).split(',').map(Number);
    check(order.includes(i + 1), `${s} is numbered ${i + 1} (is ${order})`);
    check(await node.evaluate((n) => getComputedStyle(n.querySelector('rect')).strokeWidth !== '1.2px'), `${s} is drawn highlighted`);
  }
  const taken = await page.$$eval('svg.machine .arc.taken', (els) => els.map((e) => `${e.dataset.from}>${e.dataset.to}:${e.dataset.step}`));
  check(taken.length === wantPath.length, `the ${wantPath.length} transitions taken are highlighted (${taken})`);
  check(await page.getAttribute('#ops li[data-operation="ContinueUpdateRollback"]', 'data-allowed') === 'true', 'ContinueUpdateRollback is allowed');
  check(await page.getAttribute('#ops li[data-operation="UpdateStack"]', 'data-allowed') === 'false', 'UpdateStack is refused');
  check((await page.$$('#faults li')).length === 2, 'the two faults fired are listed');
  check((await page.$$('svg.gantt .bar.critical')).length >= 1, 'the gantt marks a critical path');
  check((await page.$$('svg.plan .step.failed')).length === 1, 'the plan shows the failed step');
  await shot(page, 'stack-update-rollback-failed');
  await shot(page, 'readme', false);

  // The teacher: hold the loop, continue the rollback through the API,
  // walk it event by event. No reload: a mark set now must still be there.
  await page.evaluate(() => { window.__sameDocument = 'yes'; });
  await page.click('#hold');
  await page.waitForSelector('body[data-held="true"]');
  const before = Number(await page.getAttribute('body', 'data-events'));
  await call('ContinueUpdateRollback', { StackName: 'orders' });
  await page.waitForSelector('#stack-status[data-status="UPDATE_ROLLBACK_IN_PROGRESS"]');
  await page.waitForSelector('#events .row[data-logical-id="orders"][data-status="UPDATE_ROLLBACK_IN_PROGRESS"]');
  const afterCall = Number(await page.getAttribute('body', 'data-events'));
  check(afterCall === before + 1, `the call's event arrived live (events ${before} → ${afterCall})`);
  await page.waitForFunction(() => !document.getElementById('step').disabled);
  await page.click('#step');
  await page.waitForFunction((n) => Number(document.body.dataset.events) > n, afterCall);
  const afterStep = Number(await page.getAttribute('body', 'data-events'));
  check(await page.getAttribute('#stack-status', 'data-status') === 'UPDATE_ROLLBACK_IN_PROGRESS', 'one step leaves the stack in motion');
  // The plan and the timeline follow: Config's rollback update is running.
  await page.waitForSelector('svg.plan .step.running[data-logical-id="Config"]');
  await page.waitForSelector('svg.gantt .bar.progress[data-logical-id="Config"]');
  await shot(page, 'stack-stepping');
  await page.click('#rest');
  await page.waitForSelector('#stack-status[data-status="UPDATE_ROLLBACK_COMPLETE"]');
  await page.waitForSelector('#events .row[data-logical-id="orders"][data-status="UPDATE_ROLLBACK_COMPLETE"]');
  await page.waitForSelector('svg.machine .node.current[data-status="UPDATE_ROLLBACK_COMPLETE"]');
  const end = await attrs(page, '#path li', 'data-status');
  const wantEnd = ['UPDATE_ROLLBACK_FAILED', 'UPDATE_ROLLBACK_IN_PROGRESS', 'UPDATE_ROLLBACK_COMPLETE_CLEANUP_IN_PROGRESS', 'UPDATE_ROLLBACK_COMPLETE'];
  check(JSON.stringify(end.slice(-4)) === JSON.stringify(wantEnd), `the path goes on ${wantEnd.join(' → ')} (ends ${end.slice(-4)})`);
  check(await page.evaluate(() => window.__sameDocument) === 'yes', 'the page was not reloaded');
  const total = Number(await page.getAttribute('body', 'data-events'));
  await page.click('#release');
  await page.waitForSelector('body[data-held="false"]');
  await shot(page, 'stack-update-rollback-complete');

  check(seen.outside.length === 0, `the page asked for nothing outside the server (asked ${seen.outside.join(', ')})`);
  check(seen.errors.length === 0, `no errors on the page (${seen.errors.join('; ')})`);
  console.log('webview_story.mjs: ok ' + JSON.stringify({
    requests: seen.requests.length, outside: seen.outside.length, events: { before, afterCall, afterStep, total }, screenshots: shots,
  }));
} finally {
  await browser.close();
}
