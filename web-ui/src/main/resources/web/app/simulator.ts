// Simulator: open a report the `simulate` command wrote (metrics.json, or metrics.csv and series.csv; docs/simulator.md)
// and compare its policies side by side: the scalar metrics in a table, JCT, utilisation and queue in plots.
// The files are read in the browser; nothing is sent to the engine.
import { html, TemplateResult } from 'lit';
import { ChartSpec, Line } from './charts';
import './charts'; // defines <continuum-chart>
import { App, when } from './shell';

/** One policy (or, for a --fill run, one placement) of a report. */
interface Result { name: string; scalars: Record<string, string | number>; series: Record<string, number[][]>; }

interface Report { files: string; x: string; results: Result[]; }

/** series.csv's x column: a replay's seconds since the trace started, a `--fill` run's arrived GPU demand (% of GPUs). */
const TIME = 't_s';
const ARRIVED = 'arrived_pct';

/**
 * metrics.json: an array of objects, scalars plus `series` {name: [[x, y], …]} and `jct_cdf` [[jct s, fraction], …];
 * a `--fill` run's objects (a `placement` each) hold `unallocated_gpus` and `dropped_by_resource` {resource: [[x, y], …]}
 * over arrived demand, named here as in its series.csv (`dropped_<resource>`).
 */
function fromJson(doc: unknown): { x: string; results: Result[] } {
  if (!Array.isArray(doc)) throw new Error('metrics.json should hold an array with one object per policy.');
  const results = doc.map((o: any, i) => {
    if (typeof o !== 'object' || o === null) throw new Error(`metrics.json item ${i} is not an object.`);
    const scalars: Record<string, string | number> = {};
    const series: Record<string, number[][]> = {};
    for (const [k, v] of Object.entries<any>(o)) {
      if (typeof v === 'number' || typeof v === 'string') scalars[k] = v;
      else if (k === 'series' && v && typeof v === 'object') Object.assign(series, v);
      else if (k === 'dropped_by_resource' && v && typeof v === 'object') {
        for (const [resource, points] of Object.entries<any>(v)) series[`dropped_${resource}`] = points;
      }
      else if (Array.isArray(v) && v.every(p => Array.isArray(p) && p.length === 2)) series[k] = v;
    }
    return { name: String(o.policy ?? o.placement ?? `#${i + 1}`), scalars, series };
  });
  const fill = doc.length > 0 && doc.every((o: any) => o.placement !== undefined && o.policy === undefined);
  return { x: fill ? ARRIVED : TIME, results };
}

function rows(text: string): string[][] {
  return text.trim().split(/\r?\n/).map(line => line.split(','));
}

/** metrics.csv (a row per policy) and series.csv (long form: policy|placement, series, x, value). */
function fromCsv(metrics: string | undefined, seriesCsv: string | undefined): { x: string; results: Result[] } {
  const byName = new Map<string, Result>();
  const result = (name: string) => byName.get(name) ?? byName.set(name, { name, scalars: {}, series: {} }).get(name)!;
  if (metrics) {
    const [head, ...body] = rows(metrics);
    body.forEach(r => {
      const res = result(r[0]);
      head.forEach((col, i) => { res.scalars[col] = r[i] === '' || isNaN(Number(r[i])) ? r[i] : Number(r[i]); });
    });
  }
  let x = TIME;
  if (seriesCsv) {
    const [head, ...body] = rows(seriesCsv);
    if (head.length !== 4) throw new Error('series.csv should have four columns: policy, series, x, value.');
    x = head[2];
    body.forEach(([name, series, px, value]) => (result(name).series[series] ??= []).push([Number(px), Number(value)]));
  }
  return { x, results: [...byName.values()] };
}

const TITLES: Record<string, { title: string; y: string; scale?: number; range?: [number, number] }> = {
  utilization: { title: 'GPU utilisation over time', y: 'GPUs busy (%)', scale: 100, range: [0, 100] },
  queue_length: { title: 'Queue length over time', y: 'jobs waiting' },
  jct_cdf: { title: 'Job completion time (CDF)', y: 'fraction of jobs', range: [0, 1] },
};

