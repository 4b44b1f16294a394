// Shared bits of every page: the app interface pages re-render through, navigation and small helpers.
import { html, TemplateResult } from 'lit';

export interface App {
  refresh(): void;
  user(): string;
  roles(): string[];
}

export function navigate(hash: string): void {
  location.hash = hash;
}

export function when(condition: unknown, template: () => TemplateResult): TemplateResult | string {
  return condition ? template() : '';
}

const MANAGES = ['run_owner', 'run_manager', 'flow_run_manager'];

/** The engine reports the caller's roles on each run; only these may cancel, resume or release it. */
export function canManage(run: any): boolean {
  return (run.user_roles ?? []).some((r: string) => MANAGES.includes(r));
}

const STARTS = ['flow_owner', 'flow_administrator', 'flow_starter'];

export function canStart(flow: any): boolean {
  return (flow.user_roles ?? []).some((r: string) => STARTS.includes(r));
}

export function statusBadge(status: string): TemplateResult {
  return html`<span class="badge status-${status.toLowerCase()}">${status}</span>`;
}

export function json(value: unknown): TemplateResult {
  return html`<pre class="json">${JSON.stringify(value, null, 2)}</pre>`;
}
