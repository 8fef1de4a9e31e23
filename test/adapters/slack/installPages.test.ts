/**
 * The install flow's pages: the visitor's language from Accept-Language (by quality, the first
 * language a catalog serves), and nothing from Slack or the URL written into the page unescaped;
 * and where the Add to Slack button sends installers (GovSlack's page for GovSlack).
 */
import { describe, expect, it } from 'vitest';
import { failedPage, installPage, installedPage, preferredLocale } from '../../../adapters/slack/installPages.js';
import { authorizationUrlFor } from '../../../adapters/slack/oauth.js';
import { messages } from '../../../src/i18n/index.js';

describe('preferredLocale', () => {
  it.each([
    [undefined, 'en'],
    ['', 'en'],
    ['*', 'en'],
    ['zh-CN,zh;q=0.9,en;q=0.8', 'zh-CN'],
    ['zh-TW', 'zh-CN'],
    ['en-GB,zh;q=0.5', 'en'],
    ['fr-FR, zh-HK;q=0.8, en;q=0.5', 'zh-CN'],
    ['en;q=0.2, zh;q=0.9', 'zh-CN'],
    ['zh;q=0, en;q=0.1', 'en'],
    ['de, fr', 'en'],
    ['not a tag;;;q=abc, zh', 'zh-CN'],
  ])('%j → %s', (header, locale) => {
    expect(preferredLocale(header)).toBe(locale);
  });
});

describe('pages', () => {
  it('escapes what it did not write itself', () => {
    const installed = installedPage('en', { id: 'T1', name: '<script>alert(1)</script>', orgWide: false }, 'A1"><b>');
    expect(installed).not.toContain('<script>alert');
    expect(installed).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(installed).toContain('href="slack://app?team=T1&amp;id=A1%22%3E%3Cb%3E"');
    const org = installedPage('en', { id: 'E1"', name: '<img src=x onerror=alert(1)>', orgWide: true }, 'A1');
    expect(org).not.toContain('<img');
    expect(org).toContain('href="https://app.slack.com/manage/E1%22/integrations/profile/A1/workspaces/add"');
    const install = installPage('zh-CN', 'https://slack.com/oauth/v2/authorize?scope=a,b&state=x"y', ['commands'], 30);
    expect(install).toContain('href="https://slack.com/oauth/v2/authorize?scope=a,b&amp;state=x&quot;y"');
    expect(install).toContain('<html lang="zh-CN">');
    expect(install).toContain('30 天');
  });

  it('sends the admin of an org-wide install to add it to workspaces, in their language', () => {
    for (const locale of ['en', 'zh-CN']) {
      const m = messages(locale);
      const org = installedPage(locale, { id: 'E0ORG', name: 'Starship', orgWide: true }, 'A0PAPERS');
      expect(org).toContain(m.t('slack.installed.orgBody', { org: 'Starship' }));
      expect(org).toContain(`<a class="button" href="https://app.slack.com/manage/E0ORG/integrations/profile/A0PAPERS/workspaces/add">${m.t('slack.installed.addWorkspaces')}</a>`);
      expect(org).not.toContain('slack://');
    }
  });

  it('gives a failure page a way back to the install page, and a reference when it was ours', () => {
    const other = failedPage('en', 'other', '/slack/install', 'ab12cd34');
    expect(other).toContain('href="/slack/install"');
    expect(other).toContain('ab12cd34');
    expect(failedPage('en', 'state', '/slack/install', 'ab12cd34')).not.toContain('ab12cd34');
  });
});

describe('authorizationUrlFor', () => {
  it.each([
    [undefined, 'https://slack.com/oauth/v2/authorize'],
    ['https://slack.com/api/', 'https://slack.com/oauth/v2/authorize'],
    ['https://slack-gov.com/api/', 'https://slack-gov.com/oauth/v2/authorize'],
    ['https://api.slack-gov.com/api/', 'https://slack-gov.com/oauth/v2/authorize'],
    ['https://notslack-gov.com/api/', 'https://slack.com/oauth/v2/authorize'],
    ['http://127.0.0.1:8080/api/', 'https://slack.com/oauth/v2/authorize'],
  ])('%s → %s', (api, url) => {
    expect(authorizationUrlFor(api)).toBe(url);
  });
});
