// A flow as a graph: states laid out top-down by dagre (a kept layered-layout library), drawn as SVG so every
// state is an element the browser (and its tests, and screen readers) can address.
import { html, svg, TemplateResult } from 'lit';
// the WebJar ships the browser bundle (dagre with graphlib and lodash inside)
import dagre from 'dagre/dist/dagre.min.js';

export type StateStatus = 'pending' | 'running' | 'succeeded' | 'failed' | 'stopped';

export interface GraphState { name: string; type: string; status: StateStatus; current: boolean; errors: string[]; }

interface Edge { from: string; to: string; label?: string; }

const NODE_W = 170;
const NODE_H = 44;

/** The transitions of a flow definition: Next, Default, Choices and Catch targets. */
export function edgesOf(definition: any): Edge[] {
  const edges: Edge[] = [];
  const states = definition?.States ?? {};
  for (const [name, state] of Object.entries<any>(states)) {
    if (typeof state?.Next === 'string') edges.push({ from: name, to: state.Next });
    if (typeof state?.Default === 'string') edges.push({ from: name, to: state.Default, label: 'default' });
    for (const choice of Array.isArray(state?.Choices) ? state.Choices : []) {
      if (typeof choice?.Next === 'string') edges.push({ from: name, to: choice.Next, label: 'choice' });
    }
    for (const c of Array.isArray(state?.Catch) ? state.Catch : []) {
      if (typeof c?.Next === 'string') edges.push({ from: name, to: c.Next, label: 'catch' });
    }
  }
  return edges;
}

export function flowGraph(definition: any, states: GraphState[], onSelect?: (name: string) => void): TemplateResult {
  const g = new dagre.graphlib.Graph();
  g.setGraph({ rankdir: 'TB', nodesep: 30, ranksep: 40, marginx: 10, marginy: 10 });
  g.setDefaultEdgeLabel(() => ({}));
  const known = new Set(states.map(s => s.name));
  states.forEach(s => g.setNode(s.name, { width: NODE_W, height: NODE_H }));
  const edges = edgesOf(definition).filter(e => known.has(e.from) && known.has(e.to));
  edges.forEach(e => g.setEdge(e.from, e.to));
  dagre.layout(g);
  const size = g.graph();
  const start = definition?.StartAt;
  return html`<svg class="flow-graph" role="group" aria-label="Flow graph: one button per state" width=${Math.max(size.width ?? 0, 200)}
      height=${Math.max(size.height ?? 0, 60)} viewBox="0 0 ${Math.max(size.width ?? 0, 200)} ${Math.max(size.height ?? 0, 60)}">
    <defs><marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto">
      <path d="M0,0 L10,5 L0,10 z" fill="#555"></path></marker></defs>
    ${edges.map(e => {
      const points = g.edge(e.from, e.to)?.points ?? [];
      return svg`<polyline class="edge" points=${points.map((p: any) => `${p.x},${p.y}`).join(' ')}
        fill="none" stroke="#555" stroke-width="1.5" marker-end="url(#arrow)"></polyline>`;
    })}
    ${states.map(s => {
      const n = g.node(s.name);
      const x = n.x - NODE_W / 2;
      const y = n.y - NODE_H / 2;
      const label = `${s.name} (${s.type}): ${s.status}${s.current ? ', current' : ''}${s.name === start ? ', start' : ''}`
        + (s.errors.length ? `; problems: ${s.errors.join('; ')}` : '');
      return svg`<g class="node status-${s.status}${s.current ? ' current' : ''}${s.errors.length ? ' invalid' : ''}"
          data-state=${s.name} data-status=${s.status} tabindex="0" role="button" aria-label=${label}
          @click=${() => onSelect?.(s.name)} @keydown=${(ev: KeyboardEvent) => (ev.key === 'Enter' || ev.key === ' ') && onSelect?.(s.name)}>
        <title>${label}</title>
        <rect x=${x} y=${y} width=${NODE_W} height=${NODE_H} rx="6"></rect>
        <text x=${n.x} y=${n.y - 3} text-anchor="middle" class="name">${truncate(s.name, 22)}</text>
        <text x=${n.x} y=${n.y + 13} text-anchor="middle" class="type">${s.type}${s.errors.length ? ' ⚠' : ''}</text>
      </g>`;
    })}
  </svg>`;
}

function truncate(text: string, n: number): string {
  return text.length > n ? text.slice(0, n - 1) + '…' : text;
}

/** Each state's status from the run's event log: <Type>Started / Completed / Failed events name their state. */
export function statesFromLog(definition: any, entries: any[], runStatus: string): GraphState[] {
  const statuses = new Map<string, StateStatus>();
  let last: string | undefined;
  for (const e of entries) {
    const name = e.details?.state_name;
    if (!name) continue;
    if (/Failed$/.test(e.code)) statuses.set(name, 'failed');
    else if (/Completed$/.test(e.code)) statuses.set(name, 'succeeded');
    else if (/Started$/.test(e.code)) statuses.set(name, 'running');
    last = name;
  }
  const active = runStatus === 'ACTIVE' || runStatus === 'INACTIVE';
  return Object.entries<any>(definition?.States ?? {}).map(([name, state]) => {
    const seen = statuses.get(name) ?? 'pending';
    // a state still running when the run ended (cancelled, failed elsewhere) was stopped, not left running
    const status: StateStatus = !active && seen === 'running' ? 'stopped' : seen;
    return { name, type: state?.Type ?? '?', status, current: active && status === 'running' && name === last, errors: [] };
  });
}
