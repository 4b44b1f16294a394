// A start form generated from a flow's input_schema (JSON Schema): one field per property, checked as you type
// with the schema's own rules (type, required, enum, bounds, length, pattern); the engine checks again on start.
import { html, TemplateResult } from 'lit';

export interface FormState { values: Record<string, string>; errors: Record<string, string>; touched: Set<string>; }

export function emptyForm(schema: any): FormState {
  const values: Record<string, string> = {};
  for (const [name, prop] of Object.entries<any>(schema?.properties ?? {})) {
    values[name] = prop?.default !== undefined ? (typeof prop.default === 'string' ? prop.default : JSON.stringify(prop.default)) : '';
  }
  return { values, errors: {}, touched: new Set() };
}

function typeOf(prop: any): string {
  return Array.isArray(prop?.type) ? prop.type.find((t: string) => t !== 'null') ?? 'string' : prop?.type ?? 'string';
}

/** The field's value as JSON, or an error message. Empty optional fields are left out (undefined). */
export function parseField(name: string, prop: any, text: string, required: boolean): { value?: unknown; error?: string } {
  const type = typeOf(prop);
  if (text.trim() === '' && type !== 'string') return required ? { error: `${name} is required.` } : {};
  if (text === '' && required && type === 'string') return { error: `${name} is required.` };
  if (text === '' && type === 'string') return {};
  let value: unknown = text;
  if (type === 'integer' || type === 'number') {
    const n = Number(text);
    if (!Number.isFinite(n)) return { error: `${name} must be a number.` };
    if (type === 'integer' && !Number.isInteger(n)) return { error: `${name} must be a whole number.` };
    if (prop.minimum !== undefined && n < prop.minimum) return { error: `${name} must be at least ${prop.minimum}.` };
    if (prop.maximum !== undefined && n > prop.maximum) return { error: `${name} must be at most ${prop.maximum}.` };
    value = n;
  } else if (type === 'boolean') {
    value = text === 'true';
  } else if (type === 'object' || type === 'array') {
    try {
      value = JSON.parse(text);
    } catch {
      return { error: `${name} must be JSON (${type}).` };
    }
    if (type === 'array' ? !Array.isArray(value) : typeof value !== 'object' || value === null || Array.isArray(value)) {
      return { error: `${name} must be a JSON ${type}.` };
    }
  } else {
    if (prop.minLength !== undefined && text.length < prop.minLength) return { error: `${name} needs at least ${prop.minLength} characters.` };
    if (prop.maxLength !== undefined && text.length > prop.maxLength) return { error: `${name} allows at most ${prop.maxLength} characters.` };
    if (prop.pattern && !new RegExp(prop.pattern, 'u').test(text)) return { error: `${name} must match ${prop.pattern}.` };
  }
  if (Array.isArray(prop.enum) && !prop.enum.some((v: unknown) => JSON.stringify(v) === JSON.stringify(value))) {
    return { error: `${name} must be one of ${prop.enum.join(', ')}.` };
  }
  return { value };
}

/** Checks every field; returns the input document when all pass. */
export function validate(schema: any, form: FormState): Record<string, unknown> | null {
  const required: string[] = schema?.required ?? [];
  const body: Record<string, unknown> = {};
  form.errors = {};
  for (const [name, prop] of Object.entries<any>(schema?.properties ?? {})) {
    const { value, error } = parseField(name, prop ?? {}, form.values[name] ?? '', required.includes(name));
    if (error) form.errors[name] = error;
    else if (value !== undefined) body[name] = value;
  }
  return Object.keys(form.errors).length ? null : body;
}

/** The form's fields; {@code idPrefix} keeps the ids of two forms on one page apart. */
export function schemaFields(schema: any, form: FormState, changed: () => void, idPrefix = 'field'): TemplateResult {
  const required: string[] = schema?.required ?? [];
  const props = Object.entries<any>(schema?.properties ?? {});
  if (props.length === 0) return html`<p>This flow takes no declared input.</p>`;
  return html`${props.map(([name, prop]) => {
    const id = `${idPrefix}-${name}`;
    const type = typeOf(prop);
    const error = form.touched.has(name) ? form.errors[name] : undefined;
    const update = (e: Event) => {
      const target = e.target as HTMLInputElement;
      form.values[name] = target.type === 'checkbox' ? String(target.checked) : target.value;
      form.touched.add(name);
      validate(schema, form);
      changed();
    };
    const common = { id, invalid: error ? 'true' : 'false', describedby: `${id}-help ${id}-error` };
    let input: TemplateResult;
    if (Array.isArray(prop?.enum)) {
      input = html`<select id=${common.id} name=${name} aria-invalid=${common.invalid} aria-describedby=${common.describedby} @change=${update}>
        <option value="">—</option>${prop.enum.map((v: unknown) => html`<option .selected=${form.values[name] === String(v)} value=${String(v)}>${String(v)}</option>`)}</select>`;
    } else if (type === 'boolean') {
      input = html`<input type="checkbox" id=${common.id} name=${name} .checked=${form.values[name] === 'true'} aria-describedby=${common.describedby} @change=${update}>`;
    } else if (type === 'object' || type === 'array') {
      input = html`<textarea id=${common.id} name=${name} rows="3" .value=${form.values[name]} aria-invalid=${common.invalid} aria-describedby=${common.describedby} @input=${update}></textarea>`;
    } else {
      input = html`<input id=${common.id} name=${name} type=${type === 'integer' || type === 'number' ? 'number' : 'text'} step="any"
        .value=${form.values[name]} ?required=${required.includes(name)} aria-invalid=${common.invalid} aria-describedby=${common.describedby} @input=${update}>`;
    }
    return html`<div class="field${error ? ' has-error' : ''}">
      <label for=${id}>${prop?.title ?? name}${required.includes(name) ? html` <span aria-hidden="true">*</span><span class="sr-only">(required)</span>` : ''}</label>
      ${input}
      <small id="${id}-help">${prop?.description ?? type}</small>
      <span id="${id}-error" class="field-error" role=${error ? 'alert' : 'none'}>${error ?? ''}</span>
    </div>`;
  })}`;
}
