// A flow as a graph: states laid out top-down by dagre (a kept layered-layout library), drawn as SVG so every
// state is an element the browser (and its tests, and screen readers) can address.
import { html, svg, TemplateResult } from 'lit';
// the WebJar ships the browser bundle (dagre with graphlib and lodash inside)
import dagre from 'dagre/dist/dagre.min.js';
import { stoppedText, type Counts, type Group } from './groups';

export type StateStatus = 'pending' | 'running' | 'succeeded' | 'failed' | 'stopped';

export interface GraphState { name: string; type: string; status: StateStatus; current: boolean; errors: string[]; }

interface Edge { from: string; to: string; label?: string; }

const NODE_W = 170;
const NODE_H = 44;
const GROUP_H = 62; // a Map or Parallel node: name, type and total, then a bar of its iterations by status

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

export function flowGraph(definition: any, states: GraphState[], onSelect?: (name: string) => void,
                          groups: Group[] = [], expanded: ReadonlySet<string> = new Set()): TemplateResult {
  const g = new dagre.graphlib.Graph();
  g.setGraph({ rankdir: 'TB', nodesep: 30, ranksep: 40, marginx: 10, marginy: 10 });
  g.setDefaultEdgeLabel(() => ({}));
  const known = new Set(states.map(s => s.name));
  const groupOf = new Map(groups.map(gr => [gr.name, gr]));
  states.forEach(s => g.setNode(s.name, { width: NODE_W, height: groupOf.has(s.name) ? GROUP_H : NODE_H }));
  const edges: (Edge & { inner?: boolean })[] = edgesOf(definition).filter(e => known.has(e.from) && known.has(e.to));
  // an expanded group shows its sub-flow's states (a few, whatever the number of items) below it, with their counts
  const inner: { id: string; group: Group; name: string; type: string; counts: Counts }[] = [];
  for (const gr of groups.filter(gr => expanded.has(gr.name))) {
    const id = (n: string) => `${gr.name}/${n}`;
    gr.inner.forEach(i => { inner.push({ id: id(i.name), group: gr, ...i }); g.setNode(id(i.name), { width: NODE_W, height: NODE_H }); });
    gr.startAt.forEach(s => edges.push({ from: gr.name, to: id(s), inner: true }));
    gr.innerEdges.forEach(e => edges.push({ from: id(e.from), to: id(e.to), inner: true }));
  }
  edges.forEach(e => g.setEdge(e.from, e.to));
  dagre.layout(g);
  const size = g.graph();
  const start = definition?.StartAt;
  const width = Math.max(size.width ?? 0, 200);
  const height = Math.max(size.height ?? 0, 60);
  const key = (ev: KeyboardEvent, name: string) => (ev.key === 'Enter' || ev.key === ' ') && (ev.preventDefault(), onSelect?.(name));
  return html`<svg class="flow-graph" role="group" aria-label="Flow graph: one button per state" width=${width}
      height=${height} viewBox="0 0 ${width} ${height}">
    <defs><marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto">
      <path d="M0,0 L10,5 L0,10 z" fill="#555"></path></marker></defs>
    ${edges.map(e => {
      const points = g.edge(e.from, e.to)?.points ?? [];
      return svg`<polyline class="edge${e.inner ? ' inner' : ''}" points=${points.map((p: any) => `${p.x},${p.y}`).join(' ')}
        fill="none" stroke="#555" stroke-width="1.5" stroke-dasharray=${e.inner ? '4 3' : 'none'} marker-end="url(#arrow)"></polyline>`;
    })}
    ${states.map(s => {
      const n = g.node(s.name);
      const group = groupOf.get(s.name);
      const h = group ? GROUP_H : NODE_H;
      const x = n.x - NODE_W / 2;
      const y = n.y - h / 2;
      const label = `${s.name} (${s.type}): ${s.status}${s.current ? ', current' : ''}${s.name === start ? ', start' : ''}`
        + (group ? `; ${group.total} ${group.type === 'Map' ? 'items' : 'branches'}: ${countsText(group.counts)}` : '')
        + (s.errors.length ? `; problems: ${s.errors.join('; ')}` : '');
      return svg`<g class="node status-${s.status}${s.current ? ' current' : ''}${s.errors.length ? ' invalid' : ''}${group ? ' group' : ''}"
          data-state=${s.name} data-status=${s.status} tabindex="0" role="button" aria-label=${label}
          @click=${() => onSelect?.(s.name)} @keydown=${(ev: KeyboardEvent) => key(ev, s.name)}>
        <title>${label}</title>
        <rect x=${x} y=${y} width=${NODE_W} height=${h} rx="6"></rect>
        <text x=${n.x} y=${y + 17} text-anchor="middle" class="name">${truncate(s.name, 22)}</text>
        <text x=${n.x} y=${y + 33} text-anchor="middle" class="type">${s.type}${group ? ` × ${group.total}` : ''}${s.errors.length ? ' ⚠' : ''}</text>
        ${group ? countsBar(x + 8, y + 42, NODE_W - 16, group.counts, group.total) : ''}
      </g>`;
    })}
    ${inner.map(i => {
      const n = g.node(i.id);
      const status = i.counts.failed ? 'failed' : i.counts.running ? 'running' : i.counts.succeeded ? 'succeeded' : 'pending';
      const label = `${i.name} (${i.type}) in ${i.group.name}: ${countsText(i.counts, true)}`;
      return svg`<g class="node inner status-${status}" data-state=${i.id} data-status=${status} tabindex="0" role="button"
          aria-label=${label} @click=${() => onSelect?.(i.id)} @keydown=${(ev: KeyboardEvent) => key(ev, i.id)}>
        <title>${label}</title>
        <rect x=${n.x - NODE_W / 2} y=${n.y - NODE_H / 2} width=${NODE_W} height=${NODE_H} rx="6"></rect>
        <text x=${n.x} y=${n.y - 3} text-anchor="middle" class="name">${truncate(i.name, 22)}</text>
        <text x=${n.x} y=${n.y + 13} text-anchor="middle" class="type counts">✓${i.counts.succeeded} ▶${i.counts.running} ✗${i.counts.failed}</text>
      </g>`;
    })}
  </svg>`;
}

