// A form generated from a JSON Schema (a flow's input_schema, a human-input step's schema): one field per property,
// an object's declared properties as nested fields, checked as you type with the schema's own rules (type, required,
// enum, bounds, length, pattern); the engine checks again, and its field errors (JSON pointers) are put under the
// field they name, in words. A property the generator cannot draw (an array, an object without declared properties
// or with oneOf/anyOf/…) is a box for JSON.
import { html, TemplateResult } from 'lit';
import type { FieldIssue } from './api';
import { when } from './shell';

/**
 * Values, errors and touched fields by key: the field's JSON pointer in the document without its leading '/'
 * (`copies`, `source/path`), so an engine error's pointer names its field directly.
 */
export interface FormState { values: Record<string, string>; errors: Record<string, string>; touched: Set<string>; }

interface Leaf { key: string; label: string; name: string; prop: any; required: boolean; }

function token(name: string): string {
  return name.replace(/~/g, '~0').replace(/\//g, '~1');
}

function typeOf(prop: any): string {
  if (prop?.type === undefined && prop?.properties) return 'object';
  return Array.isArray(prop?.type) ? prop.type.find((t: string) => t !== 'null') ?? 'string' : prop?.type ?? 'string';
}

/** An object the generator draws as nested fields: declared properties and nothing it cannot draw. */
function nested(prop: any): boolean {
  return typeOf(prop) === 'object' && Object.keys(prop?.properties ?? {}).length > 0
    && !['oneOf', 'anyOf', 'allOf', 'not', '$ref', 'patternProperties', 'if'].some(k => prop[k] !== undefined)
    && (prop.additionalProperties === undefined || typeof prop.additionalProperties === 'boolean');
}

function properties(schema: any): [string, any][] {
  return Object.entries<any>(schema?.properties ?? {});
}

/** Every field of the form, nested objects' fields included, in the schema's order. */
function leaves(schema: any, prefix = '', labelPrefix = ''): Leaf[] {
  const required: string[] = schema?.required ?? [];
  return properties(schema).flatMap(([name, prop]) => {
    const key = prefix + token(name);
    const label = labelPrefix + name;
    return nested(prop) ? leaves(prop, key + '/', label + '.')
      : [{ key, label, name, prop: prop ?? {}, required: required.includes(name) }];
  });
}

/** The keys of every field: a form shows all its problems at once by touching them all. */
export function fieldKeys(schema: any): string[] {
  return leaves(schema).map(l => l.key);
}

export function emptyForm(schema: any, uncheckedIsFalse = false): FormState {
  const values: Record<string, string> = {};
  for (const { key, prop } of leaves(schema)) {
    values[key] = prop?.default !== undefined ? (typeof prop.default === 'string' ? prop.default : JSON.stringify(prop.default))
      : uncheckedIsFalse && typeOf(prop) === 'boolean' ? 'false' : '';
  }
  return { values, errors: {}, touched: new Set() };
}

/** For a pattern, a person reads an example better than a regex: the schema's first example, if it gives one. */
function example(prop: any): string {
  const first = Array.isArray(prop?.examples) ? prop.examples[0] : undefined;
  return first === undefined ? '' : ` (for example ${typeof first === 'string' ? first : JSON.stringify(first)})`;
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
    if (prop.pattern && !new RegExp(prop.pattern, 'u').test(text)) {
      return { error: `${name} must match the pattern ${prop.pattern}${example(prop)}.` };
    }
  }
  if (Array.isArray(prop.enum) && !prop.enum.some((v: unknown) => JSON.stringify(v) === JSON.stringify(value))) {
    return { error: `${name} must be one of ${prop.enum.join(', ')}.` };
  }
  return { value };
}

/** Whether any field under this object was filled in (a box left unticked is not): an optional object left empty is left out. */
function filled(schema: any, form: FormState, prefix: string): boolean {
  return leaves(schema, prefix).some(l => (form.values[l.key] ?? '') !== '' && !(typeOf(l.prop) === 'boolean' && form.values[l.key] === 'false'));
}

