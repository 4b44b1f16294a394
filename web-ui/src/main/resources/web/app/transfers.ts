// Transfers: every transfer under way in the active runs you may see, as its provider reports it now (the engine
// asks on the run's behalf: GET /runs/{id}/actions): a progress bar with bytes, files, rate and ETA. Below, the last
// transfers that finished in your recent runs, with their outcome, read from the runs' logs.
import { html, TemplateResult } from 'lit';
import { api } from './api';
import { App, statusBadge, when } from './shell';

interface ActionNow {
  state_name: string; action_url: string; action_id: string; status?: string; display_status?: string;
  details?: any; error?: string;
}
interface Transfer { run: any; action: ActionNow; }
/** A transfer's last status as its run logged it (ActionCompleted / ActionFailed: docs/api.md, the run log). */
interface Finished { run: any; state_name: string; time: string; status: string; details: any; }

/** How many finished transfers the page lists, and from how many recent runs it reads them. */
const FINISHED_SHOWN = 10;
const RECENT_RUNS = 20;

/** The page reads again this often: each read asks the providers, so not faster. */
const EVERY_MS = 2000;

/** A transfer provider's status (docs/transfer.md) carries bytes_total; other actions are left out. */
function isTransfer(a: ActionNow): boolean {
  return typeof a.details?.bytes_total === 'number';
}

export function bytes(n: number): string {
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
  let i = 0;
  while (n >= 1024 && i < units.length - 1) { n /= 1024; i++; }
  return `${n.toFixed(i === 0 ? 0 : 1)} ${units[i]}`;
}

export function duration(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  return h ? `${h} h ${m} min` : m ? `${m} min ${s % 60} s` : `${s} s`;
}

/** Bytes done: moved now and resumed from an earlier attempt. */
function doneOf(d: any): number {
  return (d.bytes_transferred ?? 0) + (d.bytes_resumed ?? 0);
}

/** One read of a transfer's progress by this page. */
export interface Sample { at: number; done: number; }

/** The rate is the bytes moved over the page's reads of the last this many milliseconds: steady, yet recent. */
const RATE_WINDOW_MS = 20_000;

/** The reads kept for the rate: those of the window, and always the two latest. */
export function keepRecent(samples: Sample[], now: number): Sample[] {
  const recent = samples.filter(s => now - s.at <= RATE_WINDOW_MS);
  return recent.length >= 2 ? recent : samples.slice(-2);
}

/** Bytes per second over the reads (undefined with fewer than two, or none apart in time). */
export function smoothedRate(samples: Sample[]): number | undefined {
  if (samples.length < 2) return undefined;
  const first = samples[0];
  const last = samples[samples.length - 1];
  const seconds = (last.at - first.at) / 1000;
  return seconds > 0 ? Math.max(0, (last.done - first.done) / seconds) : undefined;
}

/** Seconds left at this rate: the remaining bytes over the same rate the page shows, so the two always agree. */
export function timeLeft(total: number, done: number, rate: number | undefined): number | undefined {
  return rate && rate > 0 && total > 0 ? Math.max(0, total - done) / rate : undefined;
}

function progress(t: Transfer): TemplateResult {
  const d = t.action.details;
  const done = doneOf(d);
  const label = `${t.run.label || t.run.run_id}, ${t.action.state_name}`;
  // a provider reports 0 bytes in all until it has listed the source: not "0 B of 0 B (100 %)" but "not known yet"
  if (!(d.bytes_total > 0)) {
    return html`<progress aria-label="Transfer ${label}" aria-valuetext="size not known yet"></progress>
      <span class="bytes">${bytes(done)}, size not known yet</span>`;
  }
  const pct = Math.min(100, (100 * done) / d.bytes_total);
  return html`<progress max="100" .value=${pct} aria-label="Transfer ${label}" aria-valuetext="${pct.toFixed(0)} percent"></progress>
    <span class="bytes">${bytes(done)} of ${bytes(d.bytes_total)} (${pct.toFixed(0)}%)</span>
    ${when(typeof d.files_total === 'number', () => html`<span class="files">${d.files_transferred ?? 0} of ${d.files_total} files</span>`)}`;
}

/** The transfers a run's log says ended, newest first. */
async function finishedIn(run: any): Promise<Finished[]> {
  const log = await api<any>(`/runs/${run.run_id}/log?reverse_order=true&limit=100`).catch(() => ({ entries: [] }));
  return (log.entries as any[])
    .filter(e => (e.code === 'ActionCompleted' || e.code === 'ActionFailed') && typeof e.details?.details?.bytes_total === 'number')
    .map(e => ({ run, state_name: e.state_name ?? e.details.state_name, time: e.time,
      status: e.details.status ?? (e.code === 'ActionFailed' ? 'FAILED' : 'SUCCEEDED'), details: e.details.details }));
}

/** The last transfers that finished in the caller's most recent runs, newest first. */
async function recentlyFinished(): Promise<Finished[]> {
  const runs = (await api<any>(`/runs?limit=${RECENT_RUNS}`)).runs as any[];
  const found = (await Promise.all(runs.map(finishedIn))).flat();
  return found.sort((a, b) => b.time.localeCompare(a.time)).slice(0, FINISHED_SHOWN);
}

