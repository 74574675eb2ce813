// The console's Timeline page in headless Chromium (Debian's `chromium`, playwright-core)
// against one real `fermata serve`: a topic with messages due in every minute of the next
// day (--per-bucket each, 6,945 at full size: 10,000,800 pending), and the page opened on that day by minute, the
// most buckets one forecast answers (1,440). The figure: time from the navigation's start
// (a new tab: index.html, the script, the API call) to the chart drawn and the bucket table
// under it (the first 100) drawn, the next frame painted; the first tab loads the files cold,
// the rest from the cache.
// Beside it the page's own GetDueForecast call (Resource Timing), to tell the files and script
// (until it is asked), the API and the drawing apart. --trace FILE writes a Chromium trace of
// one more tab, for a profile. The tabs open once the node is at rest after the load.
import { type Browser, chromium } from 'playwright-core';
import { CHROMIUM_ARGS, findChromium } from '../../test-cluster/src/chromium.js';
import { type Cluster, startCluster } from '../../test-cluster/src/harness.js';
import { load1, processCpuMs, sleep, startedClusters } from './cluster.js';
import {
  emit,
  flag,
  option,
  percentile,
  printTargets,
  round,
  stringOption,
  summary,
  target,
} from './report.js';

const MINUTE = 60_000;
const BUCKETS = 1_440;
const TOPIC = 'bench-timeline';
const BATCH = 1_000;
/** What the page says on its console once drawn, before the figures. */
const DRAWN = 'fermata-bench-drawn';

/** What the page reports once drawn (said by the init script below). */
interface Drawn {
  drawnMs: number;
  /** The page's GetDueForecast call, when it was asked and when its answer had arrived (from the navigation's start). */
  forecastMs: number;
  askedMs: number;
  answeredMs: number;
}

