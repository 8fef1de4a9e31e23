/**
 * Discord's checks on message bodies, written out independently of the renderer (literal
 * numbers from Discord's API reference, not the renderer's constants), so that the fake
 * Discord rejects what the real one would with "Invalid Form Body", and the tests notice.
 */

/* eslint-disable @typescript-eslint/no-explicit-any */

/**
 * Problems with a message body (an interaction response's `data`, an edit, a follow-up); a new
 * message (`create`) must also have some content, embed or component.
 */
export function messageProblems(body: any, options: { create?: boolean; files?: ReadonlyArray<{ field: string; name: string; bytes: number }> } = {}): string[] {
  const problems: string[] = [];
  const check = (ok: boolean, problem: string) => {
    if (!ok) problems.push(problem);
  };
  if (body === null || typeof body !== 'object') return ['body is not an object'];
  const files = options.files ?? [];
  if (options.create) check(Boolean(body.content?.trim()) || (body.embeds ?? []).length > 0 || (body.components ?? []).length > 0 || files.length > 0, 'Cannot send an empty message');
  // Files: at most 10, 10 MiB in all (a server without boosts), each named in `attachments` by its index.
  check(files.length <= 10, 'files: at most 10');
  check(files.reduce((n, f) => n + f.bytes, 0) <= 10 * 1024 * 1024, 'files: Request entity too large (at most 10 MiB)');
  files.forEach((f, i) => {
    check(f.field === `files[${i}]`, `files[${i}]: a file must be sent as files[${i}]`);
    check(f.name.length >= 1 && f.name.length <= 1024, `files[${i}]: needs a file name`);
    check((body.attachments ?? []).some((a: any) => String(a.id) === String(i)), `attachments: files[${i}] is not listed`);
  });
  if (body.content !== undefined) check(typeof body.content === 'string' && body.content.length <= 2000, 'content: at most 2000 characters');
  const embeds: any[] = body.embeds ?? [];
  check(Array.isArray(embeds) && embeds.length <= 10, 'embeds: at most 10');
  let total = 0;
  embeds.forEach((e, i) => {
    const at = `embeds[${i}]`;
    const len = (s: unknown) => (typeof s === 'string' ? s.length : 0);
    check(len(e.title) <= 256, `${at}.title: at most 256`);
    check(len(e.description) <= 4096, `${at}.description: at most 4096`);
    check(len(e.footer?.text) <= 2048, `${at}.footer.text: at most 2048`);
    check(len(e.author?.name) <= 256, `${at}.author.name: at most 256`);
    if (e.url !== undefined) check(isUrl(e.url), `${at}.url: not a well formed URL`);
    const fields: any[] = e.fields ?? [];
    check(fields.length <= 25, `${at}.fields: at most 25`);
    fields.forEach((f, j) => {
      check(len(f.name) >= 1 && len(f.name) <= 256, `${at}.fields[${j}].name: 1 to 256`);
      check(len(f.value) >= 1 && len(f.value) <= 1024, `${at}.fields[${j}].value: 1 to 1024`);
      total += len(f.name) + len(f.value);
    });
    total += len(e.title) + len(e.description) + len(e.footer?.text) + len(e.author?.name);
  });
  check(total <= 6000, `embeds: ${total} characters in all (at most 6000)`);
  const rows: any[] = body.components ?? [];
  check(rows.length <= 5, 'components: at most 5 rows');
  const ids = new Set<string>();
  rows.forEach((row, i) => {
    const at = `components[${i}]`;
    check(row.type === 1, `${at}: must be an action row`);
    const items: any[] = row.components ?? [];
    const selects = items.filter((c) => c.type === 3);
    check(items.length >= 1 && items.length <= 5, `${at}: 1 to 5 components`);
    check(selects.length === 0 || items.length === 1, `${at}: a select menu must be alone in its row`);
    items.forEach((c, j) => {
      const where = `${at}.components[${j}]`;
      if (c.type === 2) {
        check(typeof c.label === 'string' && c.label.length >= 1 && c.label.length <= 80, `${where}.label: 1 to 80`);
        if (c.style === 5) check(isUrl(c.url) && c.url.length <= 512 && c.custom_id === undefined, `${where}: a link button needs a URL (at most 512) and no custom_id`);
        else check(typeof c.custom_id === 'string' && c.url === undefined, `${where}: needs a custom_id`);
      } else if (c.type === 3) {
        const options: any[] = c.options ?? [];
        check(options.length >= 1 && options.length <= 25, `${where}.options: 1 to 25`);
        check((c.placeholder ?? '').length <= 150, `${where}.placeholder: at most 150`);
        const values = new Set(options.map((o) => o.value));
        check(values.size === options.length, `${where}.options: values must be unique`);
        options.forEach((o, k) => {
          check(o.label?.length >= 1 && o.label.length <= 100, `${where}.options[${k}].label: 1 to 100`);
          check(o.value?.length >= 1 && o.value.length <= 100, `${where}.options[${k}].value: 1 to 100`);
          check((o.description ?? '').length <= 100, `${where}.options[${k}].description: at most 100`);
        });
      } else {
        problems.push(`${where}: unexpected component type ${c.type}`);
      }
      if (c.custom_id !== undefined) {
        check(c.custom_id.length >= 1 && c.custom_id.length <= 100, `${where}.custom_id: 1 to 100`);
        check(!ids.has(c.custom_id), `${where}.custom_id: "${c.custom_id}" is used twice`);
        ids.add(c.custom_id);
      }
    });
  });
  return problems;
}

