/**
 * <institution-picker>: a type-ahead institution chooser for the affiliation-validation SDK.
 *
 * A static ES module without dependencies (compiled to `dist/picker/`), served by the shop itself
 * (`pickerModuleHandler()`), so a strict Content-Security-Policy (`script-src 'self'; style-src 'self'`)
 * holds: no inline script, no inline style, no style attribute; the styles are a constructed stylesheet
 * adopted by the shadow root.
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
 * The element is a form-associated custom element: it carries the <select>'s validity (a `required`
 * select without a choice), so the browser's own validation focuses the text field (the hidden
 * <select> could not take focus) and the picker shows the message beside it; Enter in the closed
 * field submits the form as in any text field; the last choice is kept in the page's history entry,
 * so Back shows it again even when the page is not restored from the back/forward cache.
 *
 * Attributes: `src` (endpoint URL, required), `lang`, `country`, `limit` (default 8), `storage-key`
 * (default "institution-picker:recent"; empty: remember nothing), and texts that replace the catalog's:
 * `label`, `placeholder`, `status-none` ("No institution found"), `status-one` / `status-many`
 * ("{count} institutions found"), `recent-label` ("Recently chosen"), `error-required`. The catalog
 * speaks the element's `lang` (or the page's), else the browser's language, else English.
 */
import type { SearchResponseBody } from '../hints/search-handler.js';
import type { HintSearchResult } from '../hints/types.js';
import { PICKER_TEXTS } from '../i18n/catalogs/picker.js';
import { LANGUAGES, type Language, matchLanguage } from '../i18n/language.js';

/** An option: an answer of the search endpoint (`feed.searchHandler()`), or a remembered choice. */
type Item = Pick<HintSearchResult, 'entityId' | 'name'> &
  Partial<Pick<HintSearchResult, 'country' | 'matchedText' | 'ranges'>> & { recent?: boolean };
type Control = HTMLSelectElement | HTMLInputElement;
/** What the form posts (the entityID) and the field shows (the name). */
type Choice = Pick<Item, 'entityId' | 'name'>;

