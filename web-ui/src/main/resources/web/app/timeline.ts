// The run page's timeline: one bar per attempt of each state (a redriven run's attempts apart, a top-level state
// entered again apart), drawn against a time axis from the run's first state to its last event — or to now while the
// run goes on, so a running state's bar grows as it runs (the element redraws itself every second, not the page).
import { html, render, TemplateResult } from 'lit';
import { duration } from './shell';

export interface Span { state: string; attempt: number; start: number; end: number; status: 'running' | 'succeeded' | 'failed'; }

/** The most bars drawn: a Choice loop entered a thousand times shows its latest ones. */
const MOST = 200;

/**
 * The spans of the log's states. A new bar starts for a state when the run was redriven since its last one
 * (FlowRedriven), and, for a top-level state, when its last one had ended and it starts again (a loop). An inner state
 * of a Map or Parallel keeps one bar per attempt of the run, however many items run it.
 */
export function timelineSpans(entries: any[], topLevel: Set<string>): Span[] {
  const spans: Span[] = [];
  const open = new Map<string, Span>();
  let attempt = 1;
  for (const e of entries) {
    if (e.code === 'FlowRedriven') {
      attempt++;
      open.clear();
      continue;
    }
    const name = e.details?.state_name;
    if (!name || e.code.startsWith('Flow')) continue; // the run's own events name the last state: not the state's
    const t = Date.parse(e.time);
    let s = open.get(name);
    if (!s || (topLevel.has(name) && s.status !== 'running' && /Started$/.test(e.code))) {
      s = { state: name, attempt, start: t, end: t, status: 'running' };
      open.set(name, s);
      spans.push(s);
    }
    s.end = Math.max(s.end, t);
    s.status = /Failed$/.test(e.code) ? 'failed' : /Completed$/.test(e.code) ? 'succeeded' : 'running';
  }
  return spans.slice(-MOST);
}

/** A time on the axis, from the timeline's start: "0 s", "45 s", "1 min 30 s", "2 h 5 min". */
export function offsetText(ms: number): string {
  return ms <= 0 ? '0 s'
    : duration(new Date(0).toISOString(), new Date(Math.round(ms / 1000) * 1000).toISOString()).replace(/ 0 s$/, '');
}

const STEPS_S = [1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 10800, 21600, 43200, 86400];

/** Ticks for a timeline this long: a round step giving at most six of them, from 0. */
export function axisTicks(totalMs: number): number[] {
  const step = (STEPS_S.find(s => totalMs / (s * 1000) <= 6) ?? Math.ceil(totalMs / 6000)) * 1000;
  const ticks: number[] = [];
  for (let t = 0; t <= totalMs; t += step) ticks.push(t);
  return ticks;
}

/** How long from one time to another, in words ("under 1 s", "32 s"). */
function lasted(from: number, to: number): string {
  return duration(new Date(from).toISOString(), new Date(to).toISOString());
}

/** A bar's name: the state, its attempt once the run was redriven, and which time it was entered when it was more than once. */
function labels(spans: Span[]): string[] {
  const redriven = spans.some(s => s.attempt > 1);
  const count = new Map<string, number>();
  spans.forEach(s => count.set(`${s.attempt}/${s.state}`, (count.get(`${s.attempt}/${s.state}`) ?? 0) + 1));
  const seen = new Map<string, number>();
  return spans.map(s => {
    const key = `${s.attempt}/${s.state}`;
    const nth = (seen.get(key) ?? 0) + 1;
    seen.set(key, nth);
    return `${s.state}${redriven ? ` (attempt ${s.attempt})` : ''}${count.get(key)! > 1 ? ` #${nth}` : ''}`;
  });
}

export class TimelineElement extends HTMLElement {
  private spansValue: Span[] = [];
  private liveValue = false;
  private timer?: number;
  /**
   * How far the engine's clock runs ahead of this browser's, at least: the newest event's time past the browser's
   * now. Running bars end at the engine's now, or a clock behind the engine's would keep them at "under 1 s".
   */
  private aheadMs = 0;

  set spans(value: Span[]) {
    this.spansValue = value;
    const newest = Math.max(...value.map(s => s.end).filter(t => Number.isFinite(t)), -Infinity);
    this.aheadMs = Math.max(this.aheadMs, newest - Date.now(), 0);
    this.draw();
  }

  /** While the run goes on, running bars end at now and the element redraws itself every second. */
  set live(value: boolean) {
    this.liveValue = value;
    this.tick();
    this.draw();
  }

  connectedCallback(): void {
    this.tick();
    this.draw();
  }

  disconnectedCallback(): void {
    window.clearInterval(this.timer);
    this.timer = undefined;
  }

  private tick(): void {
    if (this.liveValue && this.isConnected) this.timer ??= window.setInterval(() => this.draw(), 1000);
    else {
      window.clearInterval(this.timer);
      this.timer = undefined;
    }
  }

  private draw(): void {
    if (!this.isConnected) return;
    render(this.template(), this);
  }

  private template(): TemplateResult {
    const spans = this.spansValue;
    if (spans.length === 0) return html`<p>No state has started yet.</p>`;
    const now = Date.now() + this.aheadMs;
    const endOf = (s: Span) => (s.status === 'running' && this.liveValue ? Math.max(now, s.end) : s.end);
    const t0 = Math.min(...spans.map(s => s.start));
    const t1 = Math.max(...spans.map(endOf), t0 + 1000);
    const total = t1 - t0;
    const pct = (ms: number) => `${((ms / total) * 100).toFixed(3)}%`;
    const names = labels(spans);
    return html`<ol class="timeline">
      <li class="tl-axis" aria-hidden="true"><span class="tl-name"></span><span class="tl-track tl-ticks">${axisTicks(total).map(t =>
        html`<span class="tl-tick" style="left:${pct(t)}">${offsetText(t)}</span>`)}</span><span class="tl-time"></span></li>
      ${spans.map((s, i) => {
        const label = names[i];
        const took = lasted(s.start, endOf(s));
        return html`<li data-state=${s.state} data-attempt=${s.attempt} data-status=${s.status}>
          <span class="tl-name">${label}</span>
          <span class="tl-track"><span class="tl-bar status-${s.status}" style="left:${pct(s.start - t0)};width:max(${pct(endOf(s) - s.start)}, 2px)"
            title="${label}: ${took}, from ${offsetText(s.start - t0)}"></span></span>
          <span class="tl-time">${took}${s.status === 'running' ? ', running' : ''}</span></li>`;
      })}</ol>`;
  }
}

customElements.define('continuum-timeline', TimelineElement);