function collect(schema: any, form: FormState, prefix: string, labelPrefix: string): Record<string, unknown> {
  const required: string[] = schema?.required ?? [];
  const body: Record<string, unknown> = {};
  for (const [name, prop] of properties(schema)) {
    const key = prefix + token(name);
    if (nested(prop)) {
      if (required.includes(name) || filled(prop, form, key + '/')) body[name] = collect(prop, form, key + '/', `${labelPrefix}${name}.`);
      continue;
    }
    const { value, error } = parseField(labelPrefix + name, prop ?? {}, form.values[key] ?? '', required.includes(name));
    if (error) form.errors[key] = error;
    else if (value !== undefined) body[name] = value;
  }
  return body;
}

/** Checks every field; returns the input document when all pass. */
export function validate(schema: any, form: FormState): Record<string, unknown> | null {
  form.errors = {};
  const body = collect(schema, form, '', '');
  return Object.keys(form.errors).length ? null : body;
}

const TYPE_WORDS: Record<string, string> = {
  integer: 'a whole number', number: 'a number', string: 'text', boolean: 'true or false', object: 'an object',
  array: 'a list', null: 'empty',
};

/** The engine's (the JSON Schema validator's) message, said plainly: no "regex", no "enumeration", no "found, expected". */
export function plainMessage(message: string, prop?: any): string {
  let m: RegExpMatchArray | null;
  if ((m = message.match(/^does not match the regex pattern (.*?)\.?$/))) return `must match the pattern ${m[1]}${example(prop)}.`;
  if ((m = message.match(/^does not have a value in the enumeration \[(.*)\]\.?$/))) return `must be one of ${m[1]}.`;
  if ((m = message.match(/^required property '(.*)' not found\.?$/))) return 'is required.';
  if ((m = message.match(/^(\w+) found, (\w+) expected\.?$/))) return `must be ${TYPE_WORDS[m[2]] ?? m[2]}, not ${TYPE_WORDS[m[1]] ?? m[1]}.`;
  return message;
}

/**
 * The field an engine error's JSON pointer names (`/copies`, `/source/path`; below a JSON box, that box, with the
 * rest of the pointer), or undefined when it names none (the whole document, an object as a whole).
 */
export function fieldOf(pointer: string, schema: any): { leaf: Leaf; rest: string } | undefined {
  const tokens = pointer.split('/').slice(1);
  let current = schema;
  const keys: string[] = [];
  const labels: string[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const name = tokens[i].replace(/~1/g, '/').replace(/~0/g, '~');
    const prop = current?.properties?.[name];
    if (prop === undefined) return undefined;
    keys.push(tokens[i]);
    labels.push(name);
    if (!nested(prop)) {
      return { leaf: { key: keys.join('/'), label: labels.join('.'), name, prop, required: (current.required ?? []).includes(name) },
        rest: tokens.slice(i + 1).map(t => t.replace(/~1/g, '/').replace(/~0/g, '~')).join('.') };
    }
    current = prop;
  }
  return undefined;
}

/**
 * Puts the engine's field errors under the fields their pointers name ({@code base}: the pointer of the form's
 * document in the request, `/body` for a run's input), in words; answers the issues that name no field, in words
 * too, each prefixed with what it names (`source: is required.`) rather than a pointer.
 */
export function placeErrors(schema: any, form: FormState, issues: FieldIssue[], base = ''): FieldIssue[] {
  const unplaced: FieldIssue[] = [];
  for (const issue of issues) {
    const pointer = (issue.pointer ?? '').startsWith(base) ? issue.pointer.slice(base.length) : issue.pointer ?? '';
    const field = fieldOf(pointer, schema);
    if (field) {
      const message = plainMessage(issue.message, field.rest ? undefined : field.leaf.prop);
      form.errors[field.leaf.key] = field.rest ? `${field.rest}: ${message}` : message;
      form.touched.add(field.leaf.key);
    } else {
      const what = pointer.split('/').slice(1).map(t => t.replace(/~1/g, '/').replace(/~0/g, '~')).join('.');
      unplaced.push({ pointer: what, message: plainMessage(issue.message) });
    }
  }
  return unplaced;
}

