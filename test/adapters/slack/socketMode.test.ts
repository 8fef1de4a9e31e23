/**
 * Socket Mode (SLACK_APP_TOKEN): the adapter opens its connection through the Web API at
 * SLACK_API_URL (apps.connections.open, with the app token), connects to the WebSocket URL it
 * gets, acknowledges each envelope and answers through the response_url. A loopback WebSocket
 * server plays Slack's side of the protocol.
 */
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { WebSocketServer, type WebSocket } from 'ws';
import { startSlack, type RunningSlack } from '../../../adapters/slack/index.js';
import { createTestApp, type TestApp } from '../../helpers/app.js';
import { APP_TOKEN, BOT_TOKEN, FakeSlack, type Json } from './fakeSlack.js';
import { SIGNING_SECRET, fixture, textOf } from './harness.js';

let app: TestApp;
let fake: FakeSlack;
let wss: WebSocketServer;
let socket: WebSocket;
const received: Json[] = [];

beforeAll(async () => {
  app = await createTestApp();
  fake = await FakeSlack.start();
  wss = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  await once(wss, 'listening');
  const url = `ws://127.0.0.1:${(wss.address() as AddressInfo).port}/link/?ticket=t1`;
  fake.answer('apps.connections.open', () => ({ ok: true, url }));
  wss.on('connection', (ws) => {
    socket = ws;
    ws.on('message', (data) => received.push(JSON.parse(String(data)) as Json));
    ws.send(JSON.stringify({ type: 'hello', num_connections: 1, debug_info: { host: 'fake-slack', approximate_connection_time: 18060 }, connection_info: { app_id: 'A0PAPERSCOUT' } }));
  });
});

afterAll(async () => {
  for (const client of wss.clients) client.terminate();
  wss.close();
  await fake.close();
  await app.dispose();
});

it('connects through apps.connections.open, acks an envelope and answers through the response_url', async () => {
  const slack: RunningSlack = await startSlack(app, { botToken: BOT_TOKEN, signingSecret: SIGNING_SECRET, appToken: APP_TOKEN, apiUrl: fake.apiUrl, port: 0 });
  try {
    expect(slack.port).toBeUndefined();
    expect(fake.callsOf('apps.connections.open')).toHaveLength(1);
    const responseUrl = fake.responseUrl();
    socket.send(JSON.stringify({ envelope_id: 'env-1', type: 'slash_commands', accepts_response_payload: true, payload: { ...fixture('slash-command'), text: 'graph attention', response_url: responseUrl } }));
    const [post] = await fake.waitForPosts(responseUrl);
    expect(post).toMatchObject({ response_type: 'ephemeral' });
    expect(textOf(post!)).toContain('Graph Attention Networks');
    expect(received).toContainEqual({ envelope_id: 'env-1', payload: {} });
  } finally {
    await slack.stop();
  }
});