function countsText(c: Counts, withoutPending = false): string {
  return `${c.succeeded} succeeded, ${c.running} running, ${c.failed} failed` + (withoutPending ? '' : `, ${c.pending} pending`)
    + stoppedText(c);
}

/** The iterations as one stacked bar: succeeded, running, failed, stopped, pending, each as wide as its share. */
function countsBar(x: number, y: number, w: number, c: Counts, total: number) {
  const parts: [keyof Counts, number][] = [['succeeded', c.succeeded], ['running', c.running], ['failed', c.failed], ['stopped', c.stopped], ['pending', c.pending]];
  let at = x;
  return svg`<g class="counts-bar" aria-hidden="true">${parts.map(([k, v]) => {
    const part = total > 0 ? (v / total) * w : 0;
    const bar = svg`<rect class="bar-${k}" x=${at} y=${y} width=${part} height="10"></rect>`;
    at += part;
    return bar;
  })}</g>`;
}

function truncate(text: string, n: number): string {
  return text.length > n ? text.slice(0, n - 1) + '…' : text;
}

/** Each state's status from the run's event log: <Type>Started / Completed / Failed events name their state. */
export function statesFromLog(definition: any, entries: any[], runStatus: string): GraphState[] {
  const statuses = new Map<string, StateStatus>();
  const topLevel = definition?.States ?? {};
  let last: string | undefined;
  for (const e of entries) {
    const name = e.details?.state_name;
    if (!name || !(name in topLevel)) continue; // inner states of Map and Parallel are counted by groupsOf
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