export async function run(args: string[]): Promise<void> {
  const quick = flag(args, 'quick');
  // 6,945 a minute: 10,000,800 pending, the page over ten million messages.
  const perBucket = option(args, 'per-bucket', quick ? 2 : 6_945);
  const repeats = option(args, 'repeats', quick ? 4 : 21);
  // A Chromium performance trace (Perfetto, DevTools) of one more warm tab, not counted.
  const tracePath = stringOption(args, 'trace', '');
  const browserPath = findChromium();
  if (browserPath.missing) throw new Error(`console bench: ${browserPath.missing}`);
  const cluster: Cluster = await startCluster({ nodes: 1, env: { FERMATA_LOG_LEVEL: 'warn' }, keep: true });
  startedClusters.push({ cluster, keep: flag(args, 'keep') });
  let browser: Browser | undefined;
  try {
    const node = await cluster.leader();
    const fromMs = Math.ceil(Date.now() / MINUTE) * MINUTE + MINUTE;
    const pending = BUCKETS * perBucket;
    // The k-th message of each minute at k / perBucket of it.
    const dues = Array.from(
      { length: pending },
      (_, i) => fromMs + (i % BUCKETS) * MINUTE + Math.floor(i / BUCKETS) * Math.floor(MINUTE / perBucket),
    );
    for (let at = 0; at < pending; at += BATCH) {
      const messages = dues
        .slice(at, at + BATCH)
        .map((deliverAt, j) => ({ payload: `m${at + j}`, deliverAt }));
      const res = await fetch(`${node.httpUrl}/v1/topics/${TOPIC}/messages:batch`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ messages }),
      });
      if (res.status !== 200) throw new Error(`publish: ${res.status} ${await res.text()}`);
    }

    // The page is measured on a node at rest, as a user finds it, not in the compactions that
    // follow the bulk load just done: until the node spends under 5 % of a core over 2 s.
    const settleS = await settle(node.pid);

    browser = await chromium.launch({ executablePath: browserPath.path, args: [...CHROMIUM_ARGS] });
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    // Logged in (no token file: the empty token), and a watch for the page drawn: the bucket
    // table (drawn after the chart, at once) and the chart's canvas there, then the next frame
    // painted. It says so on the console: a wait that evaluated in the page (waitForFunction)
    // would inject Playwright's own script there, 20-40 ms of the page's main thread, often
    // inside the time measured. Browser code, so text.
    await context.addInitScript({
      content: `
        sessionStorage.setItem('fermata.console.token', '');
        new MutationObserver((_, observer) => {
          if (document.querySelectorAll('#buckets-table tbody tr').length === 0) return;
          if (!document.querySelector('.timeline canvas')) return;
          observer.disconnect();
          requestAnimationFrame(() => setTimeout(() => {
            const call = performance.getEntriesByType('resource').find((e) => e.name.includes('/GetDueForecast'));
            const drawn = { drawnMs: performance.now(), forecastMs: call ? call.duration : -1, askedMs: call ? call.startTime : -1, answeredMs: call ? call.responseEnd : -1 };
            console.debug('${DRAWN} ' + JSON.stringify(drawn));
          }, 0));
        }).observe(document, { childList: true, subtree: true });`,
    });
    const url = `${node.httpUrl}/console/#/timeline?topic=${TOPIC}&from=${fromMs}&to=${fromMs + BUCKETS * MINUTE}&bucket=${MINUTE}`;
    const runs: Drawn[] = [];
    for (let r = 0; r < repeats + (tracePath === '' ? 0 : 1); r++) {
      const page = await context.newPage();
      const tracing = r === repeats;
      if (tracing) await browser.startTracing(page, { path: tracePath, screenshots: false });
      const said = page.waitForEvent('console', {
        predicate: (m) => m.text().startsWith(`${DRAWN} `),
        timeout: 60_000,
      });
      await page.goto(url);
      const drawn = JSON.parse((await said).text().slice(DRAWN.length + 1)) as Drawn;
      if (tracing) await browser.stopTracing();
      else runs.push(drawn);
      const shown = `${await page.locator('#forecast-summary').textContent()} ${await page.locator('#buckets-hint').textContent()}`;
      if (!shown.includes(`${pending} of ${pending} pending`) || !shown.includes(`of ${BUCKETS} buckets`)) {
        throw new Error(`the page shows "${shown}", not ${pending} pending in ${BUCKETS} buckets`);
      }
      await page.close();
    }
    const warm = runs.slice(1);
    const sorted = (xs: number[]) => [...xs].sort((a, b) => a - b);
    const drawn = sorted(warm.map((d) => d.drawnMs));
    const forecast = sorted(warm.map((d) => d.forecastMs));
    const asked = sorted(warm.map((d) => d.askedMs));
    const answered = sorted(warm.map((d) => d.answeredMs));
    const drawing = sorted(warm.map((d) => d.drawnMs - d.answeredMs));
    const record = {
      scenario: 'console',
      quick,
      page: 'timeline',
      buckets: BUCKETS,
      pending,
      // Seconds the node took to come to rest after the load, before the first tab.
      settle_s: settleS,
      repeats: warm.length,
      cold_drawn_ms: round(runs[0]!.drawnMs),
      drawn_ms: { p50: round(percentile(drawn, 50)), max: round(drawn[drawn.length - 1]!) },
      forecast_call_ms: { p50: round(percentile(forecast, 50)), max: round(forecast[forecast.length - 1]!) },
      // From the navigation's start to the forecast asked (files and script) and answered in the
      // page, then from there to drawn.
      asked_p50_ms: round(percentile(asked, 50)),
      answered_p50_ms: round(percentile(answered, 50)),
      drawing_p50_ms: round(percentile(drawing, 50)),
      load_avg_1m: load1(),
      targets: [
        target(
          'timeline_drawn_p50_ms',
          round(percentile(drawn, 50)),
          '<=',
          500,
          !quick && perBucket >= 6_945,
        ),
      ],
    };
    emit(record);
    summary(
      `console timeline: ${BUCKETS} buckets, ${pending} pending: navigation to chart drawn p50 ${record.drawn_ms.p50} ms, max ${record.drawn_ms.max} ms (cold ${record.cold_drawn_ms} ms); its GetDueForecast call asked at ${record.asked_p50_ms} ms, p50 ${record.forecast_call_ms.p50} ms, answered at ${record.answered_p50_ms} ms, then drawn in ${record.drawing_p50_ms} ms (load ${record.load_avg_1m})`,
    );
    printTargets('console', record.targets);
  } finally {
    await browser?.close();
    await cluster.stop();
  }
}

/** Waits until the process spends under 5 % of a core over 2 s (at most 10 minutes); the seconds waited. */
async function settle(pid: number | undefined): Promise<number> {
  const start = Date.now();
  let before = pid === undefined ? undefined : processCpuMs(pid);
  while (before && Date.now() - start < 600_000) {
    await sleep(2_000);
    const now = processCpuMs(pid!);
    if (!now || now.own - before.own < 100) break;
    before = now;
  }
  return round((Date.now() - start) / 1000, 1);
}
