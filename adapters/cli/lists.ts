/**
 * `paperscout export` and `paperscout library`: a member's or a channel's reading list from the
 * command line, for whoever runs the bot (backups, a lab's bibliography). A list is named as
 * `<platform>:<team>:<id>`: `discord:<guild id>:<user id>`, `slack:<team id>:<channel id>`.
 */
import { parseArgs } from 'node:util';
import type { App } from '../../src/app.js';
import { listPapers } from '../../src/commands/library.js';
import { UserError } from '../../src/errors.js';
import { isExportFormat, exportPapers, EXPORT_FORMATS } from '../../src/papers/export/index.js';
import type { ListOwner } from '../../src/store/readingLists.js';
import { hitJson } from '../../src/papers/hitJson.js';

/** The platforms a list or member may be of. */
export const PLATFORMS: readonly string[] = ['discord', 'slack', 'terminal'];

/** `export --format <bibtex|ris|csljson> (--channel … | --member …)`: the file on stdout. */
export async function runExport(app: App, args: string[]): Promise<number> {
  const { values } = parseArgs({ args, options: { format: { type: 'string' }, channel: { type: 'string' }, member: { type: 'string' } } });
  const format = values.format?.trim().toLowerCase();
  if (!format || !isExportFormat(format)) throw new UserError('cli.badExportFormat', { formats: EXPORT_FORMATS.join(', ') });
  const owner = ownerOf(values);
  const papers = await listPapers({ readingLists: app.stores.readingLists, library: app.library }, owner);
  process.stdout.write(exportPapers(papers, format).content);
  process.stderr.write(`${papers.length} papers\n`);
  return 0;
}

/** `library (--channel … | --member …) [--json]`: the list, newest first, as `search --json` hits. */
export async function runLibrary(app: App, args: string[]): Promise<number> {
  const { values } = parseArgs({ args, options: { channel: { type: 'string' }, member: { type: 'string' }, json: { type: 'boolean', default: false } } });
  const owner = ownerOf(values);
  const lists = app.stores.readingLists;
  const listed = await lists.list(owner, { offset: 0, limit: 100_000 });
  const shared = owner.kind === 'channel' ? await lists.archive(owner.platform, owner.team, owner.id, { offset: 0, limit: 100_000 }) : { entries: [] };
  const ids = [...new Set([...listed.entries.map((e) => e.paperId), ...shared.entries.map((e) => e.paperId)])];
  const papers = await app.library.papersByIds(ids);
  const entries = new Map(listed.entries.map((e) => [e.paperId, e]));
  const shares = new Map(shared.entries.map((e) => [e.paperId, e]));
  const rows = ids.flatMap((id) => {
    const stored = papers.get(id);
    if (!stored) return [];
    const entry = entries.get(id);
    const share = shares.get(id);
    return [
      {
        ...hitJson({ id, title: stored.paper.title }, stored.paper),
        ...(entry && { addedAt: entry.addedAt, addedBy: entry.addedBy?.id ?? null, note: entry.note ?? null }),
        ...(share && { shares: share.shares, firstSharedBy: share.firstSharedBy?.id ?? null, lastSharedAt: share.lastSharedAt }),
      },
    ];
  });
  if (values.json) process.stdout.write(`${JSON.stringify(rows, null, 2)}\n`);
  else for (const row of rows) process.stdout.write(`${row.id}\t${row.year ?? ''}\t${row.title}\n`);
  return 0;
}

/** The list `--channel` or `--member` names (exactly one of them). */
function ownerOf(values: { channel?: string | undefined; member?: string | undefined }): ListOwner {
  if ((values.channel === undefined) === (values.member === undefined)) throw new UserError('cli.giveList');
  const named = (values.channel ?? values.member)!;
  const [platform, team, id, ...rest] = named.split(':');
  if (!platform || !PLATFORMS.includes(platform) || !team || !id || rest.length > 0) throw new UserError('cli.badList', { value: named });
  return { platform, team, kind: values.channel !== undefined ? 'channel' : 'member', id };
}
