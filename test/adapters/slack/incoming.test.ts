import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { sharedByOf } from '../../../adapters/slack/actions.js';
import { channelKind, channelName, decodeOrigin, encodeOrigin, fromSlackMarkup, mentionRequest, sharedLinkUrl, type Origin } from '../../../adapters/slack/incoming.js';
import { BUTTON_VALUE_MAX } from '../../../adapters/slack/limits.js';
import { renderReply } from '../../../adapters/slack/render.js';

const COMMANDS = ['paper', 'topic', 'help'];

describe('channelKind', () => {
  it.each([
    ['D024BE91L', 'directmessage', 'dm'],
    ['D024BE91L', undefined, 'dm'],
    ['G0TRIO', 'mpdm-alice--bob--carol-1', 'group-dm'],
    ['C0TRIO', 'mpdm-alice--bob-1', 'group-dm'],
    ['C0GENERAL', 'general', 'channel'],
    ['G0PRIVATE', 'privategroup', 'channel'],
    ['C0MPDMFANS', 'mpdm-lovers', 'group-dm'],
    ['C0DIRECT', 'directmessages', 'channel'],
    ['C0GENERAL', undefined, 'channel'],
  ] as const)('%s named %s is a %s', (id, name, kind) => {
    expect(channelKind(id, name)).toBe(kind);
  });
});

describe('mentionRequest', () => {
  it.each([
    ['<@U0BOT> diffusion transformers', { command: 'paper', text: 'diffusion transformers' }],
    ['diffusion <@U0BOT>  transformers', { command: 'paper', text: 'diffusion transformers' }],
    ['<@U0BOT|paperscout> attention', { command: 'paper', text: 'attention' }],
    ['<@U0BOT> <https://arxiv.org/abs/1706.03762|arxiv.org/abs/1706.03762>', { command: 'paper', text: 'https://arxiv.org/abs/1706.03762' }],
    ['<@U0BOT> <https://openreview.net/forum?id=x&amp;noteId=y>', { command: 'paper', text: 'https://openreview.net/forum?id=x&noteId=y' }],
    ['<@U0BOT> author:&quot;Bengio&quot; year:&gt;=2015 &amp; more', { command: 'paper', text: 'author:&quot;Bengio&quot; year:>=2015 & more' }],
    ['<@U0BOT> /topic llm', { command: 'topic', text: 'llm' }],
    ['<@U0BOT> /TOPIC', { command: 'topic', text: '' }],
    ['<@U0BOT> help', { command: 'help', text: '' }],
    ['<@U0BOT> /nosuch thing', { command: 'paper', text: '/nosuch thing' }],
    ['<@U0BOT> papers by <@U0ALICE> in <#C0GENERAL|general> <!here>', { command: 'paper', text: 'papers by in #general' }],
    ['<@U0BOT>', { command: 'paper', text: '' }],
    ['<@U0BOT>   \n ', { command: 'paper', text: '' }],
  ])('reads %j', (text, expected) => {
    expect(mentionRequest(text, 'U0BOT', COMMANDS)).toEqual(expected);
  });

  it('drops a leading mention when the bot user id is unknown', () => {
    expect(mentionRequest('<@U0BOT> gans', undefined, COMMANDS)).toEqual({ command: 'paper', text: 'gans' });
  });

  it('never throws on hostile text', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom('<', '>', '|', '@', '#', '!', '&amp;', '/', 'a', ' ', 'U0BOT', 'http://', '\n'), maxLength: 200 }), (text) => {
        const request = mentionRequest(text, 'U0BOT', COMMANDS);
        expect(COMMANDS).toContain(request.command);
        expect(request.text).toBe(request.text.trim());
      }),
    );
  });
});

describe('fromSlackMarkup and shared links', () => {
  it('turns Slack markup back into what was typed', () => {
    expect(fromSlackMarkup('<mailto:a@b.org|a@b.org> &lt;x&gt; &amp;lt;')).toBe('a@b.org <x> &lt;');
    expect(sharedLinkUrl(' https://openreview.net/forum?id=x&amp;noteId=y ')).toBe('https://openreview.net/forum?id=x&noteId=y');
  });
});

describe('Share button values', () => {
  it('round-trip a command with its text, and an action handle', () => {
    const origin = fc.oneof(
      fc.record({ kind: fc.constant('run' as const), command: fc.constantFrom(...COMMANDS, 'digest'), text: fc.string({ maxLength: 1000 }) }),
      fc.record({ kind: fc.constant('act' as const), handle: fc.string({ minLength: 1, maxLength: 100 }) }),
    );
    fc.assert(
      fc.property(origin, (o: Origin) => {
        const value = encodeOrigin(o);
        expect(value).toBeDefined();
        expect(value!.length).toBeLessThanOrEqual(BUTTON_VALUE_MAX);
        expect(decodeOrigin(value!)).toEqual(o);
      }),
    );
  });

  it('refuse values that would not fit in a button, and read nothing from a broken one', () => {
    expect(encodeOrigin({ kind: 'run', command: 'paper', text: 'x'.repeat(BUTTON_VALUE_MAX) })).toBeUndefined();
    expect(decodeOrigin('paper:page:abc:1')).toBeUndefined();
    expect(decodeOrigin('run:Not A Command:x')).toBeUndefined();
  });

  it('find who shared a channel message in its own blocks', () => {
    const message = renderReply({ fallback: 'x', blocks: [{ kind: 'text', text: 'x' }] }, { sharedBy: 'U0ALICE' });
    expect(sharedByOf({ type: 'message', ts: '1', blocks: message.blocks })).toBe('U0ALICE');
    expect(sharedByOf({ type: 'message', ts: '1', blocks: [{ type: 'context', block_id: 'other', elements: [{ type: 'mrkdwn', text: '<@U0EVE>' }] }] })).toBeUndefined();
    expect(sharedByOf(undefined)).toBeUndefined();
  });
});

describe('channelName ("Save to #papers")', () => {
  it.each([
    ['papers', 'papers'],
    ['privategroup', undefined],
    ['directmessage', undefined],
    ['mpdm-alice--bob-1', undefined],
    ['', undefined],
    [undefined, undefined],
  ])('%s → %s', (name, expected) => {
    expect(channelName(name)).toBe(expected);
  });
});