function charts(report: Report): ChartSpec[] {
  const names = [...new Set(report.results.flatMap(r => Object.keys(r.series)))];
  return names.map(name => {
    const known = TITLES[name];
    const timeAxis = name !== 'jct_cdf' && report.x === TIME;
    // seconds since the trace's start read better as hours; the CDF's x is a JCT in seconds, shown in hours too
    const xScale = timeAxis || name === 'jct_cdf' ? 1 / 3600 : 1;
    const lines: Line[] = report.results.map(r => ({
      label: r.name,
      points: (r.series[name] ?? []).map(([x, y]) => [x * xScale, y * (known?.scale ?? 1)]),
    }));
    return {
      title: known?.title ?? name.replaceAll('_', ' '), y: known?.y ?? name.replaceAll('_', ' '),
      x: name === 'jct_cdf' ? 'job completion time (h)' : timeAxis ? 'hours since the trace started'
        : report.x === ARRIVED ? 'arrived GPU demand (% of GPUs)' : report.x.replaceAll('_', ' '),
      lines, yRange: known?.range,
    };
  });
}

/**
 * One format for every number of a column, so they line up and compare: grouped thousands, integers without decimals,
 * otherwise as many decimals for all as give the column's largest value three significant digits (at most 4).
 */
function columnFormat(values: (string | number | undefined)[]): (v: string | number | undefined) => string {
  const numbers = values.filter((v): v is number => typeof v === 'number' && Number.isFinite(v));
  const largest = Math.max(0, ...numbers.map(Math.abs));
  const decimals = numbers.every(Number.isInteger) ? 0 : Math.min(4, Math.max(0, 2 - Math.floor(Math.log10(largest))));
  const format = new Intl.NumberFormat('en', { minimumFractionDigits: decimals, maximumFractionDigits: decimals });
  return v => v === undefined ? '' : typeof v === 'string' ? v : format.format(v);
}

export class SimulatorPage {
  private report?: Report;
  private error = '';

  constructor(private readonly app: App) {}

  async load(): Promise<void> {
    this.app.refresh();
  }

  dispose(): void {}

  private async open(input: HTMLInputElement): Promise<void> {
    const files = [...(input.files ?? [])];
    try {
      const text = async (name: string) => files.find(f => f.name.endsWith(name))?.text();
      const json = await text('.json');
      const parsed = json !== undefined
        ? fromJson(JSON.parse(json))
        : fromCsv(await text('metrics.csv'), await text('series.csv'));
      if (parsed.results.length === 0) throw new Error('Choose metrics.json, or metrics.csv and series.csv, from a simulator report.');
      this.report = { files: files.map(f => f.name).join(', '), ...parsed };
      this.error = '';
    } catch (e: any) {
      this.report = undefined;
      this.error = `Could not read the report: ${e.message}`;
    }
    this.app.refresh();
  }

  render(): TemplateResult {
    const r = this.report;
    const columns = r ? [...new Set(r.results.flatMap(x => Object.keys(x.scalars)))].filter(c => c !== 'policy' && c !== 'placement') : [];
    const formats = new Map(columns.map(c => [c, columnFormat(r!.results.map(x => x.scalars[c]))]));
    return html`<h1>Simulator</h1>
      <p>Open a report that <code>simulate --out DIR</code> wrote: <code>metrics.json</code>, or <code>metrics.csv</code>
        with <code>series.csv</code>. It is read here in the browser and sent nowhere.</p>
      <p><label>Report files <input id="report-files" type="file" multiple accept=".json,.csv"
        @change=${(e: Event) => this.open(e.target as HTMLInputElement)}></label></p>
      ${when(this.error, () => html`<p role="alert" class="error">${this.error}</p>`)}
      ${when(r, () => html`
        <h2>${r!.results.length} ${r!.x === TIME ? 'policies' : 'placements'} from ${r!.files}</h2>
        <div class="scroll" tabindex="0" role="region" aria-label="Metrics per policy"><table class="sim-metrics"><caption class="sr-only">Metrics per policy</caption>
          <thead><tr><th scope="col">${r!.x === TIME ? 'policy' : 'placement'}</th>${columns.map(c => html`<th scope="col">${c.replaceAll('_', ' ')}</th>`)}</tr></thead>
          <tbody>${r!.results.map(x => html`<tr data-policy=${x.name}><th scope="row">${x.name}</th>
            ${columns.map(c => html`<td>${formats.get(c)!(x.scalars[c])}</td>`)}</tr>`)}</tbody></table></div>
        <div class="charts">${charts(r!).map(c => html`<figure><figcaption>${c.title}</figcaption>
          <continuum-chart .spec=${c}></continuum-chart></figure>`)}</div>`)}`;
  }
}
