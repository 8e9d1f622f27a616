// The bare node:http server both engine-shaped yardsticks of bench:api sit behind: a path → handler table, JSON in and
// out, a thrown error answered 400 (or its `status`), no checks of any kind. Prints the listening line the bench reads
// and runs `close` (async allowed) after the server stops on SIGTERM.
import http from 'node:http';

export function serveRoutes(routes, close) {
  const server = http.createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url, 'http://x');
      const route = routes[url.pathname];
      let status = 200;
      let answer;
      try {
        if (!route) throw Object.assign(new Error('Not Found'), { status: 404 });
        answer = route(url.searchParams, chunks.length ? JSON.parse(Buffer.concat(chunks).toString('utf8')) : undefined);
      } catch (error) {
        status = error.status ?? 400;
        answer = { error: error.message };
      }
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(answer));
    });
  });
  server.keepAliveTimeout = 30_000;
  server.listen(0, '127.0.0.1', () => {
    process.stdout.write(`${JSON.stringify({ event: 'listening', url: `http://127.0.0.1:${server.address().port}` })}\n`);
  });
  process.on('SIGTERM', () =>
    server.close(async () => {
      await close();
      process.exit(0);
    }),
  );
}
