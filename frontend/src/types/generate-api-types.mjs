// Generates src/types/api.gen.ts from openapi.json (the server's OpenAPI document, printed by
// `garden-shop openapi`) with openapi-typescript. `just api-types` runs this file; the Vitest test
// src/types/api-gen.test.ts imports `generateApiTypes` to check that the checked-in file is current.
// Plain JavaScript so that Node runs it as it is.
import { readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import openapiTS, { astToString, COMMENT_HEADER } from 'openapi-typescript';

const HERE = dirname(fileURLToPath(import.meta.url));
export const DOCUMENT_PATH = join(HERE, '../../openapi.json');
export const TYPES_PATH = join(HERE, 'api.gen.ts');

const HEADER = `${COMMENT_HEADER}// Generated from frontend/openapi.json by \`just api-types\`; a Vitest test fails when it is stale.\n\n`;

/** The TypeScript for one OpenAPI document (its JSON text). */
export async function generateApiTypes(documentText) {
  const ast = await openapiTS(JSON.parse(documentText), { silent: true });
  return HEADER + astToString(ast);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const types = await generateApiTypes(await readFile(DOCUMENT_PATH, 'utf8'));
  await writeFile(TYPES_PATH, types);
  console.log(`wrote ${TYPES_PATH}`);
}
