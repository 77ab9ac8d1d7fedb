/**
 * The one HTML form reader of the package's scripted browsers (the test provider's `authorize()`
 * walker and the CLI demo's browser): enough HTML for server-rendered forms, no scripts. It reads
 * what a browser would submit with the page's defaults.
 */

/** A field of an HTML form as the page declares it. */
export interface FormField {
  name: string;
  value: string;
  type: string;
  checked: boolean;
  /** For `<select>`: the option values. */
  options?: string[];
}

/** A parsed HTML form. */
export interface HtmlForm {
  action: string;
  method: 'GET' | 'POST';
  fields: FormField[];
  /** Submit buttons (`<button>` or `<input type=submit>`) with a name. */
  buttons: { name: string; value: string; label: string }[];
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };

function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, ref: string) => {
    if (ref[0] === '#') {
      const code =
        ref[1] === 'x' || ref[1] === 'X' ? Number.parseInt(ref.slice(2), 16) : Number(ref.slice(1));
      return Number.isFinite(code) && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    }
    return ENTITIES[ref.toLowerCase()] ?? whole;
  });
}

/** The attributes of a tag, from the text between its name and its `>` (a self-closing `/` ignored). */
function attributes(text: string): Map<string, string> {
  const attrs = new Map<string, string>();
  const re = /([a-zA-Z_:][-a-zA-Z0-9_:.]*)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+)))?/g;
  for (const m of text.replace(/\/$/, '').matchAll(re)) {
    const name = m[1]!.toLowerCase();
    if (!attrs.has(name)) attrs.set(name, decodeEntities(m[2] ?? m[3] ?? m[4] ?? ''));
  }
  return attrs;
}

export function stripTags(html: string): string {
  return decodeEntities(html.replace(/<[^>]*>/g, ''))
    .replace(/\s+/g, ' ')
    .trim();
}

/** Parse the forms of an HTML page (enough HTML for server-rendered forms; no scripts). */
export function parseForms(html: string, baseUrl: string): HtmlForm[] {
  const forms: HtmlForm[] = [];
  for (const m of html.matchAll(/<form\b([^>]*)>([\s\S]*?)<\/form>/gi)) {
    const attrs = attributes(m[1] ?? '');
    const fields: FormField[] = [];
    const buttons: HtmlForm['buttons'] = [];
    const elements = /<(input)\b([^>]*)>|<(select|button|textarea)\b([^>]*)>([\s\S]*?)<\/\3>/gi;
    for (const el of (m[2] ?? '').matchAll(elements)) {
      const kind = (el[1] ?? el[3] ?? '').toLowerCase();
      const a = attributes(el[2] ?? el[4] ?? '');
      const inner = el[5] ?? '';
      const name = a.get('name');
      if (kind === 'input') {
        const type = (a.get('type') ?? 'text').toLowerCase();
        if (type === 'submit' || type === 'image') {
          if (name) buttons.push({ name, value: a.get('value') ?? '', label: a.get('value') ?? '' });
          continue;
        }
        if (!name || a.has('disabled')) continue;
        fields.push({
          name,
          value: a.get('value') ?? (type === 'checkbox' || type === 'radio' ? 'on' : ''),
          type,
          checked: a.has('checked'),
        });
      } else if (kind === 'select') {
        if (!name) continue;
        const options: string[] = [];
        let selected: string | undefined;
        for (const o of inner.matchAll(/<option\b([^>]*)>([\s\S]*?)(?=<option\b|<\/option>|$)/gi)) {
          const oa = attributes(o[1] ?? '');
          const value = oa.get('value') ?? stripTags(o[2] ?? '');
          options.push(value);
          if (oa.has('selected')) selected = value;
        }
        fields.push({ name, value: selected ?? options[0] ?? '', type: 'select', checked: true, options });
      } else if (kind === 'button') {
        if ((a.get('type') ?? 'submit').toLowerCase() !== 'submit') continue;
        buttons.push({ name: name ?? '', value: a.get('value') ?? '', label: stripTags(inner) });
      } else if (name) {
        fields.push({ name, value: decodeEntities(inner), type: 'textarea', checked: true });
      }
    }
    const method = (attrs.get('method') ?? 'get').toUpperCase() === 'POST' ? 'POST' : 'GET';
    forms.push({ action: new URL(attrs.get('action') || baseUrl, baseUrl).href, method, fields, buttons });
  }
  return forms;
}

/** The values a browser would submit for a form, with `choices` overriding fields by name. */
export function formValues(
  form: HtmlForm,
  choices: Record<string, string> = {},
  button?: { name: string; value: string },
): URLSearchParams {
  const out = new URLSearchParams();
  const seen = new Set<string>();
  for (const field of form.fields) {
    if (field.name in choices) {
      if (!seen.has(field.name)) out.append(field.name, choices[field.name]!);
      seen.add(field.name);
      continue;
    }
    if ((field.type === 'radio' || field.type === 'checkbox') && !field.checked) continue;
    out.append(field.name, field.value);
  }
  for (const [name, value] of Object.entries(choices)) if (!seen.has(name)) out.append(name, value);
  if (button?.name) out.append(button.name, button.value);
  return out;
}
