// Baseline for the synchronous path: a bare Express 5 app that parses JSON and answers an envelope.
import express from 'express';
import { Redis } from 'ioredis';

// With REDIS_URL set, each request also makes two sequential Redis round trips (an INCR, then a GET),
// the floor any Redis-backed endpoint pays; dialog-relay's synchronous path makes two as well.
const redis = process.env.REDIS_URL ? new Redis(process.env.REDIS_URL, { enableAutoPipelining: true, protocol: 2 }) : undefined;
const app = express();
app.post('/custom-im/chat-messages', express.json({ limit: '5mb' }), async (req, res) => {
  if (redis) {
    await redis.incr('bench:bare:counter');
    await redis.get('bench:bare:counter');
  }
  res.status(200).json({ code: 200, message: 'ok', request_id: 'bare', data: { echo: typeof req.body } });
});
const server = app.listen(Number(process.env.PORT), '127.0.0.1', () => process.send?.('ready'));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
