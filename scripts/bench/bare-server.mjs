// Baseline for the synchronous path: a bare Express 5 app that parses JSON and answers an envelope.
import express from 'express';
const app = express();
app.post('/custom-im/chat-messages', express.json({ limit: '5mb' }), (req, res) => {
  res.status(200).json({ code: 200, message: 'ok', request_id: 'bare', data: { echo: typeof req.body } });
});
const server = app.listen(Number(process.env.PORT), '127.0.0.1', () => process.send?.('ready'));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
