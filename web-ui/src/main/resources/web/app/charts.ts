// Line charts with uPlot (canvas, ~50 kB): one <continuum-chart> element per plot, lines given as [x, y] points.
// Each chart is a figure with a caption, and the canvas carries a text summary for screen readers.
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';

export interface Line { label: string; points: number[][]; }

export interface ChartSpec {
  title: string;
  x: 'time' | string; // 'time': x is Unix seconds; otherwise the x axis' label
  y: string;
  lines: Line[];
  yRange?: [number, number];
}

// colour-blind-safe (Okabe–Ito), dark enough on white for the 3:1 that graphics need
const COLOURS = ['#0072b2', '#d55e00', '#009e73', '#cc79a7', '#8a6d00', '#56b4e9', '#000000'];

/** Title, the x axis (its label and range, unless it is time) and each line's range of y. */
function summary(spec: ChartSpec): string {
  const xs = spec.lines.flatMap(l => l.points.map(p => p[0])).filter(v => Number.isFinite(v));
  const x = spec.x === 'time' || xs.length === 0 ? ''
    : ` (x axis: ${spec.x} from ${fmt(Math.min(...xs))} to ${fmt(Math.max(...xs))})`;
  return `${spec.title}${x}: ` + spec.lines.map(l => {
    const ys = l.points.map(p => p[1]).filter(v => Number.isFinite(v));
    return ys.length ? `${l.label} from ${fmt(Math.min(...ys))} to ${fmt(Math.max(...ys))} over ${ys.length} points`
      : `${l.label} no data`;
  }).join('; ');
}

function fmt(v: number): string {
  return Math.abs(v) >= 100 ? v.toFixed(0) : v.toPrecision(3);
}

export class ChartElement extends HTMLElement {
  private plot?: uPlot;
  private current?: ChartSpec;

  set spec(spec: ChartSpec) {
    if (spec === this.current) return;
    this.current = spec;
    this.draw();
  }

  connectedCallback(): void {
    this.draw();
  }

  disconnectedCallback(): void {
    this.plot?.destroy();
    this.plot = undefined;
  }

  private draw(): void {
    const spec = this.current;
    if (!spec || !this.isConnected) return;
    this.plot?.destroy();
    this.textContent = '';
    const lines = spec.lines.filter(l => l.points.length > 0);
    this.dataset.lines = String(lines.length);
    if (lines.length === 0) {
      this.textContent = 'No data.';
      return;
    }
    // uPlot wants one shared x array: join the lines' own x values, gaps become null
    const data = uPlot.join(lines.map(l => [l.points.map(p => p[0]), l.points.map(p => p[1])] as uPlot.AlignedData));
    const width = Math.max(320, Math.min(this.parentElement?.clientWidth ?? 640, 900));
    this.plot = new uPlot({
      width, height: 260,
      scales: { x: { time: spec.x === 'time' }, y: spec.yRange ? { range: spec.yRange } : {} },
      axes: [{ label: spec.x === 'time' ? undefined : spec.x }, { label: spec.y }],
      series: [{}, ...lines.map((l, i) => ({ label: l.label, stroke: COLOURS[i % COLOURS.length], width: 2, spanGaps: true }))],
    }, data, this);
    const canvas = this.querySelector('canvas');
    canvas?.setAttribute('role', 'img');
    canvas?.setAttribute('aria-label', summary(spec));
  }
}

customElements.define('continuum-chart', ChartElement);
