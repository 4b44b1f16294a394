// Triggers: the ones you own, administer or view, their status, and what became of their latest events
// (started a run, filtered out, rejected and why, duplicate). Pause and resume only for owner and administrators.
import { html, TemplateResult } from 'lit';
import { api } from './api';
import { App, statusBadge, when } from './shell';

/** The engine names the caller's role on each trigger; only these may pause or resume it. */
function canSteer(trigger: any): boolean {
  return trigger.user_role === 'owner' || trigger.user_role === 'administrator';
}

function status(trigger: any): TemplateResult {
  return html`${statusBadge(trigger.status)}${trigger.status === 'failing'
    ? html` <small>${trigger.consecutive_failures} rejected in a row</small>` : ''}`;
}

function source(trigger: any): string {
  const s = trigger.source ?? {};
  if (s.type !== 'timer') return s.type ?? '?';
  return `timer (${s.cron ? `cron ${s.cron}${s.zone ? ' ' + s.zone : ''}` : s.every ? `every ${s.every}` : `once ${s.once}`})`;
}

/** Pause or resume, then show the engine's answer (the trigger as it is now). */
async function steer(trigger: any, app: App, done: (t: any) => void, fail: (m: string) => void): Promise<void> {
  try {
    done(await api(`/triggers/${trigger.id}/${trigger.status === 'paused' ? 'resume' : 'pause'}`, 'POST', {}));
  } catch (e: any) {
    fail(e.message);
  }
  app.refresh();
}

function steerButton(trigger: any, onClick: () => void): TemplateResult | string {
  return when(canSteer(trigger), () => html`<button class="steer" data-trigger=${trigger.id} @click=${onClick}
    aria-label="${trigger.status === 'paused' ? 'Resume' : 'Pause'} ${trigger.title}">${trigger.status === 'paused' ? 'Resume' : 'Pause'}</button>`);
}

export class TriggersPage {
  private triggers: any[] = [];
  private error = '';

  constructor(private readonly app: App) {}

  async load(): Promise<void> {
    try {
      this.triggers = (await api<any>('/triggers?limit=500')).triggers;
    } catch (e: any) {
      this.error = e.message;
    }
    this.app.refresh();
  }

  dispose(): void {}

  render(): TemplateResult {
    return html`<h1>Triggers</h1>
      ${when(this.error, () => html`<p role="alert" class="error">${this.error}</p>`)}
      <table class="triggers"><caption class="sr-only">Triggers you own, administer or view</caption>
        <thead><tr><th scope="col">Title</th><th scope="col">Source</th><th scope="col">Status</th><th scope="col">Flow</th>
          <th scope="col">Owner</th><th scope="col">Your role</th><th scope="col"><span class="sr-only">Actions</span></th></tr></thead>
        <tbody>${this.triggers.length === 0 ? html`<tr><td colspan="7">No triggers you may see.</td></tr>` : ''}
          ${this.triggers.map(t => html`<tr data-trigger=${t.id} data-status=${t.status}>
            <td><a href="#/triggers/${t.id}">${t.title}</a></td><td>${source(t)}</td><td>${status(t)}</td>
            <td><a href="#/flows/${t.flow_id}">${t.flow_version ? `version ${t.flow_version}` : 'latest'}</a></td>
            <td>${t.owner}</td><td>${t.user_role}</td>
            <td>${steerButton(t, () => steer(t, this.app, now => { this.triggers = this.triggers.map(x => x.id === now.id ? now : x); },
              m => { this.error = m; }))}</td></tr>`)}</tbody></table>
      ${howToCreate()}`;
  }
}

const OUTCOMES: Record<string, string> = {
  started: 'started a run', filtered: 'filtered out', rejected: 'rejected', duplicate: 'duplicate',
};

export class TriggerPage {
  private trigger: any;
  private events: any[] = [];
  private error = '';
  private timer?: number;

  constructor(private readonly app: App, private readonly id: string) {}

  async load(): Promise<void> {
    try {
      [this.trigger, this.events] = await Promise.all([api(`/triggers/${this.id}`),
        api<any>(`/triggers/${this.id}/events?limit=50`).then(e => e.events)]);
      this.error = '';
    } catch (e: any) {
      this.error = e.status === 404 ? 'No such trigger, or you may not see it.' : e.message;
    }
    this.app.refresh();
    // events arrive on their own (instruments, timers): look again every few seconds while the page is open
    this.timer ??= window.setInterval(() => this.load(), 5000);
  }

  dispose(): void {
    window.clearInterval(this.timer);
  }

  private outcome(e: any): TemplateResult {
    const what = html`<span class="badge outcome-${e.outcome}">${OUTCOMES[e.outcome] ?? e.outcome}</span>`;
    const run = e.run_id ? html` <a href="#/runs/${e.run_id}">run ${e.run_id.slice(0, 8)}</a>` : '';
    return e.outcome === 'duplicate'
      ? html`${what} of an earlier event${run}${e.reason ? html` (that one was ${e.reason})` : ''}`
      : html`${what}${run}${e.reason ? html` — <span class="reason">${e.reason}</span>` : ''}`;
  }

  render(): TemplateResult {
    const t = this.trigger;
    if (!t) return html`<h1>Trigger</h1>${when(this.error, () => html`<p role="alert" class="error">${this.error}</p>`)}`;
    return html`<h1>${t.title}</h1>
      <p class="meta">${status(t)} · ${source(t)} · owner ${t.owner} · your role: ${t.user_role}
        · <a href="#/flows/${t.flow_id}">the flow</a> · <a href="#/runs?tag=${encodeURIComponent('trigger:' + t.id)}">its runs</a>
        ${steerButton(t, () => steer(t, this.app, now => { this.trigger = now; }, m => { this.error = m; }))}</p>
      ${when(this.error, () => html`<p role="alert" class="error">${this.error}</p>`)}
      ${when(t.filter, () => html`<p>Filter: <code>${t.filter}</code></p>`)}
      <h2>Recent events</h2>
      <table class="events"><caption class="sr-only">The trigger's latest events, newest first</caption>
        <thead><tr><th scope="col">Received</th><th scope="col">Dedup key</th><th scope="col">Outcome</th></tr></thead>
        <tbody>${this.events.length === 0 ? html`<tr><td colspan="3">No events yet.</td></tr>` : ''}
          ${this.events.map(e => html`<tr data-event=${e.id} data-outcome=${e.outcome}>
            <td>${new Date(e.received_at).toLocaleString()}</td><td><code>${e.dedup_key}</code></td><td>${this.outcome(e)}</td></tr>`)}
        </tbody></table>`;
  }
}

/** This page lists and steers triggers; it does not make them: where to, so an empty page is not a dead end. */
function howToCreate(): TemplateResult {
  return html`<p id="create-trigger">A trigger starts a flow's runs on events (a file appears, an instrument or script calls,
    a webhook arrives, another run ends). Create one with the CLI, <code>continuum trigger create trigger.json</code>, or
    <code>POST /triggers</code> (the API page, <a href="/q/swagger-ui">/q/swagger-ui</a>, shows its fields;
    <code>docs/triggers.md</code> in Continuum's sources describes each source).</p>`;
}
