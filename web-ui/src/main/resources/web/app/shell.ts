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

/** The engine says on each run what the caller may do to it now (user_actions); the UI repeats no access rule. */
export function canManage(run: any): boolean {
  return (run.user_actions ?? []).includes('cancel');
}

const STARTS = ['flow_owner', 'flow_administrator', 'flow_starter'];

export function canStart(flow: any): boolean {
  return (flow.user_roles ?? []).some((r: string) => STARTS.includes(r));
}

export function statusBadge(status: string): TemplateResult {
  return html`<span class="badge status-${status.toLowerCase()}">${status}</span>`;
}

/** A JSON document, scrollable in itself; focusable, so a keyboard user can scroll a long one (axe: scrollable-region-focusable). */
export function json(value: unknown): TemplateResult {
  return html`<pre class="json" tabindex="0">${JSON.stringify(value, null, 2)}</pre>`;
}

/** How long from start to end (now, for a run still going), in words a person reads at a glance: "4 min 12 s". */
export function duration(start: string, end?: string): string {
  const seconds = Math.max(0, Math.round(((end ? Date.parse(end) : Date.now()) - Date.parse(start)) / 1000));
  if (seconds === 0) return 'under 1 s';
  if (seconds < 60) return `${seconds} s`;
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min ${seconds % 60} s`;
  return `${Math.floor(seconds / 3600)} h ${Math.floor((seconds % 3600) / 60)} min`;
}

/** A time as the page shows it, or nothing for none. */
export function localTime(time?: string): string {
  return time ? new Date(time).toLocaleString() : '';
}

/**
 * Which runs one sees, as the engine decides (docs/auth.md, "Roles on flows and runs"; as in Globus): by the run's and
 * its flow's roles, not by the realm role — an administrator of Continuum (continuum-admin) sees only the runs whose
 * roles name them. Said on the runs page and where a run is not shown, to administrators, who might expect more.
 */
export function runVisibilityNote(app: App): TemplateResult | string {
  return when(app.roles().includes('continuum-admin'), () => html`<p class="notice" id="run-visibility">You see the runs you
    started and those whose roles name you: the run's managers and monitors, the flow's owners, administrators, run managers
    and run monitors. Being a Continuum administrator (continuum-admin) shows no one else's runs; to follow someone's run,
    ask its owner to add you as a run monitor (<code>continuum runs update RUN_ID --monitor ${app.user()}</code>, which replaces the run's monitors).</p>`);
}

/** What a user reaches by URL on a page their realm role does not offer them: the answer a hidden object gets. */
export class NotOfferedPage {
  constructor(private readonly title: string) {}

  async load(): Promise<void> {}

  dispose(): void {}

  render(): TemplateResult {
    return html`<h1>${this.title}</h1><p role="alert" class="error" id="not-offered">No such page, or you may not see it.</p>`;
  }
}
