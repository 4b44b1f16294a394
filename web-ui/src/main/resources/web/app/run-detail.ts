// One run: its flow as a graph coloured by state, a timeline, the live event log, each state's details, the
// actions the signed-in user may take, the forms it waits on and the runs it is linked to by flow calls.
import { html, TemplateResult } from 'lit';
import { api, live } from './api';
import { flowGraph, statesFromLog } from './graph';
import { describeCounts, Group, groupsOf } from './groups';
import { HumanInputs } from './human-input';
import { keepLinks, RunLinks } from './run-links';
import { App, duration, json, localTime, navigate, runVisibilityNote, statusBadge, when } from './shell';
import { timelineSpans } from './timeline'; // defines <continuum-timeline>
import { actionCallList, failureWords } from './where-ran';

type RunAction = 'cancel' | 'resume' | 'release' | 'redrive';
/** The actions that cannot be undone, and what the confirmation says of each; the others need none. */
const CONFIRM: Partial<Record<RunAction, string>> = {
  cancel: 'Cancel this run? Its running steps are stopped, and a cancelled run cannot be resumed.',
  release: 'Delete this run? Its record and event log are deleted for good (the engine calls this releasing the run).',
};
const LOG_SHOWN = 200; // the newest events in the table; the rest on demand (a 2,000-item Map logs thousands)

export class RunDetailPage {
  private run: any;
  private definition: any;
  private entries: any[] = [];
  private lastSeq = 0;
  private selected?: string;
  private expanded = new Set<string>();
  private redriving = false;
  private wholeLog = false;
  private error = '';
  private notice = '';
  private stop?: () => void;
  private marked = false;
  private loading: Promise<void> = Promise.resolve();
  private placements?: any;
  private placementsAt = 0; // the action calls started and ended when the planner was last asked
  private following: Promise<void> = Promise.resolve();
  private queued?: any;
  private readonly links = new RunLinks();
  private readonly inputs: HumanInputs;

  constructor(private readonly app: App, private readonly id: string) {
    this.inputs = new HumanInputs(id, () => app.refresh(), (run, state) => {
      this.run = keepLinks(run, this.run);
      this.notice = `Answer sent for ${state}; the run goes on.`;
      this.loadLog().then(() => this.app.refresh());
    });
  }

  async load(): Promise<void> {
    try {
      // the log's first page travels with the run and its definition, not after them: one round trip fewer before the graph
      [this.run, this.definition] = await Promise.all([api(`/runs/${this.id}`), api(`/runs/${this.id}/definition`), this.loadLog()]);
      this.loadPlacements();
    } catch (e: any) {
      this.error = e.status === 404 ? 'No such run, or you may not see it.' : e.message;
    }
    if (!this.run) {
      this.app.refresh();
      return;
    }
    await this.loadRelated();
    this.app.refresh();
    this.stop = live<any>(`/live/runs/${this.id}`, run => this.followLatest(run));
  }

  /**
   * Follows the stream in its order; an ACTIVE run is sent on every step, faster than the page may read, so changes
   * that come while one is followed wait as one: the latest.
   */
  private followLatest(run: any): void {
    const waiting = this.queued !== undefined;
    this.queued = run;
    if (waiting) return;
    const next = () => {
      const latest = this.queued;
      this.queued = undefined;
      return this.follow(latest);
    };
    this.following = this.following.then(next, next);
  }

  /**
   * A change from the live stream. Its document lacks the run's links (child runs, parent): GET /runs/{id} has them,
   * children a parent started since included; if that read fails, the links shown so far are kept.
   */
  private async follow(run: any): Promise<void> {
    this.run = await api(`/runs/${this.id}`).catch(() => keepLinks(run, this.run));
    await Promise.all([this.loadLog(), this.loadRelated()]);
    if (this.actionChanges() !== this.placementsAt) this.loadPlacements();
    this.app.refresh();
  }

  /** The planner's decisions about the run; asked again after an action call started or ended (a redrive's attempt too). */
  private loadPlacements(): void {
    this.placementsAt = this.actionChanges();
    api(`/runs/${this.id}/placements`).then(p => { this.placements = p; this.app.refresh(); },
      (e: any) => { this.placements = { planner: 'unreachable', detail: e.message, placements: [] }; this.app.refresh(); });
  }

  private actionChanges(): number {
    return this.entries.filter(e => e.code === 'ActionStarted' || e.code === 'ActionCompleted' || e.code === 'ActionFailed').length;
  }

  /** What the run page shows beside the run: its parent and child runs, the forms it waits on. */
  private async loadRelated(): Promise<void> {
    await Promise.all([this.links.load(this.run), this.inputs.follow(this.run.details?.inputs)]);
  }