function finishedRow(f: Finished): TemplateResult {
  const moved = (f.details.bytes_transferred ?? 0) + (f.details.bytes_resumed ?? 0);
  return html`<tr data-status=${f.status}>
    <td><a href="#/runs/${f.run.run_id}">${f.run.label || f.run.run_id}</a></td><td>${f.state_name}</td>
    <td>${statusBadge(f.status)}</td>
    <td class="bytes">${bytes(moved)} of ${bytes(f.details.bytes_total)}</td>
    <td><time datetime=${f.time}>${new Date(f.time).toLocaleString()}</time></td></tr>`;
}

export class TransfersPage {
  private transfers: Transfer[] = [];
  private finished: Finished[] = [];
  private finishedRead = false;
  private error = '';
  private loaded = false;
  private timer?: number;
  private readonly samples = new Map<string, Sample[]>(); // by action id: this page's reads of its progress

  constructor(private readonly app: App) {}

  /** Notes each transfer's bytes done now; forgets the transfers no longer under way. */
  private sample(underWay: Transfer[]): void {
    const now = Date.now();
    for (const id of [...this.samples.keys()]) if (!underWay.some(t => t.action.action_id === id)) this.samples.delete(id);
    for (const t of underWay) {
      const before = this.samples.get(t.action.action_id) ?? [];
      this.samples.set(t.action.action_id, keepRecent([...before, { at: now, done: doneOf(t.action.details) }], now));
    }
  }

  /** The rate shown: over this page's recent reads; until it has two, the provider's own. */
  private rate(t: Transfer): number | undefined {
    const own = t.action.details.rate_bytes_per_second;
    return smoothedRate(this.samples.get(t.action.action_id) ?? []) ?? (typeof own === 'number' ? own : undefined);
  }

  async load(): Promise<void> {
    try {
      const runs = (await api<any>('/runs?filter_status=ACTIVE,INACTIVE&limit=100')).runs as any[];
      const found = await Promise.all(runs.map(async run => {
        const actions = (await api<any>(`/runs/${run.run_id}/actions`).catch(() => ({ actions: [] }))).actions as ActionNow[];
        return actions.filter(isTransfer).map(action => ({ run, action }));
      }));
      const underWay = found.flat();
      // the finished list changes only when a transfer stops being under way: read the logs then, not every turn
      if (!this.finishedRead || this.transfers.some(t => !underWay.some(u => u.action.action_id === t.action.action_id))) {
        this.finished = await recentlyFinished();
        this.finishedRead = true;
      }
      this.transfers = underWay;
      this.sample(underWay);
      this.error = '';
    } catch (e: any) {
      this.error = e.message;
    }
    this.loaded = true;
    this.app.refresh();
    this.timer ??= window.setInterval(() => this.load(), EVERY_MS);
  }

  dispose(): void {
    window.clearInterval(this.timer);
  }

  /** Rate and time left from one rate: the bytes moved over the last reads; time left is what remains at that rate. */
  private rateCells(t: Transfer): TemplateResult {
    const rate = this.rate(t);
    const left = timeLeft(t.action.details.bytes_total, doneOf(t.action.details), rate);
    return html`<td class="rate">${rate === undefined ? '' : `${bytes(rate)}/s`}</td>
      <td class="eta" data-seconds=${left === undefined ? '' : String(Math.round(left))}>${left === undefined ? '' : duration(left)}</td>`;
  }

  render(): TemplateResult {
    return html`<h1>Transfers</h1>
      <p>Transfers under way in the active runs you may see, as their providers report them now.</p>
      ${when(this.error, () => html`<p role="alert" class="error">${this.error}</p>`)}
      <table class="transfers"><caption class="sr-only">Transfers under way</caption>
        <thead><tr><th scope="col">Run</th><th scope="col">State</th><th scope="col">Status</th><th scope="col">Progress</th>
          <th scope="col">Rate</th><th scope="col">Time left</th></tr></thead>
        <tbody>${this.transfers.length === 0 ? html`<tr><td colspan="6">${this.loaded ? 'No transfers under way.' : 'Looking…'}</td></tr>` : ''}
          ${this.transfers.map(t => html`<tr data-action=${t.action.action_id} data-status=${t.action.status ?? ''}>
            <td><a href="#/runs/${t.run.run_id}">${t.run.label || t.run.run_id}</a></td><td>${t.action.state_name}</td>
            <td>${t.action.status ? statusBadge(t.action.status) : ''} ${t.action.display_status ?? ''}</td>
            <td class="progress">${progress(t)}</td>
            ${this.rateCells(t)}
          </tr>`)}</tbody></table>
      <h2 id="finished-heading">Finished transfers</h2>
      <table class="transfers finished" aria-labelledby="finished-heading">
        <thead><tr><th scope="col">Run</th><th scope="col">State</th><th scope="col">Outcome</th><th scope="col">Moved</th>
          <th scope="col">Ended</th></tr></thead>
        <tbody>${this.finished.length === 0
          ? html`<tr><td colspan="5">${this.finishedRead ? 'No finished transfers in your recent runs.' : 'Looking…'}</td></tr>`
          : this.finished.map(finishedRow)}</tbody></table>`;
  }
}
