import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { Hono } from 'hono';

/** Swagger UI's files, from the installed package: no CDN, works offline. */
const swaggerDir = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
const asset = (name: string) => readFileSync(join(swaggerDir, name));

const PAGE = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>API documentation: Bitcoin escrow</title>
    <link rel="stylesheet" href="/api/docs/swagger-ui.css" />
  </head>
  <body>
    <div id="api-docs"></div>
    <script src="/api/docs/swagger-ui-bundle.js"></script>
    <script src="/api/docs/init.js"></script>
  </body>
</html>
`;

/** No inline script (the CSP allows none): the page's one script of its own is a file. */
const INIT = `window.addEventListener('load', function () {
  window.ui = SwaggerUIBundle({
    url: '/api/openapi.json',
    dom_id: '#api-docs',
    deepLinking: true,
    validatorUrl: null,
    tryItOutEnabled: false,
    defaultModelsExpandDepth: 0,
  });
});
`;

/** /api/docs: the OpenAPI document (/api/openapi.json) rendered by Swagger UI, served from the package. */
export function apiDocsRoutes() {
  const files: Record<string, { type: string; body: () => Buffer | string }> = {
    'swagger-ui.css': { type: 'text/css; charset=utf-8', body: () => asset('swagger-ui.css') },
    'swagger-ui-bundle.js': { type: 'text/javascript; charset=utf-8', body: () => asset('swagger-ui-bundle.js') },
    'init.js': { type: 'text/javascript; charset=utf-8', body: () => INIT },
  };
  const app = new Hono().get('/', (c) => c.html(PAGE));
  for (const [name, file] of Object.entries(files)) {
    let body: Buffer | string | undefined;
    app.get(`/${name}`, (c) => {
      body ??= file.body();
      c.header('Content-Type', file.type);
      c.header('Cache-Control', 'public, max-age=3600');
      return c.body(body as unknown as ArrayBuffer);
    });
  }
  return app;
}