  dispose(): void {
    this.stop?.();
  }

  /** One fetch at a time (the live stream and a button may both ask), so no entry is added twice. */
  private loadLog(): Promise<void> {
    this.loading = this.loading.then(() => this.fetchLog(), () => this.fetchLog());
    return this.loading;
  }

  /** The log entries after those already here (all of them the first time), 1,000 a request. */
  private async fetchLog(): Promise<void> {
    for (;;) {
      const page: any = await api(`/runs/${this.id}/log?limit=1000${this.lastSeq ? `&marker=${this.lastSeq}` : ''}`);
      if (page.entries.length) {
        this.entries = this.entries.concat(page.entries);
        this.lastSeq = page.entries[page.entries.length - 1].seq;
      }
      if (!page.has_next_page || page.entries.length === 0) return;
    }
  }

  private async act(action: RunAction, body?: unknown): Promise<void> {
    const question = CONFIRM[action];
    if (question && !confirm(question)) return;
    try {
      this.error = '';
      if (action === 'release') {
        await api(`/runs/${this.id}/release`, 'POST');
        this.stop?.();
        navigate('#/runs');
        return;
      }
      this.run = keepLinks(await api(`/runs/${this.id}/${action}`, 'POST', action === 'cancel' ? {} : body), this.run);
      this.redriving = false;
      this.notice = action === 'redrive' ? `Redriven from ${(body as any)?.state ?? 'where it failed'}.` : '';
      await this.loadLog();
    } catch (e: any) {
      this.error = e.errors?.length ? e.errors.map((i: any) => `${i.pointer}: ${i.message}`).join('; ') : e.message;
    }
    this.app.refresh();
  }

  /** When the page first shows the run with its graph: a performance mark the benchmark reads. */
  private markRendered(): void {
    if (this.marked) return;
    this.marked = true;
    requestAnimationFrame(() => setTimeout(() => performance.mark('continuum:run-rendered')));
  }

  render(): TemplateResult {
    if (!this.run) return html`<h1>Run</h1>${this.error ? html`<p role="alert" class="error">${this.error}</p>${runVisibilityNote(this.app)}` : html`<p>Loading…</p>`}`;
    const r = this.run;
    const may = new Set<string>(r.user_actions ?? []); // the engine says what this user may do now
    const going = r.status === 'ACTIVE' || r.status === 'INACTIVE';
    const states = statesFromLog(this.definition.definition, this.entries, r.status);
    const groups = groupsOf(this.definition.definition, this.entries, going);
    this.markRendered();
    return html`
      <h1>Run ${r.label || r.run_id}</h1>
      <p class="meta">${statusBadge(r.status)} flow <a href="#/flows/${r.flow_id}">${r.flow_title}</a>
        <span class="flow-version">version ${r.flow_version}</span> · owner ${r.run_owner}
        · started ${localTime(r.start_time)}${r.completion_time ? html` · ended ${localTime(r.completion_time)}, took ${duration(r.start_time, r.completion_time)}` : ''}
        · run id <code id="run-id">${r.run_id}</code></p>
      ${this.links.startedBy(r)}
      ${when(r.status === 'FAILED', () => failure(r.details))}
      ${when(this.error, () => html`<p role="alert" class="error">${this.error}</p>`)}
      ${when(this.notice, () => html`<p role="status" class="notice">${this.notice}</p>`)}
      <div class="actions">
        ${when(may.has('cancel'), () => html`<button class="danger" id="cancel-run" @click=${() => this.act('cancel')}>Cancel run</button>`)}
        ${when(may.has('resume'), () => html`<button id="resume-run" @click=${() => this.act('resume')}>Resume run</button>`)}
        ${when(may.has('redrive'), () => html`<button id="redrive-run" aria-expanded=${this.redriving ? 'true' : 'false'}
          @click=${() => { this.redriving = !this.redriving; this.app.refresh(); }}>Redrive…</button>`)}
        ${when(may.has('release'), () => html`<button class="danger" id="release-run" @click=${() => this.act('release')}>Delete run…</button>`)}
      </div>
      ${when(this.redriving && may.has('redrive'), () => this.redriveForm(r))}
      ${this.inputs.render(r)}
      <div class="detail-grid">
        <section aria-labelledby="graph-title"><h2 id="graph-title">Flow</h2>
          <p class="legend"><span class="badge status-pending">pending</span> <span class="badge status-running">running</span>
            <span class="badge status-succeeded">succeeded</span> <span class="badge status-failed">failed</span>
            <span class="badge status-stopped">stopped</span></p>
          ${flowGraph(this.definition.definition, states, name => { this.selected = name; this.app.refresh(); }, groups, this.expanded)}
          ${when(groups.length, () => this.groupList(groups))}
          ${this.links.list(r)}
        </section>
        <section aria-labelledby="state-title"><h2 id="state-title">${this.selected ? `State ${this.selected}` : 'Run input and output'}</h2>
          ${this.selected ? this.stateDetails(this.selected) : html`${this.startInputBlock()}<h3>Details</h3>${json(r.details)}`}
        </section>
      </div>
      <section aria-labelledby="where-title"><h2 id="where-title">Where each job ran</h2>${this.whereJobsRan()}</section>
      <section aria-labelledby="timeline-title"><h2 id="timeline-title">Timeline</h2>${this.timeline(going)}</section>
      <section aria-labelledby="log-title"><h2 id="log-title">Event log</h2>
        <table class="log"><thead><tr><th scope="col">Time</th><th scope="col">Event</th><th scope="col">State</th><th scope="col">Description</th></tr></thead>
          <tbody>${this.shownLog().map(e => html`<tr><td>${new Date(e.time).toLocaleTimeString()}</td><td>${e.code}</td>
            <td>${e.details?.state_name ?? ''}</td><td>${describe(e)}</td></tr>`)}</tbody></table>
        ${when(!this.wholeLog && this.entries.length > LOG_SHOWN, () => html`<p>The newest ${LOG_SHOWN} of ${this.entries.length} events.
          <button id="whole-log" @click=${() => { this.wholeLog = true; this.app.refresh(); }}>Show all ${this.entries.length}</button></p>`)}
      </section>`;
  }

