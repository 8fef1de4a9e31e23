/**
 * A TCP port that refuses connections until {@link LateProxy.up}, then forwards them to a
 * target: a platform that is unreachable at start and comes up later, without knowing the
 * target's port in advance.
 */
import { once } from 'node:events';
import { createServer, connect, type Server, type Socket } from 'node:net';

export class LateProxy {
  private server: Server | undefined;
  private readonly sockets = new Set<Socket>();

  private constructor(readonly port: number) {}

  /** Reserves a free port (nothing listens on it until {@link up}). */
  static async reserve(): Promise<LateProxy> {
    const probe = createServer();
    probe.listen(0, '127.0.0.1');
    await once(probe, 'listening');
    const { port } = probe.address() as { port: number };
    probe.close();
    await once(probe, 'close');
    return new LateProxy(port);
  }

  /** Starts accepting connections and forwarding them to `targetPort`. */
  async up(targetPort: number): Promise<void> {
    const server = createServer((client) => {
      const upstream = connect(targetPort, '127.0.0.1');
      for (const s of [client, upstream]) {
        this.sockets.add(s);
        s.on('close', () => this.sockets.delete(s));
        s.on('error', () => undefined);
      }
      client.pipe(upstream).pipe(client);
    });
    server.listen(this.port, '127.0.0.1');
    await once(server, 'listening');
    this.server = server;
  }

  async close(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    if (!this.server) return;
    this.server.close();
    await once(this.server, 'close');
  }
}
