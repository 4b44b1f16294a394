// "Where each job ran" from the run's own log: each action call (each attempt of an Action state, a redriven run's
// included) with where its provider says it ran, in the providers' own field names — the inference provider's
// device_id and placement.site (with the planner's reasons), the training provider's placement (site, partition,
// GPUs, nodes; target while it waits to move) — and how the call ended.
import { html, TemplateResult } from 'lit';

export interface ActionCall {
  state: string; attempt: number; actionId?: string; where: string; why: string; outcome: string; failure: string;
}

const ENDED: Record<string, string> = { ActionCompleted: 'succeeded', ActionFailed: 'failed' };

/** Where a provider's action details say it ran, in words: "dc-train (partition gpu, 8 GPUs, nodes n1, n2)". */
export function placeOf(d: any): string {
  if (!d || typeof d !== 'object' || Array.isArray(d)) return '';
  const p = d.placement && typeof d.placement === 'object' ? d.placement : d.target && typeof d.target === 'object' ? d.target : {};
  const device = d.device_id ?? d.device;
  const site = p.site ?? d.site ?? device ?? d.node;
  if (!site) return '';
  const more: string[] = [];
  if (device && device !== site) more.push(`device ${device}`);
  if (p.partition) more.push(`partition ${p.partition}`);
  if (p.gpus) more.push(`${p.gpus} GPU${p.gpus === 1 ? '' : 's'}`);
  const nodes = Array.isArray(p.nodes) && p.nodes.length ? p.nodes : d.node && d.node !== site ? [d.node] : [];
  if (nodes.length) more.push(`node${nodes.length === 1 ? '' : 's'} ${nodes.join(', ')}`);
  return more.length ? `${site} (${more.join(', ')})` : String(site);
}

/** The words of a failed action's details: its error name, its reason, cause or message, and the provider's status text. */
export function failureWords(entry: any): string {
  const status = entry?.details ?? {};
  const words: string[] = [];
  const add = (w: unknown) => {
    if (typeof w === 'string' && w.trim() && !words.some(x => x.includes(w.trim()))) words.push(w.trim());
  };
  const look = (d: any) => {
    if (typeof d === 'string') {
      add(d);
      return;
    }
    if (!d || typeof d !== 'object') return;
    add(d.error ?? d.Error);
    add(d.reason ?? d.cause ?? d.Cause ?? d.message ?? d.description);
  };
  look(status.details);
  if (status.details && typeof status.details === 'object') look(status.details.details);
  add(status.display_status);
  return words.join(' — ');
}

/**
 * Each action call in the log, in order. A call starts at ActionStarted; later events name its action id, and one
 * that names none yet belongs to the oldest call of its state still without one. A state's calls are numbered: after
 * a redrive the state's second call is its attempt 2 (a Map's items are calls of their inner state too).
 */
export function actionCalls(entries: any[]): ActionCall[] {
  const calls: ActionCall[] = [];
  const count = new Map<string, number>();
  for (const e of entries) {
    const state = e.details?.state_name;
    if (!state || !e.code.startsWith('Action')) continue;
    if (e.code === 'ActionStarted') {
      const attempt = (count.get(state) ?? 0) + 1;
      count.set(state, attempt);
      calls.push({ state, attempt, where: '', why: '', outcome: 'running', failure: '' });
      continue;
    }
    const id = e.details?.action_id;
    const call = calls.find(c => c.state === state && id && c.actionId === id)
      ?? calls.find(c => c.state === state && !c.actionId && c.outcome === 'running')
      ?? calls.filter(c => c.state === state).pop();
    if (!call) continue;
    if (id) call.actionId = id;
    const d = e.details?.details;
    call.where = placeOf(d) || call.where;
    const reasons = d?.placement?.reasons;
    if (Array.isArray(reasons) && reasons.length) call.why = reasons.slice(0, 2).join('; ');
    if (ENDED[e.code]) call.outcome = ENDED[e.code];
    if (e.code === 'ActionFailed') call.failure = failureWords(e) || e.description;
  }
  return calls;
}

/** The calls that say where they ran (or failed), the latest 20, each attempt on its own line. */
export function actionCallList(entries: any[]): TemplateResult | string {
  const calls = actionCalls(entries).filter(c => c.where);
  const several = new Set(calls.filter(c => c.attempt > 1).map(c => c.state));
  if (calls.length === 0) return '';
  return html`<ul class="ran">${calls.slice(-20).map(c => html`<li data-state=${c.state} data-attempt=${c.attempt}>
    ${c.state}${several.has(c.state) ? `, attempt ${c.attempt}` : ''}: ${c.outcome === 'running' ? 'running on' : 'ran on'} <strong>${c.where}</strong>
    ${c.outcome !== 'running' ? ` — ${c.outcome}` : ''}${c.why ? html`<br><small>Why: ${c.why}</small>` : ''}</li>`)}</ul>`;
}
