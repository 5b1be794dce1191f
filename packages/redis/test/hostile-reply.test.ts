import { createServer, type Server, type Socket } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runProcess, type ProcessRun } from '@dialog-relay/testkit';
import { expect } from 'chai';

const CLIENT = join(dirname(fileURLToPath(import.meta.url)), 'support', 'hostile-reply-client.js');

/** Reads the RESP commands a client sends (arrays of bulk strings); returns the complete ones and the rest. */
function takeCommands(buffer: string): { commands: string[][]; rest: string } {
  const commands: string[][] = [];
  let at = 0;
  for (;;) {
    const header = /^\*(\d+)\r\n/.exec(buffer.slice(at));
    if (!header) break;
    let cursor = at + header[0].length;
    const args: string[] = [];
    for (let i = 0; i < Number(header[1]); i++) {
      const bulk = /^\$(\d+)\r\n/.exec(buffer.slice(cursor));
      if (!bulk || buffer.length < cursor + bulk[0].length + Number(bulk[1]) + 2) return { commands, rest: buffer.slice(at) };
      cursor += bulk[0].length;
      args.push(buffer.slice(cursor, cursor + Number(bulk[1])));
      cursor += Number(bulk[1]) + 2;
    }
    commands.push(args);
    at = cursor;
  }
  return { commands, rest: buffer.slice(at) };
}

/**
 * A fake Redis on 127.0.0.1 that sets up a connection as a real one would (no HELLO, OK to CLIENT,
 * an INFO that says loaded) and answers the first GET with `hostile`.
 */
async function startFakeRedis(hostile: string): Promise<{ port: number; close: () => Promise<void> }> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
    let pending = '';
    socket.on('data', (chunk: Buffer) => {
      const { commands, rest } = takeCommands(pending + chunk.toString('latin1'));
      pending = rest;
      for (const [name = ''] of commands) {
        const command = name.toUpperCase();
        if (command === 'GET') socket.write(hostile);
        else if (command === 'INFO') {
          const info = '# Server\r\nredis_version:7.0.0\r\nloading:0\r\n';
          socket.write(`$${info.length}\r\n${info}\r\n`);
        } else if (command === 'HELLO') socket.write("-ERR unknown command 'HELLO'\r\n");
        else socket.write('+OK\r\n');
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    port,
    close: () =>
      new Promise<void>((resolve) => {
        sockets.forEach((socket) => socket.destroy());
        server.close(() => resolve());
      }),
  };
}

const runClient = (port: number): Promise<ProcessRun> =>
  runProcess(process.execPath, [CLIENT], { env: { ...process.env, PORT: String(port) } });

describe('a hostile Redis reply (fake server on loopback)', function () {
  this.timeout(20_000);
  // ioredis 5.11 ended the process on the first and the fifth (a RangeError thrown out of its parser).
  const replies: [string, string][] = [
    ['arrays nested 200,000 deep', `${'*1\r\n'.repeat(200_000)}:1\r\n`],
    ['an unknown type byte', '?garbage\r\n'],
    ['a bulk length past what a buffer can hold', '$99999999999999999\r\n'],
    ['an array length past what an array can hold', '*99999999999\r\n:1\r\n'],
    ['a length that is not a number', '*abc\r\n'],
    ['a bulk string cut short', '$1000\r\nabc'],
  ];
  for (const [what, hostile] of replies) {
    it(`rejects the call and the process lives: ${what}`, async () => {
      const fake = await startFakeRedis(hostile);
      try {
        const { code, stdout, stderr } = await runClient(fake.port);
        expect(code, `the client process ended with ${String(code)}: ${stderr.slice(0, 600)}`).to.equal(0);
        const outcome = JSON.parse(stdout.trim()) as { outcome: string };
        expect(outcome.outcome, stdout).to.equal('rejected');
      } finally {
        await fake.close();
      }
    });
  }

  it("reads a negative length other than -1 as no value, as Redis's own -1, and the process lives", async () => {
    const fake = await startFakeRedis('$-7\r\nabcdefg\r\n');
    try {
      const { code, stdout, stderr } = await runClient(fake.port);
      expect(code, stderr.slice(0, 600)).to.equal(0);
      expect(JSON.parse(stdout.trim())).to.deep.equal({ outcome: 'resolved', value: null });
    } finally {
      await fake.close();
    }
  });
});
