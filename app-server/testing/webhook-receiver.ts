import { createServer, type Server } from 'node:http';

/** One request a test receiver got: its headers and its raw body. */
export interface Received {
  path: string;
  headers: Record<string, string>;
  body: string;
  status: number;
}

/**
 * An HTTP receiver for webhook tests on 127.0.0.1, on the first free port of `ports`; `answer` picks each status
 * (default 200). Every request is kept, whatever was answered.
 */
export async function openReceiver(ports: readonly number[], answer: (n: number) => number = () => 200) {
  const received: Received[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const status = answer(received.length);
      received.push({
        path: req.url ?? '',
        headers: req.headers as Record<string, string>,
        body: Buffer.concat(chunks).toString('utf8'),
        status,
      });
      res.writeHead(status, { 'content-type': 'text/plain' }).end('ok');
    });
  });
  for (const port of ports) {
    const bound = await new Promise<boolean>((resolve) => {
      server.once('error', () => resolve(false));
      server.listen(port, '127.0.0.1', () => resolve(true));
    });
    if (bound) {
      return {
        url: `http://127.0.0.1:${port}`,
        received,
        close: () => new Promise<void>((resolve) => server.close(() => resolve())),
      };
    }
  }
  throw new Error(`no free port among ${ports.join(', ')}`);
}
