// Human input (docs/api.md, "Human input"): the forms an INACTIVE run waits on, each generated from its JSON schema by
// the start form's generator, checked before it is sent, with the engine's own field errors shown under their
// fields. Whoever may not answer is told why in the engine's words (its 403), and who may.
import { html, TemplateResult } from 'lit';
import { api, ApiError, FieldIssue } from './api';
import { emptyForm, fieldKeys, FormState, formProblems, placeErrors, schemaFields, validate } from './schema-form';
import { when } from './shell';

interface Waiting {
  input: any;          // the form as the run lists it (details.inputs), then as GET /runs/{id}/inputs/{state} answers
  form?: FormState;    // only for those who may answer
  refusal?: string;    // why this user may not answer
  problems: FieldIssue[]; // the engine's errors that name no field of the form
  sending: boolean;
}

/** A form's starting values: an unticked box is an answer (false), not a missing one. */
function answerForm(schema: any): FormState {
  return emptyForm(schema, true);
}

/** A field shows an error: sending waits for it to be fixed (an untouched empty field is reported on sending instead). */
function shownErrors(form: FormState): boolean {
  return Object.keys(form.errors).some(name => form.touched.has(name));
}

/** A schema the generator can make fields of: an object with properties. Any other answer is typed as JSON. */
function hasFields(schema: any): boolean {
  return Object.keys(schema?.properties ?? {}).length > 0;
}

const JSON_ANSWER = ''; // the key of the typed JSON in a form without fields (a schema property has a name)

/** The JSON typed for a form without fields; undefined when it is not JSON (a null answer is not offered). */
function jsonAnswer(form: FormState): unknown {
  try {
    return JSON.parse(form.values[JSON_ANSWER] ?? '') ?? undefined;
  } catch {
    return undefined;
  }
}

export class HumanInputs {
  private readonly waiting = new Map<string, Waiting>();

  constructor(private readonly runId: string, private readonly changed: () => void,
              private readonly answered: (run: any, state: string) => void) {}

  /** Follows the run's details.inputs: a new form is opened (may this user answer it?), one no longer waiting dropped. */
  async follow(inputs: any[] | undefined): Promise<void> {
    const now = new Set((inputs ?? []).map(i => i.state_name));
    for (const name of [...this.waiting.keys()]) if (!now.has(name)) this.waiting.delete(name);
    await Promise.all((inputs ?? []).filter(i => !this.waiting.has(i.state_name)).map(i => this.open(i)));
  }

  private async open(input: any): Promise<void> {
    const waiting: Waiting = { input, problems: [], sending: false };
    this.waiting.set(input.state_name, waiting); // before the request: a second follow() opens it only once
    try {
      waiting.input = await api(this.path(input.state_name));
      waiting.form = answerForm(waiting.input.schema);
    } catch (e: any) {
      waiting.refusal = e instanceof ApiError && e.status === 403 ? e.detail : e.message;
    }
  }

  private path(state: string): string {
    return `/runs/${this.runId}/inputs/${encodeURIComponent(state)}`;
  }

  private async send(state: string, waiting: Waiting): Promise<void> {
    const schema = waiting.input.schema;
    const form = waiting.form!;
    const answer = hasFields(schema) ? validate(schema, form) : jsonAnswer(form);
    if (answer === null || answer === undefined) {
      fieldKeys(schema).forEach(key => form.touched.add(key)); // show every problem at once
      waiting.problems = answer === undefined ? [{ pointer: '', message: 'The answer is not JSON.' }] : [];
      this.changed();
      return;
    }
    waiting.sending = true;
    waiting.problems = [];
    this.changed();
    try {
      const run = await api(this.path(state), 'POST', answer);
      this.waiting.delete(state);
      this.answered(run, state);
    } catch (e: any) {
      const issues: FieldIssue[] = e instanceof ApiError && e.errors.length ? e.errors : [{ pointer: '', message: e.message }];
      waiting.problems = placeErrors(schema, form, issues);
    }
    waiting.sending = false;
    this.changed();
  }

  render(run: any): TemplateResult {
    return html`${[...this.waiting.entries()].map(([state, waiting], i) => this.section(run, state, waiting, i))}`;
  }

  private section(run: any, state: string, waiting: Waiting, index: number): TemplateResult {
    const input = waiting.input;
    const title = `input-${index}-title`;
    return html`<section class="human-input" data-state=${state} aria-labelledby=${title}>
      <h2 id=${title}>Waiting for input: ${input.title ?? state}</h2>
      ${when(input.description, () => html`<p class="input-description">${input.description}</p>`)}
      ${when(input.expires_at, () => html`<p>Answer before ${new Date(input.expires_at).toLocaleString()}, or the state times out.</p>`)}
      ${waiting.form ? this.answerForm(state, waiting, index) : waiting.refusal === undefined ? html`<p>Opening the form…</p>` : html`
        <p class="input-refusal" role="status">${waiting.refusal}</p>
        <p>May answer: the run's owner ${run.run_owner}, its managers${(input.selectable_by ?? []).length
          ? html` and ${input.selectable_by.join(', ')}` : ''}.</p>`}
    </section>`;
  }

  private answerForm(state: string, waiting: Waiting, index: number): TemplateResult {
    const form = waiting.form!;
    const submit = (ev: Event) => {
      ev.preventDefault();
      this.send(state, waiting);
    };
    return html`<form class="input-form" novalidate @submit=${submit}>
      ${hasFields(waiting.input.schema) ? schemaFields(waiting.input.schema, form, this.changed, `input-${index}`) : html`
        <div class="field"><label for="input-${index}-json">Answer (JSON)</label>
          <textarea id="input-${index}-json" rows="3" aria-describedby="input-${index}-schema" .value=${form.values[JSON_ANSWER] ?? ''}
            @input=${(e: Event) => { form.values[JSON_ANSWER] = (e.target as HTMLTextAreaElement).value; }}></textarea>
          <small id="input-${index}-schema">Schema: ${JSON.stringify(waiting.input.schema)}</small></div>`}
      ${formProblems(waiting.problems)}
      <button type="submit" class="send-input" ?disabled=${waiting.sending || shownErrors(form)}>Send answer</button>
    </form>`;
  }
}