  /**
   * Each action call's own report of where it ran (the providers' device_id, placement.site, partition, nodes), every
   * attempt on its own line, and the placement planner's decisions about the run with their reasons, as the engine
   * passes them on (GET /runs/{id}/placements, read again when an action call starts or ends).
   */
  private whereJobsRan(): TemplateResult {
    const p = this.placements;
    return html`
      ${actionCallList(this.entries)}
      ${!p ? html`<p>Asking the planner…</p>` : p.planner !== 'answered' ? html`<p id="planner-status">${p.detail}</p>`
        : p.placements.length === 0 ? html`<p id="planner-status">The planner made no decision about this run.</p>` : html`
        <div class="table-wrap"><table class="placements"><caption class="sr-only">The planner's decisions</caption>
          <thead><tr><th scope="col">Time</th><th scope="col">Job</th><th scope="col">Kind</th><th scope="col">Decision</th>
            <th scope="col">Site</th><th scope="col">Why</th></tr></thead>
          <tbody>${p.placements.map((d: any) => html`<tr><td>${d.at ? new Date(d.at).toLocaleTimeString() : ''}</td>
            <td>${d.id}</td><td>${d.kind}</td><td>${d.status}${d.cause && d.cause !== 'request' ? ` (${d.cause})` : ''}</td>
            <td>${d.site ?? ''}</td><td>${(d.decision?.reasons ?? []).slice(0, 3).join('; ')}</td></tr>`)}</tbody></table></div>
        ${when(p.more, () => html`<p>More decisions: <code>continuum placement explain ${this.id}</code>.</p>`)}`}`;
  }

  /** The input the run started with, as its FlowStarted log entry keeps it (runs started before it did: none). */
  private startInput(): unknown {
    return this.startDetails()?.input;
  }

  private startDetails(): any {
    return this.entries.find(e => e.code === 'FlowStarted')?.details;
  }

  private startInputBlock(): TemplateResult {
    const input = this.startInput();
    return html`<h3 id="run-input-title">Input</h3>${input !== undefined ? html`<div id="run-input">${json(input)}</div>`
      : html`<p>${this.startDetails()?.input_withheld ? 'Not shown: the flow names private parameters.' : 'Not kept for this run.'}</p>`}`;
  }

  private shownLog(): any[] {
    return this.wholeLog ? this.entries : this.entries.slice(-LOG_SHOWN);
  }

  /** Each Map and Parallel state: its items or branches by status, and a toggle that shows its sub-flow on the graph. */
  private groupList(groups: Group[]): TemplateResult {
    return html`<ul class="groups" aria-label="Map and Parallel states">${groups.map(g => html`<li data-group=${g.name}>
      <strong>${g.name}</strong> (${g.type}, ${g.type === 'Map' && !g.started ? 'items counted when it starts' : `${g.total} ${g.type === 'Map' ? 'items' : 'branches'}`}):
      <span class="counts">${describeCounts(g.counts)}</span>
      <button class="expand" aria-expanded=${this.expanded.has(g.name) ? 'true' : 'false'} aria-label="${this.expanded.has(g.name) ? 'Collapse' : 'Expand'} ${g.name}"
        @click=${() => { this.expanded.has(g.name) ? this.expanded.delete(g.name) : this.expanded.add(g.name); this.app.refresh(); }}>
        ${this.expanded.has(g.name) ? 'Collapse' : 'Expand'}</button></li>`)}</ul>`;
  }

