import { answerBody, checkAnswerAgainstOpenApi } from '@dialog-relay/testkit';
import { connect } from 'node:net';

/** Writes raw bytes on a loopback socket and collects everything until the server closes it. */
function exchange(url: string, request: string | Buffer): Promise<string> {
  const { port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => resolve(Buffer.concat(chunks).toString('utf8')));
    socket.write(request);
  });
}

/** The first answer of a raw HTTP exchange: status, headers and body (as the Content-Length says). */
export function parseRawAnswer(raw: string): { status: number; statusLine: string; headers: Headers; body: string } {
  const end = raw.indexOf('\r\n\r\n');
  if (end < 0) throw new Error(`no HTTP answer in: ${JSON.stringify(raw.slice(0, 200))}`);
  const [statusLine = '', ...lines] = raw.slice(0, end).split('\r\n');
  const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine)?.[1]);
  if (!Number.isInteger(status)) throw new Error(`not an HTTP status line: ${statusLine}`);
  const headers = new Headers();
  for (const line of lines) {
    const colon = line.indexOf(':');
    if (colon > 0) headers.append(line.slice(0, colon).trim(), line.slice(colon + 1).trim());
  }
  const rest = Buffer.from(raw.slice(end + 4), 'utf8');
  const length = headers.get('content-length');
  const body = (length === null ? rest : rest.subarray(0, Number(length))).toString('utf8');
  return { status, statusLine, headers, body };
}

/**
 * Writes raw bytes to the API and collects everything until it closes the connection; the answer is
 * checked against the API's OpenAPI document (the request line names the operation), as every
 * answer the tests' fetch receives is.
 */
export async function rawExchange(url: string, request: string | Buffer): Promise<string> {
  const raw = await exchange(url, request);
  const requestLine = /^([A-Z]+) (\/[^ ?]*)\S* HTTP\/1\.[01]\r\n/.exec(request.toString('latin1'));
  if (!requestLine)
    throw new Error('rawExchange needs a request line naming a method and a path, to check the answer against the OpenAPI document');
  const answer = parseRawAnswer(raw);
  await checkAnswerAgainstOpenApi(
    url,
    { method: requestLine[1]!, path: requestLine[2]! },
    {
      status: answer.status,
      headers: answer.headers,
      body: answerBody(answer.body, answer.headers.get('content-type')),
    },
  );
  return raw;
}

/** The JSON envelope of a raw HTTP answer, with its status line. */
export function envelopeOf(raw: string): { statusLine: string; headers: string; json: Record<string, unknown> } {
  const [head = '', body = ''] = raw.split('\r\n\r\n', 2);
  const [statusLine = '', ...headers] = head.split('\r\n');
  return { statusLine, headers: headers.join('\n').toLowerCase(), json: JSON.parse(body) as Record<string, unknown> };
}
