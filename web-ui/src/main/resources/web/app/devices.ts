// Edge devices and clusters: the placement planner's sites (online or not, queue, loaded models, GPUs) with each
// gateway's GPU utilisation and memory over its recent heartbeats, and the training jobs' placements with their
// preempt/move history. Read through the engine (/ops/planner/...), which passes the user's token on.
import { html, TemplateResult } from 'lit';
import { api, ApiError } from './api';
import { ChartSpec } from './charts';
import './charts'; // defines <continuum-chart>
import { App, when } from './shell';

interface Gpu { index: number; model: string; utilizationPercent: number; memoryUsedMb: number; memoryTotalMb: number; }
interface Sample { at: string; gpus: Gpu[]; }
interface Site {
  name: string; kind: string; online: boolean; queuedTasks: number; models: string[]; serves: string[];
  nodes: number; gpus: number; gpuModel: string; gpuSamples: Sample[];
}
interface Decision { seq: number; id: string; runId?: string; kind: string; status: string; site?: string; at: string; cause: string; decision: any; }

/** The page reads again this often; the planner keeps the samples (a bounded ring per gateway). */
const EVERY_MS = 5000;

function gpuCharts(site: Site): ChartSpec[] {
  const indexes = [...new Set(site.gpuSamples.flatMap(s => s.gpus.map(g => g.index)))];
  const line = (value: (g: Gpu) => number) => indexes.map(i => ({
    label: `GPU ${i}`,
    points: site.gpuSamples.flatMap(s => s.gpus.filter(g => g.index === i).map(g => [Date.parse(s.at) / 1000, value(g)])),
  }));
  return [
    { title: `${site.name}: GPU utilisation`, x: 'time', y: 'busy (%)', yRange: [0, 100], lines: line(g => g.utilizationPercent) },
    { title: `${site.name}: GPU memory used`, x: 'time', y: 'MiB', lines: line(g => g.memoryUsedMb) },
  ];
}

function latest(site: Site): string {
  const last = site.gpuSamples[site.gpuSamples.length - 1];
  return last ? last.gpus.map(g => `GPU ${g.index}: ${g.utilizationPercent}% busy, ${g.memoryUsedMb} of ${g.memoryTotalMb} MiB`).join('; ') : '';
}

/** A decision in words: where it put the job and why (the planner's first reason). */
function said(d: Decision): string {
  // placements give reasons[]; a preemption or a move (the training provider's) gives one reason
  const reason = d.decision?.reasons?.[0] ?? d.decision?.reason;
  return `${d.status}${d.site ? ` on ${d.site}` : ''}${reason ? ` — ${reason}` : ''}`;
}

export class DevicesPage {
  private sites: Site[] = [];
  private jobs = new Map<string, Decision[]>();
  private error = '';
  private notConfigured = '';
  private timer?: number;

  constructor(private readonly app: App) {}

  async load(): Promise<void> {
    const since = new Date(Date.now() - 24 * 3600_000).toISOString();
    try {
      const [inventory, log] = await Promise.all([api<any>('/ops/planner/inventory'),
        api<any>(`/ops/planner/placements?kind=training&limit=1000&from=${encodeURIComponent(since)}`)]);
      this.sites = inventory.sites;
      this.jobs = new Map();
      (log.placements as Decision[]).forEach(d => this.jobs.set(d.id, [...(this.jobs.get(d.id) ?? []), d]));
      this.error = '';
    } catch (e: any) {
      if (e instanceof ApiError && e.status === 503) this.notConfigured = e.detail;
      else this.error = e.message;
    }
    this.app.refresh();
    if (!this.notConfigured) this.timer ??= window.setInterval(() => this.load(), EVERY_MS);
  }

  dispose(): void {
    window.clearInterval(this.timer);
  }

  render(): TemplateResult {
    if (this.notConfigured) {
      return html`<h1>Edge devices and clusters</h1><p role="status" class="notice" id="not-configured">${this.notConfigured}
        Set it to the planner's address to see devices, clusters and training jobs here.</p>`;
    }
    const withGpus = this.sites.filter(s => s.gpuSamples?.length);
    return html`<h1>Edge devices and clusters</h1>
      ${when(this.error, () => html`<p role="alert" class="error">${this.error}</p>`)}
      <div class="table-wrap" tabindex="0" role="region" aria-label="Sites"><table class="sites"><caption class="sr-only">Sites the planner knows</caption>
        <thead><tr><th scope="col">Site</th><th scope="col">Kind</th><th scope="col">State</th><th scope="col">Queue</th>
          <th scope="col">Loaded models</th><th scope="col">GPUs</th><th scope="col">Now</th></tr></thead>
        <tbody>${this.sites.length === 0 ? html`<tr><td colspan="7">The planner knows no sites yet.</td></tr>` : ''}
          ${this.sites.map(s => html`<tr data-site=${s.name} data-online=${String(s.online)}>
            <th scope="row">${s.name}</th><td>${s.kind} (${s.serves.join(', ')})</td>
            <td><span class="badge ${s.online ? 'status-succeeded' : 'status-failed'}">${s.online ? 'online' : 'offline'}</span></td>
            <td>${s.queuedTasks}</td><td>${s.models.length ? s.models.join(', ') : 'any, on demand'}</td>
            <td>${s.gpus}${s.gpuModel ? ` × ${s.gpuModel}` : ''}</td><td>${latest(s)}</td></tr>`)}</tbody></table></div>
      ${when(withGpus.length, () => html`<h2>GPUs over the recent heartbeats</h2>
        <div class="charts">${withGpus.flatMap(gpuCharts).map(c => html`<figure><figcaption>${c.title}</figcaption>
          <continuum-chart .spec=${c}></continuum-chart></figure>`)}</div>`)}
      <h2>Training jobs (last 24 hours)</h2>
      <div class="table-wrap" tabindex="0" role="region" aria-label="Training jobs"><table class="training"><caption class="sr-only">Training jobs and what the planner decided about them</caption>
        <thead><tr><th scope="col">Job</th><th scope="col">Now</th><th scope="col">History</th></tr></thead>
        <tbody>${this.jobs.size === 0 ? html`<tr><td colspan="3">No training jobs.</td></tr>` : ''}
          ${[...this.jobs.entries()].map(([id, ds]) => html`<tr data-job=${id}>
            <th scope="row">${ds[0].runId ? html`<a href="#/runs/${ds[0].runId}">${id}</a>` : id}</th>
            <td>${ds[ds.length - 1].status}${ds[ds.length - 1].site ? ` on ${ds[ds.length - 1].site}` : ''}</td>
            <td><ol class="moves">${ds.map(d => html`<li data-status=${d.status}>${new Date(d.at).toLocaleString()}: ${said(d)}</li>`)}</ol></td>
          </tr>`)}</tbody></table></div>`;
  }
}
