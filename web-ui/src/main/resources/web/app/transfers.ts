// Transfers: every transfer under way in the active runs you may see, as its provider reports it now (the engine
// asks on the run's behalf: GET /runs/{id}/actions): a progress bar with bytes, files, rate and ETA.
import { html, TemplateResult } from 'lit';
import { api } from './api';
import { App, statusBadge, when } from './shell';

interface ActionNow {
  state_name: string; action_url: string; action_id: string; status?: string; display_status?: string;
  details?: any; error?: string;
}
interface Transfer { run: any; action: ActionNow; }

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

function progress(t: Transfer): TemplateResult {
  const d = t.action.details;
  const done = d.bytes_transferred + (d.bytes_resumed ?? 0);
  const pct = d.bytes_total > 0 ? Math.min(100, (100 * done) / d.bytes_total) : 100;
  const label = `${t.run.label || t.run.run_id}, ${t.action.state_name}`;
  return html`<progress max="100" .value=${pct} aria-label="Transfer ${label}" aria-valuetext="${pct.toFixed(0)} percent"></progress>
    <span class="bytes">${bytes(done)} of ${bytes(d.bytes_total)} (${pct.toFixed(0)}%)</span>
    ${when(typeof d.files_total === 'number', () => html`<span class="files">${d.files_transferred ?? 0} of ${d.files_total} files</span>`)}`;
}

export class TransfersPage {
  private transfers: Transfer[] = [];
  private error = '';
  private loaded = false;
  private timer?: number;

  constructor(private readonly app: App) {}

  async load(): Promise<void> {
    try {
      const runs = (await api<any>('/runs?filter_status=ACTIVE,INACTIVE&limit=100')).runs as any[];
      const found = await Promise.all(runs.map(async run => {
        const actions = (await api<any>(`/runs/${run.run_id}/actions`).catch(() => ({ actions: [] }))).actions as ActionNow[];
        return actions.filter(isTransfer).map(action => ({ run, action }));
      }));
      this.transfers = found.flat();
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
            <td class="rate">${typeof t.action.details.rate_bytes_per_second === 'number' ? `${bytes(t.action.details.rate_bytes_per_second)}/s` : ''}</td>
            <td class="eta">${typeof t.action.details.eta_seconds === 'number' ? duration(t.action.details.eta_seconds) : ''}</td>
          </tr>`)}</tbody></table>`;
  }
}
