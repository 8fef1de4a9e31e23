/**
 * `paperscout slack rotate-tokens`: after token rotation is turned on for an app that workspaces
 * installed before (many workspaces, OAuth), exchanges each installation's token for a rotating
 * one (`adapters/slack/exchange.ts`), and says what became of each.
 */
import type { App } from '../../src/app.js';
import { UserError } from '../../src/errors.js';
import type { Messages } from '../../src/i18n/index.js';

export async function runSlackCommand(app: App, args: string[], m: Messages): Promise<number> {
  const [verb, ...rest] = args;
  if (verb !== 'rotate-tokens' || rest.length > 0) throw new UserError('cli.slack.usage');
  const slack = app.config.slack;
  if (!slack?.oauth) throw new UserError('cli.slack.noInstallFlow');
  const { exchangeTokens } = await import('../slack/exchange.js');
  const { exchanged, rotating, failed } = await exchangeTokens(app, { ...slack, oauth: slack.oauth });
  for (const { key, error } of failed) process.stderr.write(`${m.t('cli.slack.exchangeFailed', { key, error })}\n`);
  process.stdout.write(`${m.t('cli.slack.rotated', { exchanged: exchanged.length, rotating: rotating.length, failed: failed.length })}\n`);
  return failed.length > 0 ? 1 : 0;
}
