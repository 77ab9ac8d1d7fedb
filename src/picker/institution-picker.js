/**
 * <institution-picker>: a type-ahead institution chooser for the affiliation-validation SDK.
 *
 * A static ES module without dependencies, served by the shop itself (`pickerModuleHandler()`), so a
 * strict Content-Security-Policy (`script-src 'self'; style-src 'self'`) holds: no inline script, no
 * inline style, no style attribute; the styles are a constructed stylesheet adopted by the shadow root.
 *
 * Progressive enhancement: the element wraps a plain form control, which is what the form posts.
 *
 *   <institution-picker src="/institutions" lang="nl" country="NL" label="Your institution">
 *     <label>Your institution <select name="institution" required>…options…</select></label>
 *   </institution-picker>
 *
 * Without JavaScript the <select> is the picker. With it, the element shows an ARIA 1.2 combobox
 * (WAI-ARIA Authoring Practices, "editable combobox with list autocomplete") that searches the
 * shop's `feed.searchHandler()` endpoint; the chosen entityID is set on the <select> (an option is
 * added when the list does not hold it), which stays in the light DOM and is submitted as usual.
 *
 * Attributes: `src` (endpoint URL, required), `lang`, `country`, `limit` (default 8), `label`,
 * `placeholder`, `status-none` ("No institution found"), `status-one` ("1 institution found"),
 * `status-many` ("{count} institutions found"), `recent-label` ("Recently chosen"),
 * `storage-key` (default "institution-picker:recent"; empty: remember nothing).
 */

const DEFAULTS = {
  label: 'Institution',
  placeholder: 'Type the name of your university or college',
  'status-none': 'No institution found',
  'status-one': '1 institution found',
  'status-many': '{count} institutions found',
  'recent-label': 'Recently chosen',
};
const REMEMBERED = 3;
const DEBOUNCE_MS = 120;

const CSS = `
:host { display: block; position: relative; font: inherit; max-width: 36rem; }
:host([hidden]) { display: none; }
label { display: block; margin: 0 0 .35rem; font-weight: 600; }
.box { position: relative; }
input {
  box-sizing: border-box; width: 100%; min-height: 2.75rem; padding: .55rem .75rem;
  font: inherit; font-size: max(1rem, 16px); color: inherit; background: Field;
  border: 1px solid #6b6b76; border-radius: .4rem;
}
input:focus { outline: 3px solid #1d5fd1; outline-offset: 1px; border-color: #1d5fd1; }
ul {
  position: absolute; z-index: 10; left: 0; right: 0; top: calc(100% + .25rem);
  margin: 0; padding: .25rem 0; list-style: none; max-height: min(22rem, 60vh); overflow-y: auto;
  background: Canvas; color: CanvasText; border: 1px solid #6b6b76; border-radius: .4rem;
  box-shadow: 0 .5rem 1.5rem rgb(0 0 0 / .15);
}
ul[hidden] { display: none; }
li { padding: .55rem .75rem; min-height: 2.75rem; box-sizing: border-box; cursor: pointer; line-height: 1.3; }
li[role="presentation"] { min-height: 0; padding: .35rem .75rem .15rem; font-size: .8rem; font-weight: 600; color: #4a4a55; cursor: default; }
li[aria-selected="true"] { background: #1d5fd1; color: #fff; }
li[aria-selected="true"] .meta { color: #e8eefc; }
.name { display: block; overflow-wrap: anywhere; }
.meta { display: block; font-size: .85rem; color: #4a4a55; overflow-wrap: anywhere; }
mark { background: none; color: inherit; font-weight: 700; text-decoration: underline; }
.status { position: absolute; width: 1px; height: 1px; overflow: hidden; clip-path: inset(50%); white-space: nowrap; }
@media (forced-colors: active) { li[aria-selected="true"] { outline: 2px solid Highlight; } }
`;

let sheet;
function styles() {
  if (sheet === undefined) {
    sheet = new CSSStyleSheet();
    sheet.replaceSync(CSS);
  }
  return sheet;
}

class InstitutionPicker extends HTMLElement {
  static observedAttributes = ['label', 'placeholder', 'lang', 'country', 'src'];

  #root;
  #input;
  #list;
  #status;
  #labelEl;
  #select;
  #items = [];
  #active = -1;
  #timer = undefined;
  #abort = undefined;
  #seq = 0;
  #composing = false;
  #recent = [];

