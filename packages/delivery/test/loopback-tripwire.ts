import net from 'node:net';

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|::1|::ffff:127\.\d+\.\d+\.\d+)$/;

/**
 * While installed, a TCP connect of this process to an address outside loopback throws before any
 * packet leaves (names are checked on what they resolve to). Tests that hand the deliverer a
 * forbidden address rely on its guard; this makes sure that, should the guard ever fail, the test
 * fails without contacting the address. `attempts` lists what was stopped.
 */
export function installLoopbackTripwire(): { attempts: string[]; uninstall: () => void } {
  const attempts: string[] = [];
  // eslint-disable-next-line @typescript-eslint/unbound-method -- kept to be called with the socket as this, below
  const original = net.Socket.prototype.connect;
  const refuse = (address: string): never => {
    attempts.push(address);
    throw new Error(`loopback tripwire: a connection to ${address} was stopped`);
  };
  const checked = (address: string): string => (LOOPBACK.test(address.replace(/^\[|\]$/g, '')) ? address : refuse(address));
  net.Socket.prototype.connect = function connect(this: net.Socket, ...args: unknown[]): net.Socket {
    const first = Array.isArray(args[0]) ? (args[0] as unknown[])[0] : args[0];
    if (typeof first === 'object' && first !== null && !('path' in first && (first as { path?: unknown }).path)) {
      const options = first as net.TcpNetConnectOpts;
      const host = options.host ?? 'localhost';
      if (net.isIP(host.replace(/^\[|\]$/g, '')) !== 0) checked(host);
      else if (typeof options.lookup === 'function') {
        const lookup = options.lookup;
        options.lookup = ((hostname: string, lookupOptions: object, callback: (...results: unknown[]) => void) =>
          lookup(hostname, lookupOptions, (error: Error | null, address: unknown, family?: number) => {
            if (error) return callback(error);
            const list = Array.isArray(address) ? (address as { address: string }[]).map((a) => a.address) : [String(address)];
            const outside = list.find((a) => !LOOPBACK.test(a));
            if (outside !== undefined) {
              attempts.push(outside);
              return callback(new Error(`loopback tripwire: a connection to ${outside} was stopped`));
            }
            return callback(null, address, family);
          })) as typeof options.lookup;
      }
    } else if (typeof first === 'number' && typeof args[1] === 'string') checked(args[1]);
    return (original as (...a: unknown[]) => net.Socket).apply(this, args);
  };
  return { attempts, uninstall: () => void (net.Socket.prototype.connect = original) };
}