/** The problems that name no field, below the form: what each names, in words, then the message. */
export function formProblems(problems: FieldIssue[]): TemplateResult | string {
  return when(problems.length, () => html`<div role="alert"><ul class="error form-problems">${problems.map(i =>
    html`<li>${i.pointer ? `${i.pointer}: ` : ''}${i.message}</li>`)}</ul></div>`);
}

function idOf(idPrefix: string, key: string): string {
  return `${idPrefix}-${key.replace(/[^A-Za-z0-9_-]/g, '-')}`;
}

/** The form's fields; {@code idPrefix} keeps the ids of two forms on one page apart. */
export function schemaFields(schema: any, form: FormState, changed: () => void, idPrefix = 'field'): TemplateResult {
  if (properties(schema).length === 0) return html`<p>This flow takes no declared input.</p>`;
  return fields(schema, schema, form, changed, idPrefix, '', '');
}

function fields(root: any, schema: any, form: FormState, changed: () => void, idPrefix: string, prefix: string, labelPrefix: string): TemplateResult {
  const required: string[] = schema?.required ?? [];
  const mark = (name: string) => required.includes(name) ? html` <span aria-hidden="true">*</span><span class="sr-only">(required)</span>` : '';
  return html`${properties(schema).map(([name, prop]) => {
    const key = prefix + token(name);
    if (nested(prop)) {
      return html`<fieldset class="nested" data-field=${key}><legend>${prop?.title ?? name}${mark(name)}</legend>
        ${when(prop?.description, () => html`<small>${prop.description}</small>`)}
        ${fields(root, prop, form, changed, idPrefix, key + '/', `${labelPrefix}${name}.`)}</fieldset>`;
    }
    const id = idOf(idPrefix, key);
    const type = typeOf(prop);
    const error = form.touched.has(key) ? form.errors[key] : undefined;
    const update = (e: Event) => {
      const target = e.target as HTMLInputElement;
      form.values[key] = target.type === 'checkbox' ? String(target.checked) : target.value;
      form.touched.add(key);
      validate(root, form);
      changed();
    };
    const common = { id, invalid: error ? 'true' : 'false', describedby: `${id}-help ${id}-error` };
    let input: TemplateResult;
    if (Array.isArray(prop?.enum)) {
      input = html`<select id=${common.id} name=${key} aria-invalid=${common.invalid} aria-describedby=${common.describedby} @change=${update}>
        <option value="">—</option>${prop.enum.map((v: unknown) => html`<option .selected=${form.values[key] === String(v)} value=${String(v)}>${String(v)}</option>`)}</select>`;
    } else if (type === 'boolean') {
      input = html`<input type="checkbox" id=${common.id} name=${key} .checked=${form.values[key] === 'true'} aria-describedby=${common.describedby} @change=${update}>`;
    } else if (type === 'object' || type === 'array') {
      input = html`<textarea id=${common.id} name=${key} rows="3" .value=${form.values[key]} aria-invalid=${common.invalid} aria-describedby=${common.describedby} @input=${update}></textarea>`;
    } else {
      input = html`<input id=${common.id} name=${key} type=${type === 'integer' || type === 'number' ? 'number' : 'text'} step="any"
        .value=${form.values[key]} ?required=${required.includes(name)} aria-invalid=${common.invalid} aria-describedby=${common.describedby} @input=${update}>`;
    }
    const help = prop?.description ?? (type === 'object' || type === 'array' ? `${type}, as JSON` : type);
    return html`<div class="field${error ? ' has-error' : ''}">
      <label for=${id}>${prop?.title ?? name}${mark(name)}</label>
      ${input}
      <small id="${id}-help">${help}</small>
      <span id="${id}-error" class="field-error" role=${error ? 'alert' : 'none'}>${error ?? ''}</span>
    </div>`;
  })}`;
}