  constructor() {
    super();
    this.#root = this.attachShadow({ mode: 'open' });
    this.#root.adoptedStyleSheets = [styles()];
    this.#labelEl = document.createElement('label');
    this.#labelEl.htmlFor = 'input';
    this.#labelEl.part = 'label';
    const box = document.createElement('div');
    box.className = 'box';
    this.#input = document.createElement('input');
    Object.assign(this.#input, { id: 'input', type: 'text', autocomplete: 'off', spellcheck: false });
    this.#input.setAttribute('role', 'combobox');
    this.#input.setAttribute('aria-autocomplete', 'list');
    this.#input.setAttribute('aria-expanded', 'false');
    this.#input.setAttribute('aria-controls', 'listbox');
    this.#input.setAttribute('autocapitalize', 'off');
    this.#input.setAttribute('enterkeyhint', 'search');
    this.#input.part = 'input';
    this.#list = document.createElement('ul');
    this.#list.id = 'listbox';
    this.#list.setAttribute('role', 'listbox');
    this.#list.hidden = true;
    this.#list.part = 'listbox';
    this.#status = document.createElement('div');
    this.#status.className = 'status';
    this.#status.setAttribute('role', 'status');
    this.#status.setAttribute('aria-live', 'polite');
    this.#status.setAttribute('aria-atomic', 'true');
    box.append(this.#input, this.#list);
    this.#root.append(this.#labelEl, box, this.#status);

    this.#input.addEventListener('input', (e) => {
      if (e.isComposing || this.#composing) return;
      this.#clearChoice();
      this.#schedule();
    });
    this.#input.addEventListener('compositionstart', () => {
      this.#composing = true;
    });
    this.#input.addEventListener('compositionend', () => {
      this.#composing = false;
      this.#clearChoice();
      this.#schedule();
    });
    this.#input.addEventListener('keydown', (e) => this.#onKey(e));
    this.#input.addEventListener('focus', () => {
      if (this.#input.value === '' && this.#recent.length > 0) this.#showRecent();
    });
    this.#input.addEventListener('blur', () => {
      // A click on an option lands after the blur: close on the next task.
      setTimeout(() => {
        if (this.#root.activeElement !== this.#input) this.#close();
      }, 150);
    });
    this.#list.addEventListener('mousedown', (e) => e.preventDefault());
    this.#list.addEventListener('click', (e) => {
      const li = e.target instanceof Element ? e.target.closest('li[role="option"]') : null;
      if (li) this.#choose(Number(li.dataset.index));
    });
  }

  connectedCallback() {
    this.#select = this.querySelector('select, input[name]');
    this.#render();
    const chosen = this.#select?.value;
    if (chosen && this.#select instanceof HTMLSelectElement) {
      this.#input.value = this.#select.selectedOptions[0]?.textContent?.trim() ?? '';
    }
    this.#recent = this.#loadRecent();
    if (this.#recent.length > 0) this.#checkRecent();
  }

  disconnectedCallback() {
    this.#abort?.abort();
    clearTimeout(this.#timer);
  }

  attributeChangedCallback() {
    if (this.#select !== undefined) this.#render();
  }

  /** The chosen entityID ('' when none). */
  get value() {
    return this.#select?.value ?? '';
  }

  #text(name) {
    return this.getAttribute(name) ?? DEFAULTS[name];
  }

  #render() {
    this.#labelEl.textContent = this.#text('label');
    this.#input.placeholder = this.#text('placeholder');
    this.#list.setAttribute('aria-label', this.#text('label'));
    if (this.#select?.required) this.#input.setAttribute('aria-required', 'true');
  }

  #schedule() {
    clearTimeout(this.#timer);
    this.#timer = setTimeout(() => this.#search(), DEBOUNCE_MS);
  }

  #url(params) {
    const src = this.getAttribute('src');
    if (!src) throw new Error('<institution-picker> needs a src attribute (the search endpoint)');
    const url = new URL(src, document.baseURI);
    for (const [k, v] of params) url.searchParams.append(k, v);
    const lang = this.getAttribute('lang') || document.documentElement.lang;
    if (lang) url.searchParams.set('lang', lang);
    const country = this.getAttribute('country');
    if (country) url.searchParams.set('country', country);
    return url;
  }

  async #fetch(params) {
    this.#abort?.abort();
    const abort = new AbortController();
    this.#abort = abort;
    const response = await fetch(this.#url(params), {
      signal: abort.signal,
      headers: { accept: 'application/json' },
      credentials: 'same-origin',
    });
    if (!response.ok) throw new Error(`search answered ${response.status}`);
    return response.json();
  }

  async #search() {
    const q = this.#input.value.trim();
    if (q === '') {
      if (this.#recent.length > 0 && this.#root.activeElement === this.#input) this.#showRecent();
      else this.#close();
      this.#announce('');
      return;
    }
    const seq = ++this.#seq;
    const limit = this.getAttribute('limit') || '8';
    const params = [
      ['q', q.slice(0, 100)],
      ['limit', limit],
      ...this.#recent.map((r) => ['recent', r.entityId]),
    ];
    let body;
    try {
      body = await this.#fetch(params);
    } catch (error) {
      if (error?.name !== 'AbortError') this.#announce(this.#text('status-none'));
      return;
    }
    if (seq !== this.#seq) return; // a newer query answered, or is on its way
    const recentIds = new Set(this.#recent.map((r) => r.entityId));
    this.#show(
      body.results.map((r) => ({ ...r, recent: recentIds.has(r.entityId) })),
      undefined,
    );
    const n = body.results.length;
    this.#announce(
      n === 0
        ? this.#text('status-none')
        : n === 1
          ? this.#text('status-one')
          : this.#text('status-many').replace('{count}', String(n)),
    );
  }

  #showRecent() {
    this.#show(
      this.#recent.map((r) => ({ ...r, ranges: [], recent: true })),
      this.#text('recent-label'),
    );
  }

  #show(items, heading) {
    this.#items = items;
    this.#active = -1;
    this.#input.removeAttribute('aria-activedescendant');
    const nodes = [];
    if (heading && items.length > 0) {
      const h = document.createElement('li');
      h.setAttribute('role', 'presentation');
      h.textContent = heading;
      nodes.push(h);
    }
    items.forEach((item, i) => {
      const li = document.createElement('li');
      li.id = `option-${i}`;
      li.setAttribute('role', 'option');
      li.setAttribute('aria-selected', 'false');
      li.dataset.index = String(i);
      const name = document.createElement('span');
      name.className = 'name';
      name.append(...highlighted(item.name, item.ranges ?? []));
      li.append(name);
      const meta = [item.matchedText, item.country].filter(Boolean).join(' · ');
      if (meta) {
        const m = document.createElement('span');
        m.className = 'meta';
        m.textContent = meta;
        li.append(m);
      }
      nodes.push(li);
    });
    this.#list.replaceChildren(...nodes);
    const open = items.length > 0;
    this.#list.hidden = !open;
    this.#input.setAttribute('aria-expanded', String(open));
  }

  #close() {
    this.#list.hidden = true;
    this.#active = -1;
    this.#input.setAttribute('aria-expanded', 'false');
    this.#input.removeAttribute('aria-activedescendant');
  }

  #move(index) {
    if (this.#items.length === 0) return;
    const n = this.#items.length;
    const next = ((index % n) + n) % n;
    this.#list.querySelector(`#option-${this.#active}`)?.setAttribute('aria-selected', 'false');
    this.#active = next;
    const li = this.#list.querySelector(`#option-${next}`);
    li?.setAttribute('aria-selected', 'true');
    li?.scrollIntoView({ block: 'nearest' });
    this.#input.setAttribute('aria-activedescendant', `option-${next}`);
  }

  #onKey(e) {
    // IME: keys that compose a character belong to the input method, not to the list.
    if (e.isComposing || e.keyCode === 229) return;
    const open = !this.#list.hidden;
    switch (e.key) {
      case 'ArrowDown':
        e.preventDefault();
        if (!open) {
          if (this.#input.value.trim() === '' && this.#recent.length > 0) this.#showRecent();
          else if (this.#items.length > 0) this.#show(this.#items);
          else this.#search();
          if (e.altKey) return;
        }
        this.#move(this.#active + 1);
        break;
      case 'ArrowUp':
        e.preventDefault();
        if (!open && this.#items.length > 0) this.#show(this.#items);
        this.#move(this.#active < 0 ? -1 : this.#active - 1);
        break;
      case 'Home':
        if (open && this.#active >= 0) {
          e.preventDefault();
          this.#move(0);
        }
        break;
      case 'End':
        if (open && this.#active >= 0) {
          e.preventDefault();
          this.#move(this.#items.length - 1);
        }
        break;
      case 'Enter':
        if (open && this.#active >= 0) {
          e.preventDefault();
          this.#choose(this.#active);
        }
        break;
      case 'Escape':
        if (open) {
          e.preventDefault();
          this.#close();
        } else if (this.#input.value !== '') {
          e.preventDefault();
          this.#input.value = '';
          this.#clearChoice();
        }
        break;
      case 'Tab':
        this.#close();
        break;
    }
  }

  #choose(index) {
    const item = this.#items[index];
    if (!item) return;
    this.#setFormValue(item.entityId, item.name);
    this.#input.value = item.name;
    this.#close();
    this.#announce(item.name);
    this.#remember(item);
    this.dispatchEvent(
      new CustomEvent('institution-change', {
        bubbles: true,
        detail: { entityId: item.entityId, name: item.name },
      }),
    );
  }

  #setFormValue(entityId, name) {
    const control = this.#select;
    if (!control) return;
    if (control instanceof HTMLSelectElement) {
      let option = [...control.options].find((o) => o.value === entityId);
      if (!option) {
        option = new Option(name, entityId);
        control.add(option);
      }
      option.selected = true;
    } else {
      control.value = entityId;
    }
    control.dispatchEvent(new Event('change', { bubbles: true }));
  }

  #clearChoice() {
    const control = this.#select;
    if (!control || control.value === '') return;
    if (control instanceof HTMLSelectElement) {
      const empty = [...control.options].find((o) => o.value === '');
      if (empty) empty.selected = true;
      else control.selectedIndex = -1;
    } else {
      control.value = '';
    }
  }

  #announce(text) {
    // Replacing the text (not appending) makes screen readers read the new count once.
    this.#status.textContent = text;
  }

  #storageKey() {
    const key = this.getAttribute('storage-key');
    return key === null ? 'institution-picker:recent' : key;
  }

  #loadRecent() {
    const key = this.#storageKey();
    if (!key) return [];
    try {
      const list = JSON.parse(localStorage.getItem(key) ?? '[]');
      return Array.isArray(list)
        ? list
            .filter((r) => typeof r?.entityId === 'string' && typeof r?.name === 'string')
            .slice(0, REMEMBERED)
        : [];
    } catch {
      return []; // storage blocked or corrupt: remember nothing
    }
  }

  #saveRecent() {
    const key = this.#storageKey();
    if (!key) return;
    try {
      localStorage.setItem(key, JSON.stringify(this.#recent));
    } catch {
      // storage full or blocked: the picker works without it
    }
  }

  #remember(item) {
    const entry = { entityId: item.entityId, name: item.name, country: item.country };
    this.#recent = [entry, ...this.#recent.filter((r) => r.entityId !== item.entityId)].slice(0, REMEMBERED);
    this.#saveRecent();
  }

  /** Drop remembered choices the list no longer has (a stale hint ends at the service with access_denied). */
  async #checkRecent() {
    try {
      const body = await this.#fetch(this.#recent.map((r) => ['recent', r.entityId]));
      const known = new Map(body.recent.map((r) => [r.entityId, r]));
      this.#recent = this.#recent
        .filter((r) => known.has(r.entityId))
        .map((r) => ({ ...r, ...known.get(r.entityId) }));
      this.#saveRecent();
    } catch {
      // offline or endpoint down: keep them until the next check
    }
  }
}

/** Text with `<mark>`s at `ranges` ([start, end) offsets), as nodes: never parsed as HTML. */
function highlighted(text, ranges) {
  const out = [];
  let at = 0;
  for (const [start, end] of ranges) {
    if (start < at || end > text.length || end <= start) continue;
    if (start > at) out.push(document.createTextNode(text.slice(at, start)));
    const mark = document.createElement('mark');
    mark.textContent = text.slice(start, end);
    out.push(mark);
    at = end;
  }
  if (at < text.length) out.push(document.createTextNode(text.slice(at)));
  return out;
}

if (!customElements.get('institution-picker')) customElements.define('institution-picker', InstitutionPicker);

export { InstitutionPicker };