/**
 * Problems with a modal (an interaction response of type 9's `data`): a custom_id of 1 to 100,
 * a title of 1 to 45, 1 to 5 components, each a label (1 to 45, description at most 100) holding
 * a text input (style 1 or 2, no label of its own, lengths within 0 to 4000, a placeholder of at
 * most 100), or a text display.
 */
export function modalProblems(data: any): string[] {
  const problems: string[] = [];
  const check = (ok: boolean, problem: string) => {
    if (!ok) problems.push(problem);
  };
  if (data === null || typeof data !== 'object') return ['data is not an object'];
  check(typeof data.custom_id === 'string' && data.custom_id.length >= 1 && data.custom_id.length <= 100, 'custom_id: 1 to 100');
  check(typeof data.title === 'string' && data.title.length >= 1 && data.title.length <= 45, 'title: 1 to 45');
  const components: any[] = Array.isArray(data.components) ? data.components : [];
  check(components.length >= 1 && components.length <= 5, 'components: 1 to 5');
  const ids = new Set<string>();
  components.forEach((c, i) => {
    const at = `components[${i}]`;
    if (c.type === 10) return check(typeof c.content === 'string' && c.content.length >= 1 && c.content.length <= 4000, `${at}.content: 1 to 4000`);
    check(c.type === 18, `${at}: a label or a text display`);
    check(typeof c.label === 'string' && c.label.length >= 1 && c.label.length <= 45, `${at}.label: 1 to 45`);
    check((c.description ?? '').length <= 100, `${at}.description: at most 100`);
    const input = c.component ?? {};
    check(input.type === 4, `${at}.component: a text input`);
    check(input.style === 1 || input.style === 2, `${at}.component.style: 1 or 2`);
    check(input.label === undefined, `${at}.component.label: a text input in a label has none`);
    check(typeof input.custom_id === 'string' && input.custom_id.length >= 1 && input.custom_id.length <= 100 && !ids.has(input.custom_id), `${at}.component.custom_id: 1 to 100, unique`);
    ids.add(input.custom_id);
    const min = input.min_length ?? 0;
    const max = input.max_length ?? 4000;
    check(Number.isInteger(min) && min >= 0 && min <= 4000, `${at}.component.min_length: 0 to 4000`);
    check(Number.isInteger(max) && max >= 1 && max <= 4000 && max >= min, `${at}.component.max_length: 1 to 4000`);
    check((input.placeholder ?? '').length <= 100, `${at}.component.placeholder: at most 100`);
    check((input.value ?? '').length <= 4000, `${at}.component.value: at most 4000`);
  });
  return problems;
}

/** Problems with an autocomplete result (`{ choices }`). */
export function choicesProblems(data: any): string[] {
  const choices: any[] = data?.choices ?? [];
  const problems: string[] = [];
  if (choices.length > 25) problems.push('choices: at most 25');
  choices.forEach((c, i) => {
    if (!(c.name?.length >= 1 && c.name.length <= 100)) problems.push(`choices[${i}].name: 1 to 100`);
    if (!(String(c.value).length >= 1 && String(c.value).length <= 100)) problems.push(`choices[${i}].value: 1 to 100`);
  });
  return problems;
}

function isUrl(url: unknown): boolean {
  if (typeof url !== 'string') return false;
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'http:' || parsed.protocol === 'https:';
  } catch {
    return false;
  }
}
