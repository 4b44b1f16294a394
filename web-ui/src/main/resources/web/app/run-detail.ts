// One run: its flow as a graph coloured by state, a timeline, the live event log, each state's details and the
// actions the signed-in user may take.
import { html, TemplateResult } from 'lit';
import { api, live } from './api';
import { flowGraph, statesFromLog } from './graph';
import { App, canManage, json, statusBadge, when } from './shell';

export class RunDetailPage {
  private run: any;
  private definition: any;
  private entries: any[] = [];
  private selected?: string;
  private error = '';
  private stop?: () => void;

  constructor(private readonly app: App, private readonly id: string) {}

  async load(): Promise<void> {
    try {
      [this.run, this.definition] = await Promise.all([api(`/runs/${this.id}`), api(`/runs/${this.id}/definition`)]);
      await this.loadLog();
    } catch (e: any) {
      this.error = e.status === 404 ? 'No such run, or you may not see it.' : e.message;
    }
    this.app.refresh();
    if (!this.run) return;
    this.stop = live<any>(`/live/runs/${this.id}`, async run => {
      this.run = run;
      await this.loadLog();
      this.app.refresh();
    });
  }

  dispose(): void {
    this.stop?.();
  }

  private async loadLog(): Promise<void> {
    const entries: any[] = [];
    let marker: string | undefined;
    do {
      const page: any = await api(`/runs/${this.id}/log?limit=100${marker ? `&marker=${encodeURIComponent(marker)}` : ''}`);
      entries.push(...page.entries);
      marker = page.has_next_page ? page.marker : undefined;
    } while (marker && entries.length < 5000);
    this.entries = entries;
  }

  private async act(action: 'cancel' | 'resume'): Promise<void> {
    try {
      this.run = await api(`/runs/${this.id}/${action}`, 'POST', action === 'cancel' ? {} : undefined);
      await this.loadLog();
      this.error = '';
    } catch (e: any) {
      this.error = e.message;
    }
    this.app.refresh();
  }

  render(): TemplateResult {
    if (!this.run) return html`<h1>Run</h1>${when(this.error, () => html`<p role="alert" class="error">${this.error}</p>`)}<p>Loading…</p>`;
    const r = this.run;
    const manage = canManage(r);
    const going = r.status === 'ACTIVE' || r.status === 'INACTIVE';
    const states = statesFromLog(this.definition.definition, this.entries, r.status);
    return html`
      <h1>Run ${r.label || r.run_id}</h1>
      <p class="meta">${statusBadge(r.status)} flow <a href="#/flows/${r.flow_id}">${r.flow_title}</a> · owner ${r.run_owner}
        · started ${new Date(r.start_time).toLocaleString()}${r.completion_time ? html` · completed ${new Date(r.completion_time).toLocaleString()}` : ''}</p>
      ${when(this.error, () => html`<p role="alert" class="error">${this.error}</p>`)}
      <div class="actions">
        ${when(manage && going, () => html`<button class="danger" id="cancel-run" @click=${() => this.act('cancel')}>Cancel run</button>`)}
        ${when(manage && r.status === 'INACTIVE', () => html`<button id="resume-run" @click=${() => this.act('resume')}>Resume run</button>`)}
      </div>
      <div class="detail-grid">
        <section aria-labelledby="graph-title"><h2 id="graph-title">Flow</h2>
          <p class="legend"><span class="badge status-pending">pending</span> <span class="badge status-running">running</span>
            <span class="badge status-succeeded">succeeded</span> <span class="badge status-failed">failed</span>
            <span class="badge status-stopped">stopped</span></p>
          ${flowGraph(this.definition.definition, states, name => { this.selected = name; this.app.refresh(); })}
        </section>
        <section aria-labelledby="state-title"><h2 id="state-title">${this.selected ? `State ${this.selected}` : 'Run input and output'}</h2>
          ${this.selected ? this.stateDetails(this.selected) : html`<h3>Details</h3>${json(r.details)}`}
        </section>
      </div>
      <section aria-labelledby="timeline-title"><h2 id="timeline-title">Timeline</h2>${this.timeline()}</section>
      <section aria-labelledby="log-title"><h2 id="log-title">Event log</h2>
        <table class="log"><thead><tr><th scope="col">Time</th><th scope="col">Event</th><th scope="col">State</th><th scope="col">Description</th></tr></thead>
          <tbody>${this.entries.map(e => html`<tr><td>${new Date(e.time).toLocaleTimeString()}</td><td>${e.code}</td>
            <td>${e.details?.state_name ?? ''}</td><td>${e.description}</td></tr>`)}</tbody></table>
      </section>`;
  }

  private stateDetails(name: string): TemplateResult {
    const events = this.entries.filter(e => e.details?.state_name === name);
    return html`<button @click=${() => { this.selected = undefined; this.app.refresh(); }}>Show the run's details</button>
      ${events.length === 0 ? html`<p>Not reached yet.</p>` : events.map(e => html`<h3>${e.code}</h3>${json(e.details)}`)}`;
  }

  /** A Gantt of states: each bar from the state's first event to its last. */
  private timeline(): TemplateResult {
    const spans = new Map<string, { start: number; end: number; status: string }>();
    for (const e of this.entries) {
      const name = e.details?.state_name;
      if (!name || e.code.startsWith('Flow')) continue; // the run's own events name the last state: not the state's
      const t = Date.parse(e.time);
      const s = spans.get(name) ?? { start: t, end: t, status: 'running' };
      s.end = Math.max(s.end, t);
      s.status = /Failed$/.test(e.code) ? 'failed' : /Completed$/.test(e.code) ? 'succeeded' : 'running';
      spans.set(name, s);
    }
    if (spans.size === 0) return html`<p>No state has started yet.</p>`;
    const t0 = Math.min(...[...spans.values()].map(s => s.start));
    const t1 = Math.max(Math.max(...[...spans.values()].map(s => s.end)), t0 + 1);
    return html`<ol class="timeline">${[...spans.entries()].map(([name, s]) => html`<li>
      <span class="tl-name">${name}</span>
      <span class="tl-track"><span class="tl-bar status-${s.status}" style="left:${((s.start - t0) / (t1 - t0)) * 100}%;width:${Math.max(((s.end - s.start) / (t1 - t0)) * 100, 1)}%"
        title="${name}: ${s.end - s.start} ms"></span></span>
      <span class="tl-time">${s.end - s.start} ms</span></li>`)}</ol>`;
  }
}
