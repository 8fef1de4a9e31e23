/**
 * The install flow's pages (many workspaces, OAuth), in the visitor's language (Accept-Language):
 * `GET /slack/install` with the "Add to Slack" button, and what `GET /slack/oauth_redirect`
 * answers: installed (and where to go next), or why not (an expired or forged link, a cancelled
 * install, a code Slack refused) with a way to start again. Pure functions of their inputs.
 */
import { messages, type Messages } from '../../src/i18n/index.js';
import { DEFAULT_LOCALE, acceptedLocale } from '../../src/i18n/locale.js';

/** Why an install did not complete, as the failure page says it. */
export type InstallFailure = 'state' | 'cancelled' | 'code' | 'other';

/**
 * The catalog locale a browser prefers (Accept-Language, by quality); English when none fits.
 * @example preferredLocale('fr;q=0.9, zh-TW;q=0.8, en;q=0.5') // 'zh-CN'
 */
export function preferredLocale(header: string | string[] | undefined): string {
  return acceptedLocale(header) ?? DEFAULT_LOCALE;
}

/** The page with the "Add to Slack" button that goes to `url` (Slack's authorize URL with a fresh state). */
export function installPage(locale: string, url: string, scopes: readonly string[], retentionDays: number): string {
  const m = messages(locale);
  return page(
    m,
    m.t('slack.install.title'),
    `<p>${esc(m.t('slack.install.lead'))}</p>
    <p><a class="button" href="${esc(url)}">${esc(m.t('slack.install.button'))}</a></p>
    <p class="small">${esc(m.t('slack.install.scopes', { scopes: scopes.join(', ') }))}</p>
    <p class="small">${esc(m.t('slack.install.privacy', { days: retentionDays }))}</p>`,
  );
}

/** Where the app was installed: a workspace, or a whole organization (an org-wide install). */
export interface InstalledIn {
  id?: string | undefined;
  name?: string | undefined;
  orgWide: boolean;
}

/**
 * After a completed install: where to go next, and a link into the workspace. An org-wide
 * install is in no workspace yet: the admin is sent to add it to the workspaces that should use it.
 */
export function installedPage(locale: string, where: InstalledIn, appId: string | undefined): string {
  const m = messages(locale);
  const name = where.name ?? where.id ?? 'Slack';
  if (where.orgWide) {
    const manage = where.id && appId ? `https://app.slack.com/manage/${encodeURIComponent(where.id)}/integrations/profile/${encodeURIComponent(appId)}/workspaces/add` : 'https://app.slack.com/manage';
    return page(
      m,
      m.t('slack.installed.title'),
      `<p>${esc(m.t('slack.installed.orgBody', { org: name }))}</p>
    <p><a class="button" href="${esc(manage)}">${esc(m.t('slack.installed.addWorkspaces'))}</a></p>`,
    );
  }
  const open = where.id ? (appId ? `slack://app?team=${encodeURIComponent(where.id)}&id=${encodeURIComponent(appId)}` : `https://app.slack.com/client/${encodeURIComponent(where.id)}`) : 'slack://open';
  return page(
    m,
    m.t('slack.installed.title'),
    `<p>${esc(m.t('slack.installed.body', { team: name }))}</p>
    <p><a class="button" href="${esc(open)}">${esc(m.t('slack.installed.open'))}</a></p>`,
  );
}

/** Why an install failed, with a link back to the install page. */
export function failedPage(locale: string, failure: InstallFailure, installPath: string, reference: string): string {
  const m = messages(locale);
  const why = {
    state: m.t('slack.installFailed.state'),
    cancelled: m.t('slack.installFailed.cancelled'),
    code: m.t('slack.installFailed.code'),
    other: m.t('slack.installFailed.other', { reference }),
  }[failure];
  return page(m, m.t('slack.installFailed.title'), `<p>${esc(why)}</p>\n    <p><a class="button" href="${esc(installPath)}">${esc(m.t('slack.installFailed.again'))}</a></p>`);
}

function page(m: Messages, title: string, body: string): string {
  return `<!doctype html>
<html lang="${m.locale}">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <meta name="referrer" content="no-referrer">
  <title>${esc(title)}</title>
  <style>
    body { font: 16px/1.5 system-ui, -apple-system, "Segoe UI", "PingFang SC", "Microsoft YaHei", sans-serif; color: #1d3557; margin: 0; background: #f1faee; }
    main { max-width: 40rem; margin: 3rem auto; padding: 2rem; background: #fff; border-radius: 8px; }
    h1 { font-size: 1.6rem; margin-top: 0; }
    .button { display: inline-block; padding: .6rem 1.2rem; background: #4a154b; color: #fff; border-radius: 4px; text-decoration: none; font-weight: 600; }
    .small { font-size: .875rem; color: #457b9d; }
  </style>
</head>
<body>
  <main>
    <h1>${esc(title)}</h1>
    ${body}
  </main>
</body>
</html>
`;
}

function esc(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}
