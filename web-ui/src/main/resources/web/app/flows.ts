// Flows: the list, one flow's definition (graph and JSON) with a start form from its input_schema and its versions
// (who changed what, and a diff of any two), and a page to check a new definition, with the validator's problems
// pinned on the states they concern.
import { html, TemplateResult } from 'lit';
import { api, ApiError, FieldIssue } from './api';
import { DiffLine, lineDiff } from './diff';
import { flowGraph, GraphState } from './graph';
import { emptyForm, fieldKeys, FormState, formProblems, placeErrors, schemaFields, validate } from './schema-form';
import { App, canStart, json, navigate, when } from './shell';

export class FlowsPage {
  private flows: any[] = [];
  private error = '';

  constructor(private readonly app: App) {}

  async load(): Promise<void> {
    try {
      this.flows = (await api<any>('/flows?limit=100')).flows;
    } catch (e: any) {
      this.error = e.message;
    }
    this.app.refresh();
  }

  dispose(): void {}

  render(): TemplateResult {
    return html`<h1>Flows</h1>
      <p><a href="#/flows/new">Check or publish a new flow…</a></p>
      ${when(this.error, () => html`<p role="alert" class="error">${this.error}</p>`)}
      <table class="flows"><thead><tr><th scope="col">Title</th><th scope="col">Owner</th><th scope="col">Updated</th><th scope="col">Your roles</th></tr></thead>
        <tbody>${this.flows.length === 0 ? html`<tr><td colspan="4">No flows yet.</td></tr>` : ''}
          ${this.flows.map(f => html`<tr><td><a href="#/flows/${f.id}">${f.title || f.id}</a></td><td>${f.flow_owner}</td>
            <td>${new Date(f.updated_at).toLocaleString()}</td><td>${(f.user_roles ?? []).join(', ')}</td></tr>`)}</tbody></table>`;
  }
}

function plainStates(definition: any, issues: FieldIssue[] = []): GraphState[] {
  return Object.entries<any>(definition?.States ?? {}).map(([name, state]) => ({
    name, type: state?.Type ?? '?', status: 'pending' as const, current: false,
    errors: issues.filter(i => (i.pointer ?? '').startsWith(`/definition/States/${name}/`) || i.pointer === `/definition/States/${name}`
      || (i.pointer ?? '').startsWith(`/States/${name}/`) || i.pointer === `/States/${name}`).map(i => i.message),
  }));
}

/** The fields of a version that a person edits, in the order a diff shows them. */
const COMPARED = ['title', 'subtitle', 'description', 'keywords', 'flow_owner', 'flow_owners', 'flow_administrators',
  'flow_starters', 'flow_viewers', 'run_managers', 'run_monitors', 'input_schema', 'definition'];

function comparable(version: any): string {
  return JSON.stringify(Object.fromEntries(COMPARED.map(k => [k, version[k] ?? null])), null, 2);
}

export class FlowPage {
  private flow: any;
  private error = '';
  private form?: FormState;
  private startErrors: FieldIssue[] = [];
  private label = '';
  private versions: any[] = [];
  private from = 0;
  private to = 0;
  private diff: DiffLine[] | null | undefined;
  private diffError = '';

  constructor(private readonly app: App, private readonly id: string) {}

  async load(): Promise<void> {
    try {
      this.flow = await api(`/flows/${this.id}`);
      this.form = emptyForm(this.flow.input_schema);
      this.versions = (await api<any>(`/flows/${this.id}/versions?limit=100`)).versions;
      this.to = this.flow.version;
      this.from = Math.max(1, this.to - 1);
    } catch (e: any) {
      this.error = e.status === 404 ? 'No such flow, or you may not see it.' : e.message;
    }
    this.app.refresh();
    if (this.versions.length > 1) await this.compare();
  }

