// Parallel branches and Map iterations, counted from the run's log: a Map of 2,000 items is one node with counts
// per status (and, expanded, its iterator's few states with their own counts), never 2,000 nodes.
import { edgesOf } from './graph';

/** stopped: started but not finished when the run ended (cancelled, failed elsewhere): neither running nor still to come. */
export interface Counts { pending: number; running: number; succeeded: number; failed: number; stopped: number; }

export interface InnerState { name: string; type: string; counts: Counts; }

export interface Group {
  name: string;
  type: 'Map' | 'Parallel';
  /** items (Map) or branches (Parallel) of its latest start; before it started a Parallel's branches, a Map's 0 */
  total: number;
  /** a MapStarted or ParallelStarted is in the log */
  started: boolean;
  counts: Counts;
  startAt: string[];
  inner: InnerState[];
  innerEdges: { from: string; to: string }[];
}

/** The sub-flows of a Map (Iterator or ItemProcessor) or Parallel (Branches) state. */
function subFlows(state: any): any[] {
  if (state?.Type === 'Map') return [state.Iterator ?? state.ItemProcessor].filter(Boolean);
  if (state?.Type === 'Parallel') return Array.isArray(state.Branches) ? state.Branches : [];
  return [];
}

const zero = (): Counts => ({ pending: 0, running: 0, succeeded: 0, failed: 0, stopped: 0 });

/**
 * Counts for each Map and Parallel state of the flow, from its latest MapStarted/ParallelStarted on (a redriven
 * run starts it again). The log names the inner state of each event, not the iteration, so an iteration is
 * counted by where it is: succeeded when an end state of its sub-flow completed, failed when a state failed
 * uncaught and for good (not retried), running while one of its states has started and not finished.
 */
export function groupsOf(definition: any, entries: any[], runActive: boolean): Group[] {
  const groups: Group[] = [];
  for (const [name, state] of Object.entries<any>(definition?.States ?? {})) {
    const flows = subFlows(state);
    if (flows.length === 0) continue;
    const innerDefs = new Map<string, any>();
    const ends = new Set<string>();
    const innerEdges: { from: string; to: string }[] = [];
    for (const flow of flows) {
      for (const [inner, s] of Object.entries<any>(flow?.States ?? {})) {
        innerDefs.set(inner, s);
        if (s?.End === true || s?.Type === 'Succeed') ends.add(inner);
      }
      innerEdges.push(...edgesOf(flow).map(e => ({ from: e.from, to: e.to })));
    }
    let from = -1;
    let total = state.Type === 'Parallel' ? flows.length : 0; // a Map's items are known when it starts
    entries.forEach((e, i) => {
      if (e.details?.state_name === name && (e.code === 'MapStarted' || e.code === 'ParallelStarted')) {
        from = i;
        total = Number(e.details.items ?? e.details.branches ?? /(\d+)/.exec(e.description ?? '')?.[1] ?? 0);
      }
    });
    const per = new Map<string, { started: number; completed: number; failed: number; retried: number; caught: number }>();
    for (const inner of innerDefs.keys()) per.set(inner, { started: 0, completed: 0, failed: 0, retried: 0, caught: 0 });
    if (from >= 0) {
      for (let i = from + 1; i < entries.length; i++) {
        const e = entries[i];
        const c = per.get(e.details?.state_name);
        if (!c) continue;
        if (e.code.endsWith('Started')) c.started++;
        else if (e.code.endsWith('Completed')) c.completed++;
        else if (e.code.endsWith('Failed')) c.failed++;
        else if (e.code === 'ActionRetrying') c.retried++;
        else if (e.code === 'StateCaught') c.caught++;
      }
    }
    const group = zero();
    const inner: InnerState[] = [...innerDefs.entries()].map(([n, s]) => {
      const c = per.get(n)!;
      const failedForGood = Math.max(0, c.failed - c.retried - c.caught);
      const unfinished = Math.max(0, c.started - c.completed - c.failed);
      const running = runActive ? unfinished : 0;
      const stopped = runActive ? 0 : unfinished;
      group.running += running;
      group.stopped += stopped;
      group.failed += failedForGood;
      if (ends.has(n)) group.succeeded += c.completed;
      return { name: n, type: s?.Type ?? '?', counts: { pending: 0, running, succeeded: c.completed, failed: failedForGood, stopped } };
    });
    group.pending = Math.max(0, total - group.succeeded - group.failed - group.running - group.stopped);
    groups.push({
      name, type: state.Type, total, started: from >= 0, counts: group, inner, innerEdges,
      startAt: flows.map(f => f?.StartAt).filter((s: unknown) => typeof s === 'string'),
    });
  }
  return groups;
}

export function describeCounts(c: Counts): string {
  return `${c.succeeded} succeeded, ${c.running} running, ${c.failed} failed, ${c.pending} pending${stoppedText(c)}`;
}

/** ", 2 stopped" when the run ended with items or branches unfinished; nothing otherwise. */
export function stoppedText(c: Counts): string {
  return c.stopped ? `, ${c.stopped} stopped` : '';
}
