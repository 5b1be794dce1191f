import { expect } from 'chai';
import { Redis } from 'ioredis';
import { createServer, type AddressInfo, type Server } from 'node:net';
import { monitorRedis, parseMonitorLine, type MonitorLine } from '../src/redis-monitor.js';
import { testRedisUrl } from '../src/test-redis.js';
import { waitUntil } from '../src/wait-until.js';

/** A server on loopback that answers MONITOR's OK and `lines` in one write, as a busy Redis may. */
async function oneWriteServer(lines: readonly string[]): Promise<{ url: string; server: Server }> {
  const server = createServer((socket) => {
    socket.once('data', () => socket.write(['+OK', ...lines].map((line) => `${line}\r\n`).join('')));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `redis://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

describe('MONITOR over a plain socket (test kit)', () => {
  it("reads a command line that arrives in the same read as MONITOR's OK", async () => {
    const { url, server } = await oneWriteServer(['+1700000000.000001 [0 127.0.0.1:5000] "EVALSHA" "abc" "0"']);
    const seen: MonitorLine[] = [];
    const monitor = await monitorRedis(url, (line) => seen.push(line));
    try {
      await waitUntil(() => seen.length === 1, 5_000);
      expect(seen[0]).to.deep.equal({ time: '1700000000.000001', source: '127.0.0.1:5000', args: ['EVALSHA', 'abc', '0'] });
    } finally {
      monitor.close();
      server.close();
    }
  });

  it("starts cleanly while other connections keep the server busy (a client library's MONITOR fails there)", async () => {
    const url = testRedisUrl();
    const writers = Array.from({ length: 4 }, () => new Redis(url));
    let writing = true;
    const loops = writers.map(async (writer) => {
      while (writing) await writer.set(`test:monitor-load:${process.pid}`, 'v');
    });
    try {
      for (let round = 0; round < 30; round += 1) {
        let lines = 0;
        const monitor = await monitorRedis(url, () => (lines += 1));
        await waitUntil(() => lines > 0, 5_000);
        monitor.close();
      }
    } finally {
      writing = false;
      await Promise.all(loops);
      for (const writer of writers) writer.disconnect();
    }
  });

  it('unescapes what Redis quoted: quotes, backslashes, line breaks and bytes shown as \\x', () => {
    const line = parseMonitorLine(String.raw`+1.5 [0 lua] "SET" "a\"b\\c" "x\r\ny" "\x00\xff"`);
    expect(line).to.deep.equal({ time: '1.5', source: 'lua', args: ['SET', 'a"b\\c', 'x\r\ny', '\x00\xff'] });
    expect(parseMonitorLine('+OK')).to.equal(undefined);
  });

  it('shows every command another connection sends to the test\'s Redis, with its address, and the commands a script runs as "lua"', async () => {
    const client = new Redis(testRedisUrl(), { connectionName: 'monitor-test' });
    const seen: MonitorLine[] = [];
    const monitor = await monitorRedis(testRedisUrl(), (line) => seen.push(line));
    try {
      const key = `test:monitor:${process.pid}`;
      const value = 'say "hi"\n\\ ünï';
      await client.set(key, value);
      await client.eval("return redis.call('GET', KEYS[1])", 1, key);
      await client.del(key);
      await waitUntil(() => seen.some((line) => line.args[0] === 'del' || line.args[0] === 'DEL'), 5_000);
      const mine = seen.filter((line) => line.args.includes(key));
      expect(mine.map((line) => line.args[0]!.toUpperCase())).to.deep.equal(['SET', 'EVAL', 'GET', 'DEL']);
      expect(Buffer.from(mine[0]!.args[2]!, 'latin1').toString('utf8')).to.equal(value);
      expect(mine[2]!.source).to.equal('lua');
      expect(mine[0]!.source).to.match(/^127\.0\.0\.1:\d+$/);
    } finally {
      monitor.close();
      client.disconnect();
    }
  });
});
