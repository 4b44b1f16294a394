// Runs: the engine's paged, filtered run list; the filters live in the URL (#/runs?status=…), so a reload or a
// shared link shows the same runs. The first page follows the engine's live stream.
import { html, TemplateResult } from 'lit';
import { api, live } from './api';
import { App, canManage, duration, localTime, navigate, runVisibilityNote, statusBadge, when } from './shell';

const STATUSES = ['ACTIVE', 'INACTIVE', 'SUCCEEDED', 'FAILED', 'ENDED'];
const PAGE = 25;

export interface RunFilters {
  status: string[]; flow: string; label: string; tag: string; owner: string; from: string; to: string;
}

export function filtersOf(params: URLSearchParams): RunFilters {
  return {
    status: (params.get('status') ?? '').split(',').filter(Boolean), flow: params.get('flow') ?? '',
    label: params.get('label') ?? '', tag: params.get('tag') ?? '', owner: params.get('owner') ?? '',
    from: params.get('from') ?? '', to: params.get('to') ?? '',
  };
}

function urlOf(f: RunFilters): string {
  const p = new URLSearchParams();
  if (f.status.length) p.set('status', f.status.join(','));
  (['flow', 'label', 'tag', 'owner', 'from', 'to'] as const).forEach(k => f[k] && p.set(k, f[k]));
  const q = p.toString();
  return '#/runs' + (q ? '?' + q : '');
}

/** The engine's query (Globus' filter_* parameters) for these filters. */
export function apiQuery(f: RunFilters, limit = PAGE): URLSearchParams {
  const q = new URLSearchParams({ limit: String(limit) });
  if (f.status.length) q.set('filter_status', f.status.join(','));
  if (f.flow) q.set('filter_flow_title', f.flow);
  if (f.label) q.set('filter_label', f.label);
  if (f.tag) q.set('filter_tags', f.tag);
  if (f.owner) q.set('filter_run_owner', f.owner);
  const utc = (v: string) => (v ? new Date(v).toISOString() : '');
  if (f.from || f.to) q.set('filter_start_time', `${utc(f.from)},${utc(f.to)}`);
  return q;
}

interface RunPage { runs: any[]; has_next_page: boolean; marker?: string; }

export class RunsPage {
  private page: RunPage = { runs: [], has_next_page: false };
  private markers: string[] = [];
  private selected = new Set<string>();
  private stop?: () => void;
  private error = '';
  private bulk?: { count: number; ids: string[] } | 'counting';
  private done = '';
  private marked = false;

  constructor(private readonly app: App, private readonly filters: RunFilters) {}

  async load(marker?: string): Promise<void> {
    this.stop?.();
    const query = marker ? new URLSearchParams({ marker }) : apiQuery(this.filters);
    try {
      this.page = await api<RunPage>(`/runs?${query}`);
      this.error = '';
    } catch (e: any) {
      this.error = e.message;
    }
    if (!this.marked) {
      this.marked = true; // the benchmark reads when the first page of runs is on screen
      requestAnimationFrame(() => setTimeout(() => performance.mark('continuum:runs-rendered')));
    }
    if (!marker) this.stop = live<RunPage>(`/live/runs?${apiQuery(this.filters)}`, page => {
      this.page = page;
      this.app.refresh();
    });
    this.app.refresh();
  }

  dispose(): void {
    this.stop?.();
  }

  private apply(form: HTMLFormElement): void {
    const data = new FormData(form);
    navigate(urlOf({
      status: data.getAll('status').map(String), flow: String(data.get('flow') ?? '').trim(),
      label: String(data.get('label') ?? '').trim(), tag: String(data.get('tag') ?? '').trim(),
      owner: String(data.get('owner') ?? '').trim(), from: String(data.get('from') ?? ''), to: String(data.get('to') ?? ''),
    }));
  }

  /** Counts what a bulk cancel would touch: every run matching the filter that is still going and that you manage. */
  private async prepareBulk(): Promise<void> {
    this.bulk = 'counting';
    this.app.refresh();
    const ids: string[] = [];
    if (this.selected.size) {
      ids.push(...this.selected);
    } else {
      const f = { ...this.filters, status: (this.filters.status.length ? this.filters.status : ['ACTIVE', 'INACTIVE'])
        .filter(s => s === 'ACTIVE' || s === 'INACTIVE') };
      let query: URLSearchParams | null = f.status.length ? apiQuery(f, 1000) : null;
      while (query) {
        const page = await api<RunPage>(`/runs?${query}`);
        page.runs.filter(canManage).forEach(r => ids.push(r.run_id));
        query = page.has_next_page && page.marker ? new URLSearchParams({ marker: page.marker }) : null;
      }
    }
    this.bulk = { count: ids.length, ids };
    this.app.refresh();
    (document.getElementById('bulk-dialog') as HTMLDialogElement | null)?.showModal();
  }

