import { DOCS_ASSETS } from '@dialog-relay/contracts';
import express, { type Request, type Response, type Router } from 'express';
import { createRequire } from 'node:module';
import { join } from 'node:path';

/** The swagger-ui-dist files /docs needs, served from the installed package (no CDN); the OpenAPI document lists the same. */
const ASSETS: Readonly<Record<string, string>> = DOCS_ASSETS;

// Only our own origin: the page cannot reach anything outside even if a bundled script tried.
const CSP =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; font-src 'self' data:; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>dialog-relay API reference</title>
<link rel="icon" href="/docs/assets/favicon-32x32.png">
<link rel="stylesheet" href="/docs/assets/swagger-ui.css">
</head>
<body>
<div id="swagger-ui"></div>
<script src="/docs/assets/swagger-ui-bundle.js"></script>
<script src="/docs/init.js"></script>
</body>
</html>
`;

// validatorUrl null: Swagger UI would otherwise send the document to an online validator.
const INIT = `window.ui = SwaggerUIBundle({
  url: '/openapi.json', dom_id: '#swagger-ui', validatorUrl: null, deepLinking: false,
  docExpansion: 'list', defaultModelsExpandDepth: 0, supportedSubmitMethods: [], tryItOutEnabled: false
});
`;

function assetDirectory(): string {
  const require = createRequire(import.meta.url);
  return join(require.resolve('swagger-ui-dist/package.json'), '..');
}

/**
 * GET /openapi.json (the document, built from the validating schema; its examples re-signed now and then) and
 * GET /docs, a rendered reference (Swagger UI from the swagger-ui-dist package, served locally).
 */
export function apiDocsRouter(documentJson: () => string): Router {
  const router = express.Router();
  const assets = assetDirectory();
  router.get('/openapi.json', (_req: Request, res: Response) => {
    res.type('application/json').set('Cache-Control', 'no-cache').send(documentJson());
  });
  router.get('/docs', (_req: Request, res: Response) => {
    res.set('Content-Security-Policy', CSP).type('html').send(PAGE);
  });
  router.get('/docs/init.js', (_req: Request, res: Response) => {
    res.type('text/javascript').send(INIT);
  });
  router.get('/docs/assets/:file', (req: Request, res: Response, next) => {
    const file = String(req.params['file']);
    const type = Object.hasOwn(ASSETS, file) ? ASSETS[file] : undefined;
    if (type === undefined) {
      next();
      return;
    }
    res.type(type).set('Cache-Control', 'public, max-age=3600').sendFile(join(assets, file));
  });
  return router;
}
