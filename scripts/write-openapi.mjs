// Writes docs/openapi.json: the OpenAPI document the API serves at GET /openapi.json with the default
// configuration (2-space JSON). `npm run openapi` runs it after a build; a test fails when the
// committed file drifts from the served document.
import { writeFileSync } from 'node:fs';
import { loadConfig } from '@dialog-relay/config';
import { openApiFileText, servedOpenApiDocument } from '../apps/api/dist/src/served-openapi.js';

const target = new URL('../docs/openapi.json', import.meta.url);
writeFileSync(target, openApiFileText(servedOpenApiDocument(loadConfig({}))));
process.stdout.write('wrote docs/openapi.json\n');
