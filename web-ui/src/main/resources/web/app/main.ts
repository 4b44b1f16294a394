// Entry point: read the engine's UI config, sign in (PKCE), then route on the URL's hash.
import { html, render, TemplateResult } from 'lit';
import { Session, UiConfig } from './auth';
import { useSession } from './api';
import { FlowPage, FlowsPage, NewFlowPage } from './flows';
import { GrantsPage } from './grants';
import { RunDetailPage } from './run-detail';
import { filtersOf, RunsPage } from './runs';
import { DevicesPage } from './devices';
import { SimulatorPage } from './simulator';
import { TransfersPage } from './transfers';
import { TriggerPage, TriggersPage } from './triggers';
import { App, NotOfferedPage } from './shell';
import './style.css';

/**
 * The main navigation. The realm role decides which pages a user is offered: the devices and clusters page is an
 * operator's view (continuum-admin). The engine and the planner still check every call; with authentication off
 * (a laptop), every page shows.
 */
const PAGES: { path: string; title: string; role: string }[] = [
  { path: 'runs', title: 'Runs', role: 'continuum-user' },
  { path: 'flows', title: 'Flows', role: 'continuum-user' },
  { path: 'triggers', title: 'Triggers', role: 'continuum-user' },
  { path: 'transfers', title: 'Transfers', role: 'continuum-user' },
  { path: 'devices', title: 'Devices & clusters', role: 'continuum-admin' },
  { path: 'simulator', title: 'Simulator', role: 'continuum-user' },
  { path: 'grants', title: 'Offline grants', role: 'continuum-user' },
];

interface Page { load(): Promise<void>; render(): TemplateResult; dispose(): void; }

class Ui implements App {
  private page?: Page;

  constructor(private readonly session: Session) {}

  user(): string {
    return this.session.user();
  }

  roles(): string[] {
    return this.session.claims().realm_access?.roles ?? [];
  }

  route(): void {
    this.page?.dispose();
    const [path, query] = (location.hash.replace(/^#/, '') || '/runs').split('?');
    const parts = path.split('/').filter(Boolean);
    if (parts[0] === 'flows' && parts[1] === 'new') this.page = new NewFlowPage(this);
    else if (parts[0] === 'flows' && parts[1]) this.page = new FlowPage(this, parts[1]);
    else if (parts[0] === 'flows') this.page = new FlowsPage(this);
    else if (parts[0] === 'runs' && parts[1]) this.page = new RunDetailPage(this, parts[1]);
    else if (parts[0] === 'triggers' && parts[1]) this.page = new TriggerPage(this, parts[1]);
    else if (parts[0] === 'triggers') this.page = new TriggersPage(this);
    // a page the navigation hides from this user is not reached by typing its URL either: the same answer as a 404
    else if (!this.offered(parts[0])) this.page = new NotOfferedPage(PAGES.find(p => p.path === parts[0])!.title);
    else if (parts[0] === 'devices') this.page = new DevicesPage(this);
    else if (parts[0] === 'transfers') this.page = new TransfersPage(this);
    else if (parts[0] === 'simulator') this.page = new SimulatorPage(this);
    else if (parts[0] === 'grants') this.page = new GrantsPage(this);
    else this.page = new RunsPage(this, filtersOf(new URLSearchParams(query ?? '')));
    this.refresh();
    this.page.load();
  }

  /** Whether the navigation offers this page to the user; paths not in it (a run, the runs list) always are. */
  private offered(path: string): boolean {
    const page = PAGES.find(p => p.path === path);
    return !page || !this.session.config.auth_enabled || this.roles().includes(page.role);
  }

  refresh(): void {
    const here = location.hash.split('/')[1]?.split('?')[0] ?? 'runs';
    render(html`
      <header class="top"><a class="brand" href="#/runs">Continuum</a>
        <nav aria-label="Main">${PAGES.filter(p => this.offered(p.path)).map(p =>
          html`<a href="#/${p.path}" aria-current=${here === p.path ? 'page' : 'false'}>${p.title}</a>`)}</nav>
        <span class="who">Signed in as <strong id="user">${this.user()}</strong>
          ${this.session.config.auth_enabled ? html`<button class="link" @click=${() => this.session.signOut()}>Sign out</button>` : ''}</span>
      </header>
      <main id="main">${this.page?.render() ?? ''}</main>`, document.getElementById('app')!);
  }
}

async function boot(): Promise<void> {
  const config = (await (await fetch('/ui/config.json')).json()) as UiConfig;
  const session = new Session(config);
  useSession(session);
  if (!(await session.start())) {
    await session.signIn();
  }
  document.getElementById('app')!.textContent = ''; // lit renders beside what is there: drop the "Loading" text
  const ui = new Ui(session);
  addEventListener('hashchange', () => ui.route());
  ui.route();
}

boot().catch(e => {
  document.getElementById('app')!.textContent = `Continuum could not start: ${e.message}`;
});