/** The attributes that replace a text of the picker's catalog. */
const ATTRIBUTE_TEXTS = {
  label: 'label',
  placeholder: 'placeholder',
  'status-none': 'none',
  'recent-label': 'recent',
  'error-required': 'required',
} as const;
const REMEMBERED = 3;
/** A fast typist (five keys a second and more) sends one search when they pause, not one a key. */
const DEBOUNCE_MS = 200;
/** The open list's least height (about three options), and the room it leaves below it on the screen. */
const MIN_LIST_PX = 150;
const LIST_MARGIN_PX = 8;

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
  box-sizing: border-box; margin: 0; padding: .25rem 0; list-style: none;
  max-height: min(22rem, 60vh); overflow-y: auto;
  background: Canvas; color: CanvasText; border: 1px solid #6b6b76; border-radius: .4rem;
  box-shadow: 0 .5rem 1.5rem rgb(0 0 0 / .15);
}
ul[hidden] { display: none; }
li { padding: .55rem .75rem; min-height: 2.75rem; box-sizing: border-box; cursor: pointer; line-height: 1.3; overflow-wrap: anywhere; }
li[role="presentation"] { min-height: 0; padding: .35rem .75rem .15rem; font-size: .8rem; font-weight: 600; color: #4a4a55; cursor: default; }
li[aria-selected="true"] { background: #1d5fd1; color: #fff; }
li[aria-selected="true"] .meta { color: #e8eefc; }
.meta { font-size: .85rem; color: #4a4a55; }
mark { background: none; color: inherit; font-weight: 700; text-decoration: underline; }
.error { margin: 0 0 .35rem; color: #b3261e; font-weight: 600; }
input[aria-invalid="true"] { border: 2px solid #b3261e; }
.status { position: absolute; width: 1px; height: 1px; overflow: hidden; clip-path: inset(50%); white-space: nowrap; }
@media (forced-colors: active) { li[aria-selected="true"] { outline: 2px solid Highlight; } }
`;

const sheet = new CSSStyleSheet();
sheet.replaceSync(CSS);

class InstitutionPicker extends HTMLElement {
  static formAssociated = true;
  static observedAttributes = ['label', 'placeholder', 'lang', 'country', 'src', 'error-required'];

  #internals = this.attachInternals();
  // delegatesFocus: focusing the element (the browser does it for an invalid form) focuses the field.
  #root = this.attachShadow({ mode: 'open', delegatesFocus: true });
  #input = document.createElement('input');
  #list = document.createElement('ul');
  #status = document.createElement('div');
  #error = document.createElement('p');
  #labelEl = document.createElement('label');
  #select: Control | null | undefined;
  #fitSheet = new CSSStyleSheet();
  #fitHeight: number | undefined;
  #items: Item[] = [];
  #active = -1;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #abort: AbortController | undefined;
  #seq = 0;
  #composing = false;
  #recent: Item[] = [];
  #regionNames: Intl.DisplayNames | undefined;
  #lang: Language | undefined;

  constructor() {
    super();
    this.#root.adoptedStyleSheets = [sheet, this.#fitSheet];
    this.#labelEl.htmlFor = 'input';
    this.#labelEl.part = 'label';
    this.#error.id = 'error';
    this.#error.className = 'error';
    this.#error.part = 'error';
    this.#error.hidden = true;
    const box = document.createElement('div');
    box.className = 'box';
    Object.assign(this.#input, { id: 'input', type: 'text', autocomplete: 'off', spellcheck: false });
    this.#input.setAttribute('role', 'combobox');
    this.#input.setAttribute('aria-autocomplete', 'list');
    this.#input.setAttribute('aria-expanded', 'false');
    this.#input.setAttribute('aria-controls', 'listbox');
    this.#input.setAttribute('autocapitalize', 'off');
    this.#input.setAttribute('enterkeyhint', 'search');
    this.#input.part = 'input';
    this.#list.id = 'listbox';
    this.#list.setAttribute('role', 'listbox');
    this.#list.hidden = true;
    this.#list.part = 'listbox';
    this.#status.className = 'status';
    this.#status.setAttribute('role', 'status');
    this.#status.setAttribute('aria-live', 'polite');
    this.#status.setAttribute('aria-atomic', 'true');
    box.append(this.#input, this.#list);
    // The message sits between the label and the field: read before it, and not hidden by the open list.
    this.#root.append(this.#labelEl, this.#error, box, this.#status);

    this.#input.addEventListener('input', (e) => {
      if ((e as InputEvent).isComposing || this.#composing) return;
      this.#setChoice(undefined);
      this.#schedule();
    });
    this.#input.addEventListener('compositionstart', () => {
      this.#composing = true;
    });
    this.#input.addEventListener('compositionend', () => {
      this.#composing = false;
      this.#setChoice(undefined);
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
      const li = e.target instanceof Element ? e.target.closest<HTMLElement>('li[role="option"]') : null;
      if (li) this.#choose(Number(li.dataset.index));
    });
    // Fired by the form's validation (submit, reportValidity, checkValidity) while no institution is
    // chosen. The browser then focuses the first invalid field: this one, through delegatesFocus.
    this.addEventListener('invalid', () => this.#showError());
  }

  connectedCallback() {
    this.#select?.removeEventListener('invalid', this.#onControlInvalid);
    this.#select = this.querySelector<Control>('select, input[name]');
    // The hidden <select> cannot take focus, so the browser would refuse the form with a console
    // error ("An invalid form control … is not focusable") and show nothing: this element speaks
    // for it instead (the same validity, in updateValidity).
    this.#select?.addEventListener('invalid', this.#onControlInvalid);
    this.#render();
    const restored = this.#restore();
    if (restored) {
      this.#setChoice(restored);
      this.#input.value = restored.name;
    } else if (this.#select instanceof HTMLSelectElement && this.#select.value) {
      this.#input.value = this.#select.selectedOptions[0]?.textContent?.trim() ?? '';
    }
    this.#updateValidity();
    this.#recent = this.#loadRecent();
    if (this.#recent.length > 0) this.#checkRecent();
  }

  disconnectedCallback() {
    this.#abort?.abort();
    clearTimeout(this.#timer);
    window.visualViewport?.removeEventListener('resize', this.#onViewport);
  }

  attributeChangedCallback() {
    this.#regionNames = undefined;
    this.#lang = undefined;
    if (this.#select !== undefined) {
      this.#render();
      this.#updateValidity();
    }
  }

  formResetCallback() {
    // The <select> comes after this element in the form, so it is reset after this callback.
    queueMicrotask(() => {
      const s = this.#select;
      this.#input.value =
        s instanceof HTMLSelectElement && s.value ? (s.selectedOptions[0]?.textContent ?? '').trim() : '';
      this.#save(undefined);
      this.#updateValidity();
      this.#hideError();
    });
  }

  formDisabledCallback(disabled: boolean) {
    this.#input.disabled = disabled;
    if (disabled) this.#close();
  }

  /** The chosen entityID ('' when none). */
  get value() {
    return this.#select?.value ?? '';
  }

  #onControlInvalid = (e: Event) => {
    e.preventDefault();
    this.#updateValidity();
  };

  // Only a change of height (an on-screen keyboard): the list's own height can toggle a scroll bar,
  // which changes the viewport's width, and fitting again then would go round in circles.
  #onViewport = () => {
    if (!this.#list.hidden && window.visualViewport?.height !== this.#fitHeight) this.#fit();
  };

  /** The catalog's language: this element's `lang` (or the page's), else the browser's, else English. */
  #language(): Language {
    const available = new Set<string>(LANGUAGES);
    const tags = [this.closest<HTMLElement>('[lang]')?.lang ?? '', ...navigator.languages];
    this.#lang ??= (tags.map((t) => matchLanguage(t, available)).find(Boolean) ?? 'en') as Language;
    return this.#lang;
  }

  #text(name: keyof typeof ATTRIBUTE_TEXTS): string {
    return this.getAttribute(name) ?? PICKER_TEXTS[this.#language()][ATTRIBUTE_TEXTS[name]];
  }

  /** "{count} institutions found", in the plural form the count takes in the picker's language. */
  #found(n: number): string {
    if (n === 0) return this.#text('status-none');
    const forms = PICKER_TEXTS[this.#language()].found;
    const own = this.getAttribute(n === 1 ? 'status-one' : 'status-many');
    const text = own ?? forms[new Intl.PluralRules(this.#language()).select(n)] ?? forms.other;
    return text.replace('{count}', String(n));
  }

  #render() {
    this.#labelEl.textContent = this.#text('label');
    this.#input.placeholder = this.#text('placeholder');
    this.#list.setAttribute('aria-label', this.#text('label'));
    if (this.#select?.required) this.#input.setAttribute('aria-required', 'true');
    else this.#input.removeAttribute('aria-required');
  }

  /** This element is as valid as the control it wraps; the message is the picker's own words. */
  #updateValidity() {
    const control = this.#select;
    if (!control?.willValidate || control.validity.valid) {
      this.#internals.setValidity({});
      this.#hideError();
      return;
    }
    const missing = control.validity.valueMissing;
    this.#internals.setValidity(
      missing ? { valueMissing: true } : { customError: true },
      missing ? this.#text('error-required') : control.validationMessage,
      this.#input,
    );
    if (!this.#error.hidden) this.#showError();
  }

  #showError() {
    const message = this.#internals.validationMessage;
    if (!message) return;
    this.#error.textContent = message;
    this.#error.hidden = false;
    this.#input.setAttribute('aria-invalid', 'true');
    this.#input.setAttribute('aria-describedby', 'error');
  }

  #hideError() {
    this.#error.hidden = true;
    this.#error.textContent = '';
    this.#input.removeAttribute('aria-invalid');
    this.#input.removeAttribute('aria-describedby');
  }

  #schedule() {
    clearTimeout(this.#timer);
    this.#timer = setTimeout(() => this.#search(), DEBOUNCE_MS);
  }

  #url(params: string[][]): URL {
    const src = this.getAttribute('src');
    if (!src) throw new Error('<institution-picker> needs a src attribute (the search endpoint)');
    const url = new URL(src, document.baseURI);
    for (const [k = '', v = ''] of params) url.searchParams.append(k, v);
    const lang = this.getAttribute('lang') || document.documentElement.lang;
    if (lang) url.searchParams.set('lang', lang);
    const country = this.getAttribute('country');
    if (country) url.searchParams.set('country', country);
    return url;
  }

  async #fetch(params: string[][], signal?: AbortSignal): Promise<SearchResponseBody> {
    const response = await fetch(this.#url(params), {
      signal,
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
    let body: SearchResponseBody;
    // A newer search cancels this one (the page's own cancel: no error).
    this.#abort?.abort();
    this.#abort = new AbortController();
    try {
      body = await this.#fetch(params, this.#abort.signal);
    } catch (error) {
      if ((error as Error)?.name !== 'AbortError') this.#announce(this.#text('status-none'));
      return;
    }
    if (seq !== this.#seq) return; // a newer query answered, or is on its way
    const recentIds = new Set(this.#recent.map((r) => r.entityId));
    this.#show(
      body.results.map((r) => ({ ...r, recent: recentIds.has(r.entityId) })),
      undefined,
    );
    this.#announce(this.#found(body.results.length));
  }

  #showRecent() {
    this.#show(
      this.#recent.map((r) => ({ ...r, ranges: [], recent: true })),
      this.#text('recent-label'),
    );
  }

  /**
   * The country's name in the language of this element (its `lang`, else the page's, else the
   * browser's), so a screen reader says "Netherlands", not "N L"; the code when the browser has no name.
   */
  #country(code: string | undefined): string {
    if (!code) return '';
    try {
      const lang = this.closest<HTMLElement>('[lang]')?.lang || navigator.language;
      this.#regionNames ??= new Intl.DisplayNames([lang], { type: 'region' });
      return this.#regionNames.of(code) ?? code;
    } catch {
      return code; // not a language tag or not a region code: show what the feed says
    }
  }

  #show(items: Item[], heading?: string) {
    this.#items = items;
    this.#active = -1;
    this.#input.removeAttribute('aria-activedescendant');
    const nodes: HTMLLIElement[] = [];
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
      li.append(...highlighted(item.name, item.ranges ?? []));
      const details = [item.matchedText, this.#country(item.country)].filter(Boolean);
      if (details.length > 0) {
        // A line break, not blocks: the visible text then reads "Name Country", words its accessible
        // name holds too (WCAG 2.5.3 Label in Name, for speech-input users).
        const m = document.createElement('span');
        m.className = 'meta';
        m.textContent = details.join(' · ');
        li.append(document.createElement('br'), m);
      }
      // The name read out: the institution, then the details as a phrase, without the "·".
      li.setAttribute('aria-label', [item.name, ...details].join(', '));
      nodes.push(li);
    });
    this.#list.replaceChildren(...nodes);
    const open = items.length > 0;
    this.#list.hidden = !open;
    this.#input.setAttribute('aria-expanded', String(open));
    if (open) {
      this.#fit();
      window.visualViewport?.addEventListener('resize', this.#onViewport);
    }
  }

  /**
   * The list ends above the bottom of what the screen shows (and above a phone's on-screen keyboard),
   * so no option is cut off there: it scrolls within that height instead. When the field sits so low
   * that not even about three options fit below it, the page scrolls up by what they need.
   */
  #fit() {
    const view = window.visualViewport;
    this.#fitHeight = view?.height;
    const room = () =>
      Math.floor(
        (view ? view.offsetTop + view.height : window.innerHeight) -
          this.#list.getBoundingClientRect().top -
          LIST_MARGIN_PX,
      );
    const cap = (px: number) => this.#fitSheet.replaceSync(`ul { max-height: min(22rem, ${px}px); }`);
    if (room() < MIN_LIST_PX) {
      cap(MIN_LIST_PX); // the page can scroll down to the end of the list, not further
      window.scrollBy({ top: MIN_LIST_PX - room(), behavior: 'instant' });
    }
    cap(Math.max(room(), MIN_LIST_PX));
  }

  #close() {
    this.#list.hidden = true;
    this.#active = -1;
    this.#input.setAttribute('aria-expanded', 'false');
    this.#input.removeAttribute('aria-activedescendant');
    window.visualViewport?.removeEventListener('resize', this.#onViewport);
  }

  #move(index: number) {
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

  #onKey(e: KeyboardEvent) {
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
      case 'End':
        if (open && this.#active >= 0) {
          e.preventDefault();
          this.#move(e.key === 'Home' ? 0 : this.#items.length - 1);
        }
        break;
      case 'Enter':
        e.preventDefault();
        // An open list takes Enter (it picks the highlighted option); a closed field submits.
        if (!open) this.#submitForm();
        else if (this.#active >= 0) this.#choose(this.#active);
        break;
      case 'Escape':
        if (open) {
          e.preventDefault();
          this.#close();
        } else if (this.#input.value !== '') {
          e.preventDefault();
          this.#input.value = '';
          this.#setChoice(undefined);
        }
        break;
      case 'Tab':
        this.#close();
        break;
    }
  }

  /**
   * Implicit submission, as Enter in a form's text field does (HTML "implicit submission"): a click on
   * the form's default button, nothing when that button is disabled, else the form's own validation
   * and submit event through requestSubmit().
   */
  #submitForm() {
    const form = this.#internals.form;
    if (!form) return;
    const button = [...form.elements].find(
      (el): el is HTMLButtonElement | HTMLInputElement =>
        (el instanceof HTMLButtonElement || el instanceof HTMLInputElement) &&
        (el.type === 'submit' || el.type === 'image'),
    );
    if (button) {
      if (!button.matches(':disabled')) button.click();
    } else {
      form.requestSubmit();
    }
  }

  #choose(index: number) {
    const item = this.#items[index];
    if (!item) return;
    this.#setChoice({ entityId: item.entityId, name: item.name });
    this.#input.value = item.name;
    this.#close();
    this.#announce(item.name);
    this.#remember(item);
    this.#select?.dispatchEvent(new Event('change', { bubbles: true }));
    this.dispatchEvent(
      new CustomEvent('institution-change', {
        bubbles: true,
        detail: { entityId: item.entityId, name: item.name },
      }),
    );
  }

  /** Set the wrapped control to a choice (adding the <option> its list lacks), or clear it. */
  #setChoice(choice: Choice | undefined) {
    const control = this.#select;
    if (!control || (choice === undefined && control.value === '')) return;
    const value = choice?.entityId ?? '';
    if (control instanceof HTMLSelectElement) {
      let option = [...control.options].find((o) => o.value === value);
      if (!option && choice) {
        option = new Option(choice.name, value);
        control.add(option);
      }
      if (option) option.selected = true;
      else control.selectedIndex = -1;
    } else {
      control.value = value;
    }
    this.#save(choice);
    this.#updateValidity();
  }

  /** Where this picker keeps its choice in the page's history entry (one per field name). */
  #historyKey() {
    return `institution-picker:${this.#select?.name ?? ''}`;
  }

  /**
   * The choice goes into the page's history entry (history.state), which the browser keeps with the
   * entry: Back shows it again even when the page is loaded anew (`Cache-Control: no-store` keeps a
   * page out of the back/forward cache, and Firefox then restores no form field of it).
   */
  #save(choice: Choice | undefined) {
    const key = this.#historyKey();
    const state = history.state;
    // Someone else's state that is not a plain object: leave it alone (nothing is restored then).
    if (state !== null && (typeof state !== 'object' || Array.isArray(state))) return;
    if (choice === undefined && !(state && key in state)) return;
    const next = { ...state };
    if (choice === undefined) delete next[key];
    else next[key] = choice;
    try {
      history.replaceState(next, '');
    } catch {
      // a sandboxed document may refuse: Back then shows what the browser restores by itself
    }
  }

  #restore(): Choice | undefined {
    const saved = history.state?.[this.#historyKey()];
    return typeof saved?.entityId === 'string' && typeof saved?.name === 'string' ? saved : undefined;
  }

  #announce(text: string) {
    // Replacing the text (not appending) makes screen readers read the new count once.
    this.#status.textContent = text;
  }

  #storageKey(): string {
    return this.getAttribute('storage-key') ?? 'institution-picker:recent';
  }

  #loadRecent(): Item[] {
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

  #remember(item: Item) {
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
function highlighted(text: string, ranges: Item['ranges'] & {}): Node[] {
  const out: Node[] = [];
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
