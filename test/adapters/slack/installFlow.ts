/**
 * A browser going through the install flow of an adapter at `base`: the install page, approval
 * in the loopback Slack ({@link FakeOAuth}), the redirect back with the state cookie.
 */
import type { FakeOAuth } from './fakeOAuth.js';

/** Installs the app in `team`; resolves the redirect's status. */
export async function installVia(base: string, oauth: FakeOAuth, team: string): Promise<number> {
  return (await installWith(base, oauth.approve(team))).status;
}

/** Goes through the install flow with an approval's `code`; the redirect's status and page. */
export async function installWith(base: string, code: string, language = 'en'): Promise<{ status: number; html: string }> {
  const page = await fetch(`${base}/slack/install`);
  const cookie = page.headers.get('set-cookie')!.split(';')[0]!;
  const href = /href="(https:\/\/slack\.com\/oauth\/v2\/authorize[^"]+)"/.exec(await page.text())![1]!.replaceAll('&amp;', '&');
  const state = new URL(href).searchParams.get('state')!;
  const res = await fetch(`${base}/slack/oauth_redirect?${new URLSearchParams({ code, state })}`, { headers: { cookie, 'accept-language': language }, redirect: 'manual' });
  return { status: res.status, html: await res.text() };
}