  /** Redrive a FAILED run from a state of its flow (default: where it failed) with, optionally, edited input. */
  private redriveForm(r: any): TemplateResult {
    const names = Object.keys(this.definition.definition?.States ?? {});
    const stateInput = r.details?.state_input; // none when the flow names private parameters: the engine reuses it unseen
    const submit = (ev: Event) => {
      ev.preventDefault();
      const form = ev.target as HTMLFormElement;
      const state = (form.elements.namedItem('state') as HTMLSelectElement).value;
      const text = (form.elements.namedItem('input') as HTMLTextAreaElement).value.trim();
      let input: unknown;
      try {
        input = text ? JSON.parse(text) : undefined;
      } catch {
        this.error = 'The input is not JSON.';
        this.app.refresh();
        return;
      }
      const body: any = {};
      if (state) body.state = state; // else the engine's default: the state the run failed in
      if (input !== undefined) body.input = input;
      this.act('redrive', body);
    };
    return html`<form class="redrive" aria-labelledby="redrive-title" @submit=${submit}>
      <h2 id="redrive-title">Redrive run ${r.label || r.run_id}</h2>
      <div class="field"><label for="redrive-state">From state</label>
        <select id="redrive-state" name="state"><option value="">where it failed</option>
          ${names.map(n => html`<option value=${n}>${n}</option>`)}</select></div>
      <div class="field"><label for="redrive-input">Input (JSON object; starts as the input the failed state had; empty: that input)</label>
        <textarea id="redrive-input" name="input" rows="8" .value=${stateInput === undefined ? '' : JSON.stringify(stateInput, null, 2)}></textarea></div>
      <button type="submit" id="redrive-confirm">Redrive</button>
    </form>`;
  }

  private stateDetails(selected: string): TemplateResult {
    const name = selected.includes('/') ? selected.slice(selected.lastIndexOf('/') + 1) : selected; // an inner state of a group
    const all = this.entries.filter(e => e.details?.state_name === name);
    const events = all.slice(-50); // an inner state of a 2,000-item Map has thousands: its latest
    return html`<button @click=${() => { this.selected = undefined; this.app.refresh(); }}>Show the run's details</button>
      ${this.links.ofState(this.run, name)}
      ${when(all.length > events.length, () => html`<p>The latest ${events.length} of ${all.length} events.</p>`)}
      ${events.length === 0 ? html`<p>Not reached yet.</p>` : events.map(e => html`<h3>${e.code}</h3>${json(e.details)}`)}`;
  }

  /** A Gantt of states against a time axis: a bar per attempt, a running one growing (<continuum-timeline>). */
  private timeline(going: boolean): TemplateResult {
    const topLevel = new Set(Object.keys(this.definition.definition?.States ?? {}));
    return html`<continuum-timeline .spans=${timelineSpans(this.entries, topLevel)} .live=${going}></continuum-timeline>`;
  }
}

/** A log entry's description; a failed action's says why in the provider's words ("Action … failed: OOM — …"). */
function describe(e: any): string {
  if (e.code !== 'ActionFailed') return e.description;
  const words = failureWords(e);
  return words && !e.description.includes(words) ? `${e.description}: ${words}` : e.description;
}

/**
 * Why a FAILED run failed, in words at the top of its page: the state, the error and the cause. A cause that is JSON
 * (an action provider's answer, kept as an escaped string) is shown as a document, wrapped to the page's width.
 */
function failure(details: any): TemplateResult {
  let cause: unknown = details?.cause;
  try {
    cause = typeof cause === 'string' && /^\s*[{[]/.test(cause) ? JSON.parse(cause) : cause;
  } catch {
    // not JSON after all: shown as the text it is
  }
  return html`<section id="run-failure" class="failure" aria-labelledby="failure-title">
    <h2 id="failure-title">Why it failed</h2>
    <p>Failed in state <strong>${details?.state_name ?? 'unknown'}</strong> with <strong>${details?.error ?? 'no error name'}</strong>${typeof cause === 'string' ? html`: ${cause}` : '.'}</p>
    ${when(cause && typeof cause !== 'string', () => html`<div class="cause">${json(cause)}</div>`)}
  </section>`;
}
