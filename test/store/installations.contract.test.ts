/**
 * The installation store on SQLite and PostgreSQL: one installation per workspace (enterprise id
 * for org-wide installs, else team id), tokens sealed at rest and bound to their row, removal
 * that wipes tokens and keeps the row until retention, and a reinstall that clears it.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SealedInstallationStore, type NewInstallation } from '../../src/store/installations.js';
import { tokenBox } from '../../src/store/tokenBox.js';
import { BACKENDS, type Instance, type TestStore } from './contract/backends.js';

const SECRET = 'a-state-secret-of-some-length';
const at = (iso: string) => new Date(iso);

const team = (id: string, token: string, extra: Partial<NewInstallation> = {}): NewInstallation => ({
  key: id,
  teamId: id,
  enterpriseInstall: false,
  botToken: token,
  botUserId: `U${id}`,
  botId: `B${id}`,
  scopes: ['commands', 'chat:write'],
  installer: 'U0ADMIN',
  details: { appId: 'A0PAPERS', teamName: `Team ${id}` },
  secrets: {},
  ...extra,
});

describe.each(BACKENDS)('InstallationStore on $name', (backend) => {
  if (backend.skip) {
    it.skip(`skipped: ${backend.skip}`, () => undefined);
    return;
  }
  let store: TestStore;
  let a: Instance;
  let installs: SealedInstallationStore;
  beforeEach(async () => {
    store = await backend.create();
    a = await store.instance();
    installs = new SealedInstallationStore(a.installationRows, tokenBox(SECRET));
  });
  afterEach(() => store.dispose());

  it('keeps one installation per workspace, with its token, scopes and installer', async () => {
    await installs.save(team('T1', 'xoxb-one'), at('2026-04-01T10:00:00Z'));
    await installs.save(team('T2', 'xoxb-two', { refreshToken: 'xoxe-1-two', expiresAt: 1_775_000_000 }), at('2026-04-01T10:01:00Z'));
    const one = await installs.get('T1');
    expect(one).toEqual({
      key: 'T1',
      teamId: 'T1',
      enterpriseInstall: false,
      botToken: 'xoxb-one',
      botUserId: 'UT1',
      botId: 'BT1',
      scopes: ['commands', 'chat:write'],
      installer: 'U0ADMIN',
      details: { appId: 'A0PAPERS', teamName: 'Team T1' },
      secrets: {},
      installedAt: '2026-04-01T10:00:00.000Z',
      updatedAt: '2026-04-01T10:00:00.000Z',
    });
    expect(await installs.get('T2')).toMatchObject({ botToken: 'xoxb-two', refreshToken: 'xoxe-1-two', expiresAt: 1_775_000_000 });
    expect(await installs.get('T3')).toBeUndefined();
    expect(await installs.count()).toBe(2);
    expect(await installs.keys()).toEqual(['T1', 'T2']);
  });

  it('keys an org-wide install by its enterprise id', async () => {
    await installs.save({ ...team('E1', 'xoxb-org'), teamId: undefined, enterpriseId: 'E1', enterpriseInstall: true } as NewInstallation, at('2026-04-01T10:00:00Z'));
    expect(await installs.get('E1')).toMatchObject({ key: 'E1', enterpriseId: 'E1', enterpriseInstall: true, botToken: 'xoxb-org' });
    expect((await installs.get('E1'))?.teamId).toBeUndefined();
  });

  it('serves the workspaces an org-wide install was added to, a workspace\'s own install first', async () => {
    const org = { ...team('E1', 'xoxb-org'), teamId: undefined, enterpriseId: 'E1', enterpriseInstall: true } as NewInstallation;
    await installs.save(org, at('2026-04-01T10:00:00Z'));
    await installs.save(team('T9', 'xoxb-own'), at('2026-04-01T10:00:00Z'));
    await installs.addTeams('E1', ['T1', 'T2', 'T9', 'T1'], at('2026-04-01T11:00:00Z'));
    expect(await installs.teamsOf('E1')).toEqual(['T1', 'T2', 'T9']);
    expect(await installs.keyServing('T1')).toBe('E1');
    expect(await installs.keyServing('T9')).toBe('T9');
    expect(await installs.keyServing('T3')).toBeUndefined();
    expect(await installs.keyServing('E1')).toBe('E1');

    // team_access_revoked: only the workspaces the install served, each once.
    expect(await installs.removeTeams('E1', ['T2', 'T3'], at('2026-04-02T10:00:00Z'))).toEqual(['T2']);
    expect(await installs.removeTeams('E1', ['T2'], at('2026-04-03T10:00:00Z'))).toEqual([]);
    expect(await installs.keyServing('T2')).toBeUndefined();
    expect(await installs.teamsOf('E1')).toEqual(['T1', 'T9']);
    expect(await installs.removedTeamsBefore(at('2026-04-02T10:00:00Z'))).toEqual([]);
    expect(await installs.removedTeamsBefore(at('2026-05-02T10:00:00Z'))).toEqual([{ teamId: 'T2', key: 'E1', removedAt: '2026-04-02T10:00:00.000Z' }]);
    // team_access_granted brings a workspace back.
    await installs.addTeams('E1', ['T2'], at('2026-04-04T10:00:00Z'));
    expect(await installs.removedTeamsBefore(at('2026-05-02T10:00:00Z'))).toEqual([]);
    expect(await installs.keyServing('T2')).toBe('E1');
    expect(await installs.forgetTeam('T2', at('2026-05-02T10:00:00Z'))).toBe(false);

    // Removing the org-wide install stops serving its workspaces; forgetting it takes their entries too.
    await installs.remove('E1', at('2026-04-05T10:00:00Z'));
    expect(await installs.keyServing('T1')).toBeUndefined();
    expect(await installs.keyServing('T9')).toBe('T9');
    expect(await installs.removedBefore(at('2026-05-06T10:00:00Z'))).toEqual([{ key: 'E1', enterpriseId: 'E1', removedAt: '2026-04-05T10:00:00.000Z' }]);
    expect(await installs.forget('E1', at('2026-04-05T10:00:00Z'))).toBe(false);
    expect(await installs.forget('E1', at('2026-05-06T10:00:00Z'))).toBe(true);
    expect(await installs.teamsOf('E1')).toEqual([]);
    expect(await a.rawRows('SELECT * FROM installation_teams')).toEqual([]);
    expect(await installs.get('T9')).toMatchObject({ botToken: 'xoxb-own' });
  });

  it('learns a workspace from its requests, but never undoes a removal made since the install', async () => {
    const org = { ...team('E1', 'xoxb-org'), teamId: undefined, enterpriseId: 'E1', enterpriseInstall: true } as NewInstallation;
    await installs.save(org, at('2026-04-01T10:00:00Z'));
    expect(await installs.noteTeam('E1', 'T4', at('2026-04-01T11:00:00Z'))).toBe(true);
    expect(await installs.noteTeam('E1', 'T4', at('2026-04-01T12:00:00Z'))).toBe(false);
    expect(await installs.keyServing('T4')).toBe('E1');
    // A request (or a retried event) after team_access_revoked does not bring the workspace back …
    expect(await installs.removeTeams('E1', ['T4'], at('2026-04-02T10:00:00Z'))).toEqual(['T4']);
    expect(await installs.noteTeam('E1', 'T4', at('2026-04-02T10:01:00Z'))).toBe(false);
    expect(await installs.keyServing('T4')).toBeUndefined();
    // … but after an uninstall and a reinstall, a request from it proves it is served again.
    await installs.remove('E1', at('2026-04-03T10:00:00Z'));
    await installs.save(org, at('2026-04-04T10:00:00Z'));
    expect(await installs.keyServing('T4')).toBeUndefined();
    expect(await installs.noteTeam('E1', 'T4', at('2026-04-04T11:00:00Z'))).toBe(true);
    expect(await installs.keyServing('T4')).toBe('E1');
    expect(await installs.removedTeamsBefore(at('2026-06-01T00:00:00Z'))).toEqual([]);

    // A removed workspace's entry goes after retention, unless it was added back meanwhile.
    await installs.removeTeams('E1', ['T4'], at('2026-04-05T10:00:00Z'));
    expect(await installs.forgetTeam('T4', at('2026-04-05T10:00:00Z'))).toBe(false);
    expect(await installs.forgetTeam('T4', at('2026-05-06T10:00:00Z'))).toBe(true);
    expect(await installs.teamsOf('E1')).toEqual([]);
    expect(await installs.noteTeam('E1', 'T4', at('2026-05-07T10:00:00Z'))).toBe(true);
  });

  it('seals tokens at rest: no token in the table, and another key or another row opens nothing', async () => {
    await installs.save(team('T1', 'xoxb-secret-one', { refreshToken: 'xoxe-refresh-one', secrets: { userToken: 'xoxp-user-one' } }), at('2026-04-01T10:00:00Z'));
    await installs.save(team('T2', 'xoxb-secret-two'), at('2026-04-01T10:00:00Z'));
    const raw = JSON.stringify(await a.rawRows('SELECT * FROM installations'));
    expect(raw).toContain('T1');
    for (const token of ['xoxb-secret-one', 'xoxe-refresh-one', 'xoxp-user-one', 'xoxb-secret-two']) expect(raw).not.toContain(token);
    const other = new SealedInstallationStore(a.installationRows, tokenBox('another-secret-altogether'));
    await expect(other.get('T1')).rejects.toThrow(/INSTALLATION_KEY or SLACK_STATE_SECRET/);
    // T2's sealed tokens copied into T1's row do not open there.
    const [row2] = await a.rawRows("SELECT secret FROM installations WHERE key = 'T2'");
    await a.installationRows.upsert({ ...(await a.installationRows.read('T1'))!, secret: String(row2!.secret) });
    await expect(installs.get('T1')).rejects.toThrow();
  });

  it('replaces a rotated token and keeps the first install time', async () => {
    await installs.save(team('T1', 'xoxb-old', { refreshToken: 'r1', expiresAt: 100 }), at('2026-04-01T10:00:00Z'));
    await installs.save(team('T1', 'xoxb-new', { refreshToken: 'r2', expiresAt: 200 }), at('2026-04-01T22:00:00Z'));
    expect(await installs.get('T1')).toMatchObject({ botToken: 'xoxb-new', refreshToken: 'r2', expiresAt: 200, installedAt: '2026-04-01T10:00:00.000Z', updatedAt: '2026-04-01T22:00:00.000Z' });
    expect(await installs.count()).toBe(1);
  });

  it('removes an installation: tokens wiped, row kept until forgotten; a reinstall clears the removal', async () => {
    await installs.save(team('T1', 'xoxb-one'), at('2026-04-01T10:00:00Z'));
    await installs.save(team('T2', 'xoxb-two'), at('2026-04-01T10:00:00Z'));
    expect(await installs.remove('T1', at('2026-04-02T10:00:00Z'))).toBe(true);
    expect(await installs.remove('T1', at('2026-04-03T10:00:00Z'))).toBe(false);
    expect(await installs.remove('T9', at('2026-04-03T10:00:00Z'))).toBe(false);
    expect(await installs.get('T1')).toBeUndefined();
    expect(await installs.get('T2')).toMatchObject({ botToken: 'xoxb-two' });
    expect(await installs.count()).toBe(1);
    expect(await installs.keys()).toEqual(['T2']);
    expect(JSON.stringify(await a.rawRows("SELECT secret FROM installations WHERE key = 'T1'"))).not.toMatch(/v1\./);
    expect(await installs.removedBefore(at('2026-04-02T10:00:00Z'))).toEqual([]);
    expect(await installs.removedBefore(at('2026-05-02T10:00:00Z'))).toEqual([{ key: 'T1', teamId: 'T1', removedAt: '2026-04-02T10:00:00.000Z' }]);

    await installs.save(team('T1', 'xoxb-again'), at('2026-04-10T10:00:00Z'));
    expect(await installs.get('T1')).toMatchObject({ botToken: 'xoxb-again', installedAt: '2026-04-10T10:00:00.000Z' });
    expect(await installs.removedBefore(at('2026-05-02T10:00:00Z'))).toEqual([]);

    await installs.remove('T2', at('2026-04-02T10:00:00Z'));
    expect(await installs.forget('T1', at('2026-05-02T10:00:00Z'))).toBe(false);
    expect(await installs.forget('T2', at('2026-05-02T10:00:00Z'))).toBe(true);
    expect(await installs.removedBefore(at('2026-05-02T10:00:00Z'))).toEqual([]);
    expect(await installs.count()).toBe(1);
  });

  it('is shared by instances of one store', async () => {
    const b = new SealedInstallationStore((await store.instance()).installationRows, tokenBox(SECRET));
    await installs.save(team('T1', 'xoxb-one'), at('2026-04-01T10:00:00Z'));
    expect(await b.get('T1')).toMatchObject({ botToken: 'xoxb-one' });
  });
});
