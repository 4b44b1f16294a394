// Offline grants (docs/auth.md): the offline access you gave the engine so your runs outlive your sign-in, each with
// the runs acting through it; revoke one (after a confirmation naming the runs that will go INACTIVE), or give a new
// one by consent at the identity provider.
import { html, TemplateResult } from 'lit';
import { api } from './api';
import { App, statusBadge, when } from './shell';

const CONSENT_POLL_MS = 2000;
const CONSENT_VALID_MS = 10 * 60 * 1000; // the engine keeps a begun consent ten minutes

export class GrantsPage {
  private grants: any[] = [];
  private readonly runs = new Map<string, any>(); // the runs acting through a grant, as GET /runs/{id} shows them
  private loaded = false;
  private error = '';
  private notice = '';
  private consentTimer?: number;

  constructor(private readonly app: App) {}

  async load(): Promise<void> {
    try {
      this.grants = (await api<any>('/grants')).grants;
      const ids = [...new Set<string>(this.grants.flatMap(g => g.runs))]; // read again each time: their status changes
      (await Promise.all(ids.map(id => api(`/runs/${id}`).catch(() => ({ run_id: id })))))
        .forEach(run => this.runs.set(run.run_id, run));
      this.error = '';
    } catch (e: any) {
      this.error = e.message;
    }
    this.loaded = true;
    this.app.refresh();
  }

  dispose(): void {
    clearInterval(this.consentTimer);
  }

  private runName(id: string): string {
    const run = this.runs.get(id);
    return run?.label || id;
  }

  private async revoke(grant: any): Promise<void> {
    const going = grant.runs.map((id: string) => this.runName(id));
    const question = going.length
      ? `Revoke this grant? These ${going.length} runs will go INACTIVE at their next provider call: ${going.join(', ')}.`
      : 'Revoke this grant? No run acts through it now.';
    if (!confirm(question)) return;
    try {
      await api(`/grants/${grant.id}`, 'DELETE');
      this.notice = `Grant revoked${going.length ? `; ${going.length} runs will go INACTIVE until you resume them after a new grant` : ''}.`;
    } catch (e: any) {
      this.error = e.message;
    }
    await this.load();
  }

  /**
   * The consent happens at the identity provider, in a new tab (the tab is opened on the click, before the engine
   * answers, so no popup blocker stops it); this page looks for the new grant until it comes or the consent expires.
   */
  private async grantOfflineAccess(): Promise<void> {
    const tab = window.open('about:blank', '_blank');
    try {
      const { authorization_url } = await api<any>('/grants/consent', 'POST');
      if (tab) tab.location.href = authorization_url;
      else location.assign(authorization_url);
    } catch (e: any) {
      tab?.close();
      this.error = e.message;
      this.app.refresh();
      return;
    }
    const known = new Set(this.grants.map(g => g.id));
    const since = Date.now();
    this.notice = 'Sign in and consent in the new tab; the grant appears here once you have.';
    clearInterval(this.consentTimer);
    this.consentTimer = window.setInterval(async () => {
      await this.load();
      if (this.grants.some(g => !known.has(g.id)) || Date.now() - since > CONSENT_VALID_MS) {
        clearInterval(this.consentTimer);
        this.notice = this.grants.some(g => !known.has(g.id)) ? 'Offline access granted.' : 'No new grant came; try again.';
        this.app.refresh();
      }
    }, CONSENT_POLL_MS);
    this.app.refresh();
  }

  render(): TemplateResult {
    const active = this.grants.filter(g => g.status === 'ACTIVE');
    const revoked = this.grants.filter(g => g.status !== 'ACTIVE');
    return html`<h1>Offline grants</h1>
      <p id="grant-terms">With an offline grant, the engine acts as you in the runs you start or resume: it calls the
        providers those flows name with your identity, also while you are signed out. It lasts until you revoke it here,
        or until the identity provider ends it: Keycloak ends a grant unused for the realm's offline session idle time
        and at its offline session maximum (the local realm: 30 days unused, 90 days at most).</p>
      ${when(this.error, () => html`<p role="alert" class="error">${this.error}</p>`)}
      <p role="status" class="notice">${this.notice}</p>
      <button id="grant-offline" @click=${() => this.grantOfflineAccess()}>Grant offline access</button>
      <h2>Active</h2>
      ${!this.loaded ? html`<p>Loading…</p>` : active.length === 0 ? html`<p id="no-grants">You have given no offline access.</p>`
        : this.table('grants-active', 'Your active offline grants', active, true)}
      ${when(revoked.length, () => html`<h2>Revoked</h2>${this.table('grants-revoked', 'Your revoked offline grants', revoked, false)}`)}`;
  }

  private table(id: string, caption: string, grants: any[], revocable: boolean): TemplateResult {
    return html`<div class="table-wrap"><table id=${id} class="grants"><caption class="sr-only">${caption}</caption>
      <thead><tr><th scope="col">Given</th><th scope="col">Status</th><th scope="col">Runs acting through it</th>
        <th scope="col">${revocable ? html`<span class="sr-only">Actions</span>` : 'Revoked'}</th></tr></thead>
      <tbody>${grants.map(g => html`<tr data-grant=${g.id}>
        <td>${new Date(g.created_at).toLocaleString()}</td><td>${statusBadge(g.status)}</td>
        <td>${g.runs.length === 0 ? 'none' : html`<ul class="grant-runs">${g.runs.map((r: string) => html`<li>
          <a href="#/runs/${r}">${this.runName(r)}</a> ${this.runs.get(r)?.status ? statusBadge(this.runs.get(r).status) : ''}</li>`)}</ul>`}</td>
        <td>${revocable ? html`<button class="danger revoke" aria-label="Revoke the grant given ${new Date(g.created_at).toLocaleString()}"
          @click=${() => this.revoke(g)}>Revoke</button>` : html`${new Date(g.revoked_at).toLocaleString()} by ${g.revoked_by}`}</td>
      </tr>`)}</tbody></table></div>`;
  }
}