  private async cancelAll(ids: string[]): Promise<void> {
    (document.getElementById('bulk-dialog') as HTMLDialogElement | null)?.close();
    let cancelled = 0;
    const failed: string[] = [];
    for (const id of ids) {
      try {
        await api(`/runs/${id}/cancel`, 'POST', {});
        cancelled++;
      } catch (e: any) {
        failed.push(`${id}: ${e.message}`);
      }
    }
    this.bulk = undefined;
    this.selected.clear();
    this.done = `Cancelled ${cancelled} run(s).` + (failed.length ? ` ${failed.length} failed: ${failed.join('; ')}` : '');
    await this.load();
  }

  render(): TemplateResult {
    const f = this.filters;
    const manageable = this.page.runs.filter(canManage);
    const goingOn = manageable;
    return html`
      <h1>Runs</h1>
      ${runVisibilityNote(this.app)}
      <form class="filters" aria-label="Run filters" @submit=${(e: Event) => { e.preventDefault(); this.apply(e.target as HTMLFormElement); }}>
        <fieldset><legend>Status</legend>
          ${STATUSES.map(s => html`<label><input type="checkbox" name="status" value=${s} .checked=${f.status.includes(s)}> ${s}</label>`)}
        </fieldset>
        <label>Flow <input name="flow" .value=${f.flow} placeholder="title contains"></label>
        <label>Label <input name="label" .value=${f.label}></label>
        <label>Tag <input name="tag" .value=${f.tag}></label>
        <label>Owner <input name="owner" .value=${f.owner} placeholder="user name"></label>
        <label>Started from <input type="datetime-local" name="from" .value=${f.from}></label>
        <label>to <input type="datetime-local" name="to" .value=${f.to}></label>
        <button type="submit">Apply filters</button>
        <a href="#/runs">Clear</a>
      </form>
      ${when(this.error, () => html`<p role="alert" class="error">${this.error}</p>`)}
      ${when(this.done, () => html`<p role="status" class="notice">${this.done}</p>`)}
      ${when(goingOn.length > 0 || this.selected.size > 0, () => html`<div class="bulk">
        <button id="bulk-cancel" class="danger" ?disabled=${this.bulk === 'counting'} @click=${() => this.prepareBulk()}>
          ${this.selected.size ? `Cancel ${this.selected.size} selected…` : 'Cancel all matching…'}</button></div>`)}
      <dialog id="bulk-dialog" aria-labelledby="bulk-title">
        ${this.bulk && this.bulk !== 'counting' ? html`
          <h2 id="bulk-title">Cancel ${this.bulk.count} run(s)?</h2>
          <p>${this.bulk.count} active or inactive run(s) ${this.selected.size ? 'selected' : 'matching these filters'} that you may manage will be cancelled. This cannot be undone.</p>
          <button class="danger" id="bulk-confirm" @click=${() => this.cancelAll((this.bulk as any).ids)}>Cancel ${this.bulk.count} run(s)</button>
          <button @click=${() => { (document.getElementById('bulk-dialog') as HTMLDialogElement).close(); this.bulk = undefined; }}>Keep them</button>` : ''}
      </dialog>
      <div class="table-wrap"><table class="runs">
        <caption class="sr-only">Runs matching the filters</caption>
        <thead><tr><th scope="col"><span class="sr-only">Select</span></th><th scope="col">Label</th><th scope="col">Flow</th>
          <th scope="col">Status</th><th scope="col">Owner</th><th scope="col">Started</th><th scope="col">Ended</th><th scope="col">Tags</th></tr></thead>
        <tbody>
          ${this.page.runs.length === 0 ? html`<tr><td colspan="8">No runs match.</td></tr>` : ''}
          ${this.page.runs.map(r => html`<tr data-run=${r.run_id} data-status=${r.status}>
            <td>${canManage(r) ? html`<input type="checkbox"
              aria-label="Select run ${r.label || r.run_id}" .checked=${this.selected.has(r.run_id)}
              @change=${(e: Event) => { (e.target as HTMLInputElement).checked ? this.selected.add(r.run_id) : this.selected.delete(r.run_id); this.app.refresh(); }}>` : ''}</td>
            <td><a href="#/runs/${r.run_id}">${r.label || r.run_id}</a><br><code class="run-id">${r.run_id}</code></td>
            <td>${r.flow_title}</td>
            <td>${statusBadge(r.status)}</td>
            <td>${r.run_owner}</td>
            <td>${localTime(r.start_time)}</td>
            <td class="ended">${r.completion_time ? html`${localTime(r.completion_time)}<br>took ${duration(r.start_time, r.completion_time)}`
              : 'not yet'}</td>
            <td>${(r.tags ?? []).join(', ')}</td>
          </tr>`)}
        </tbody>
      </table></div>
      <nav class="pager" aria-label="Pages">
        <button ?disabled=${this.markers.length === 0} @click=${() => { this.markers.pop(); this.load(this.markers[this.markers.length - 1]); }}>Previous</button>
        <button ?disabled=${!this.page.has_next_page} @click=${() => { this.markers.push(this.page.marker!); this.load(this.page.marker); }}>Next</button>
      </nav>`;
  }
}
