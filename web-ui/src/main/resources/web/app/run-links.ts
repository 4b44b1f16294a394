// A run's links to other runs through flow calls (flows run flows, docs/flow-language.md): the parent run that
// started it and from which Action state, and the child runs it started, each beside the state that started it.
import { html, TemplateResult } from 'lit';
import { api } from './api';
import { statusBadge, when } from './shell';

const CHILDREN_SHOWN = 50; // a Map calling a flow per item starts thousands: the first ones, and the count
const FINISHED = new Set(['SUCCEEDED', 'FAILED', 'ENDED']);

/**
 * The run's links as GET /runs/{id} gives them, kept on a document that lacks them (the live stream's, an action's
 * answer): the stream carries no links, and without this the children would vanish at the next update.
 */
export function keepLinks(next: any, before: any): any {
  if (!before || next.child_run_ids !== undefined) return next;
  return { ...next, parent_run_id: before.parent_run_id, parent_state: before.parent_state, child_run_ids: before.child_run_ids };
}

function label(run: any): string {
  return run.label || run.run_id;
}

export class RunLinks {
  private parent?: any;
  private readonly children = new Map<string, any>();

  /** Reads the parent once and the children that have not finished yet (a finished run does not change). */
  async load(run: any): Promise<void> {
    const read = (id: string) => api(`/runs/${id}`).catch(() => ({ run_id: id })); // one we may not see: its id only
    if (run.parent_run_id && this.parent?.run_id !== run.parent_run_id) this.parent = await read(run.parent_run_id);
    const ids: string[] = (run.child_run_ids ?? []).slice(0, CHILDREN_SHOWN);
    const stale = ids.filter(id => !FINISHED.has(this.children.get(id)?.status));
    (await Promise.all(stale.map(read))).forEach(child => this.children.set(child.run_id, child));
  }

  /** "Started by run X (state S)", linking to the parent; nothing for a run no flow started. */
  startedBy(run: any): TemplateResult | string {
    return when(run.parent_run_id, () => html`<p class="started-by">Started by run
      <a href="#/runs/${run.parent_run_id}">${label(this.parent ?? { run_id: run.parent_run_id })}</a>
      (state ${run.parent_state})</p>`);
  }

  /** The child runs each state started, listed under the graph. */
  list(run: any): TemplateResult | string {
    const ids: string[] = run.child_run_ids ?? [];
    const states = [...new Set(this.shown(ids).map(c => c.parent_state ?? '?'))];
    return when(ids.length, () => html`<h3>Child runs</h3>
      <ul class="child-runs">${states.map(state => html`<li data-state=${state}>State <strong>${state}</strong> started
        ${this.ofState(run, state)}</li>`)}</ul>
      ${when(ids.length > CHILDREN_SHOWN, () => html`<p>The first ${CHILDREN_SHOWN} of ${ids.length} child runs.</p>`)}`);
  }

  /** The child runs one state started, as links with their status. */
  ofState(run: any, state: string): TemplateResult | string {
    const started = this.shown(run.child_run_ids ?? []).filter(c => (c.parent_state ?? '?') === state);
    return when(started.length, () => html`<ul class="state-children">${started.map(c => html`<li data-run=${c.run_id}>
      <a href="#/runs/${c.run_id}">${label(c)}</a>${c.flow_title ? ` (flow ${c.flow_title})` : ''} ${c.status ? statusBadge(c.status) : ''}</li>`)}</ul>`);
  }

  private shown(ids: string[]): any[] {
    return ids.slice(0, CHILDREN_SHOWN).map(id => this.children.get(id)).filter(Boolean);
  }
}
