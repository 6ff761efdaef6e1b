import express from 'express';

/** The baseline of the payments benchmark: the cheapest JSON answer Express can give. */
const app = express();
app.get('/ping', (_req, res) => void res.json({ ok: true }));
app.listen(Number(process.env.PORT), process.env.HOST ?? '127.0.0.1');