  private async compare(): Promise<void> {
    this.diffError = '';
    try {
      const [before, after] = await Promise.all([this.from, this.to].map(v => api(`/flows/${this.id}/versions/${v}`)));
      this.diff = lineDiff(comparable(before), comparable(after));
    } catch (e: any) {
      this.diff = undefined;
      this.diffError = e.message;
    }
    this.app.refresh();
  }

  private choose(which: 'from' | 'to', e: Event): void {
    this[which] = Number((e.target as HTMLSelectElement).value);
    this.compare();
  }

  private versionsSection(): TemplateResult {
    const pick = (which: 'from' | 'to', label: string) => html`<div class="field"><label for="diff-${which}">${label}</label>
      <select id="diff-${which}" @change=${(e: Event) => this.choose(which, e)}>${this.versions.map(v =>
        html`<option value=${v.version} ?selected=${v.version === this[which]}>version ${v.version}</option>`)}</select></div>`;
    const changed = this.diff?.filter(l => l.kind !== 'same').length ?? 0;
    return html`<section aria-labelledby="versions-title"><h2 id="versions-title">Versions</h2>
      <table class="versions"><thead><tr><th scope="col">Version</th><th scope="col">Saved</th><th scope="col">By</th><th scope="col">What changed</th></tr></thead>
        <tbody>${this.versions.map(v => html`<tr data-version=${v.version}><td>${v.version}</td>
          <td>${new Date(v.created_at).toLocaleString()}</td><td>${v.created_by ?? 'unknown'}</td><td>${v.summary}</td></tr>`)}</tbody></table>
      ${when(this.versions.length > 1, () => html`<form class="diff-choice" @submit=${(e: Event) => e.preventDefault()}>
          ${pick('from', 'Compare version')}${pick('to', 'with version')}</form>
        ${when(this.diffError, () => html`<p role="alert" class="error">${this.diffError}</p>`)}
        ${this.diff === null ? html`<p>These versions differ in too many lines to show here.</p>`
          : this.diff ? html`<p class="diff-count" role="status">Version ${this.from} → version ${this.to}:
              ${changed === 0 ? 'no differences.' : `${changed} lines differ (- only in ${this.from}, + only in ${this.to}).`}</p>
            <pre class="diff">${this.diff.map(l =>
              html`<span class="diff-${l.kind}">${l.kind === 'added' ? '+ ' : l.kind === 'removed' ? '- ' : '  '}${l.text}</span>`)}</pre>` : ''}`)}
    </section>`;
  }

  dispose(): void {}

  private async start(): Promise<void> {
    const schema = this.flow.input_schema;
    fieldKeys(schema).forEach(key => this.form!.touched.add(key));
    const body = validate(schema, this.form!);
    this.startErrors = [];
    this.app.refresh();
    if (!body) return;
    try {
      const run: any = await api(`/flows/${this.id}/run`, 'POST', { body, ...(this.label ? { label: this.label } : {}) });
      navigate(`#/runs/${run.run_id}`);
    } catch (e: any) {
      const issues = e instanceof ApiError && e.errors.length ? e.errors : [{ pointer: '', message: e.message }];
      this.startErrors = placeErrors(schema, this.form!, issues, '/body'); // each field's own under it, in words
      this.app.refresh();
    }
  }

  render(): TemplateResult {
    if (!this.flow) return html`<h1>Flow</h1>${when(this.error, () => html`<p role="alert" class="error">${this.error}</p>`)}`;
    const f = this.flow;
    return html`<h1>${f.title || f.id}</h1>
      <p class="meta">${f.description ?? ''} · owner ${f.flow_owner} · version ${f.version}</p>
      <div class="detail-grid">
        <section aria-labelledby="graph-title"><h2 id="graph-title">Definition</h2>${flowGraph(f.definition, plainStates(f.definition))}</section>
        ${canStart(f) ? html`<section aria-labelledby="start-title"><h2 id="start-title">Start a run</h2>
          <form class="start-form" novalidate @submit=${(e: Event) => { e.preventDefault(); this.start(); }}>
            <div class="field"><label for="run-label">Run label</label><input id="run-label" .value=${this.label}
              @input=${(e: Event) => (this.label = (e.target as HTMLInputElement).value)}></div>
            ${schemaFields(f.input_schema, this.form!, () => this.app.refresh())}
            ${formProblems(this.startErrors)}
            <button type="submit" id="start-run" ?disabled=${Object.keys(this.form!.errors).length > 0}>Start run</button>
          </form></section>` : html`<section><h2>Start a run</h2><p>You may see this flow but not start it.</p></section>`}
      </div>
      ${this.versionsSection()}
      <details><summary>Definition JSON</summary>${json(f.definition)}</details>
      <details><summary>Input schema</summary>${json(f.input_schema)}</details>`;
  }
}

export class NewFlowPage {
  private text = '{\n  "StartAt": "Hello",\n  "States": {\n    "Hello": {"Type": "Pass", "End": true}\n  }\n}';
  private schemaText = '{"type": "object", "properties": {}}';
  private title = '';
  private issues: FieldIssue[] = [];
  private parsed: any;
  private message = '';

  constructor(private readonly app: App) {}

  async load(): Promise<void> {
    this.app.refresh();
  }

  dispose(): void {}

  private read(): { definition: any; input_schema: any } | null {
    try {
      this.parsed = JSON.parse(this.text);
    } catch (e: any) {
      this.issues = [{ pointer: '/definition', message: `Not JSON: ${e.message}` }];
      return null;
    }
    try {
      return { definition: this.parsed, input_schema: JSON.parse(this.schemaText) };
    } catch (e: any) {
      this.issues = [{ pointer: '/input_schema', message: `Not JSON: ${e.message}` }];
      return null;
    }
  }

  private async check(publish: boolean): Promise<void> {
    this.message = '';
    const body = this.read();
    if (body) {
      try {
        if (publish) {
          const flow: any = await api('/flows', 'POST', { ...body, title: this.title || 'Untitled flow' });
          navigate(`#/flows/${flow.id}`);
          return;
        }
        await api('/flows/validate', 'POST', body);
        this.issues = [];
        this.message = 'The flow is valid.';
      } catch (e: any) {
        this.issues = e instanceof ApiError && e.errors.length ? e.errors : [{ pointer: '', message: e.message }];
      }
    }
    this.app.refresh();
  }

  render(): TemplateResult {
    return html`<h1>New flow</h1>
      <div class="detail-grid">
        <section><form @submit=${(e: Event) => e.preventDefault()}>
          <div class="field"><label for="flow-title">Title</label><input id="flow-title" .value=${this.title}
            @input=${(e: Event) => (this.title = (e.target as HTMLInputElement).value)}></div>
          <div class="field"><label for="flow-definition">Definition (JSON)</label>
            <textarea id="flow-definition" rows="16" spellcheck="false" .value=${this.text}
              @input=${(e: Event) => (this.text = (e.target as HTMLTextAreaElement).value)}></textarea></div>
          <div class="field"><label for="flow-schema">Input schema (JSON Schema)</label>
            <textarea id="flow-schema" rows="4" spellcheck="false" .value=${this.schemaText}
              @input=${(e: Event) => (this.schemaText = (e.target as HTMLTextAreaElement).value)}></textarea></div>
          <button id="validate-flow" @click=${() => this.check(false)}>Validate</button>
          <button id="publish-flow" @click=${() => this.check(true)}>Publish</button>
        </form></section>
        <section aria-labelledby="problems-title"><h2 id="problems-title">Problems</h2>
          ${when(this.message, () => html`<p role="status" class="notice">${this.message}</p>`)}
          ${this.issues.length ? html`<ul class="problems" role="alert">${this.issues.map(i => html`<li><code>${i.pointer}</code> ${i.message}</li>`)}</ul>`
            : when(!this.message, () => html`<p>Validate to see problems here and on the graph.</p>`)}
          ${this.parsed?.States ? flowGraph(this.parsed, plainStates(this.parsed, this.issues)) : ''}
        </section>
      </div>`;
  }
}
